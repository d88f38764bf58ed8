package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/store"
)

// defaultDB is the embedded default: one SQLite file in the working directory.
const defaultDB = "sqlite:stockroom.db"

// newFlags returns a command's flag set with the --db flag every command has.
func newFlags(name string) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	db := fs.String("db", defaultDB, "database: sqlite:PATH or a postgres:// URL")
	return fs, db
}

// openService opens and migrates the database, creating it if need be, and
// returns a service over it: what `serve` does.
func openService(ctx context.Context, dsn string, opts service.Options) (*service.Service, *store.DB, error) {
	db, err := store.Open(ctx, dsn)
	if err != nil {
		return nil, nil, err
	}
	if _, _, err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, nil, err
	}
	return service.New(db, opts), db, nil
}

// serviceFlags are what an admin command that uses the service reads from
// its arguments: its flags (fs), the database they name (dsn), and check,
// when not nil, the check of the flags' values once parsed.
type serviceFlags struct {
	fs    *flag.FlagSet
	dsn   *string
	check func() error
}

// withService parses c's flags from args, opens the existing, current
// database and runs fn.
func withService(ctx context.Context, e env, args []string, c serviceFlags, fn func(*service.Service) error) error {
	if err := parseFlags(c.fs, e, args); err != nil {
		return err
	}
	if c.check != nil {
		if err := c.check(); err != nil {
			return err
		}
	}
	db, err := openExisting(ctx, *c.dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := checkSchemaCurrent(ctx, db, *c.dsn); err != nil {
		return err
	}
	err = fn(service.New(db, service.Options{}))
	if stockroom.ErrorCode(err) == stockroom.EINVALID {
		return usageFor(c.fs, "%s", describe(err))
	}
	return err
}

// describe writes an error on one line, with validation details. An
// operator is told what the store could not reach, and why: behind
// "temporarily unavailable", which is all an API client is told, the
// driver's own error (a database that does not exist, a refused connection).
func describe(err error) string {
	var se *stockroom.Error
	if !errors.As(err, &se) || len(se.Details) == 0 {
		if se != nil {
			if c := causeBeside(err, se); se.Code == stockroom.EUNAVAILABLE && c != nil {
				return se.Message + " (" + c.Error() + ")"
			}
			return se.Message
		}
		return err.Error()
	}
	var parts []string
	for field, msgs := range se.Details {
		parts = append(parts, field+": "+strings.Join(msgs, ", "))
	}
	slices.Sort(parts)
	return strings.Join(parts, "; ")
}

// causeBeside returns the error wrapped beside se in err's tree (the store
// wraps a driver's error that means "unreachable" with its EUNAVAILABLE
// error, fmt.Errorf("%w (%w)", ...)), or nil.
func causeBeside(err error, se *stockroom.Error) error {
	switch w := err.(type) {
	case interface{ Unwrap() []error }:
		for _, c := range w.Unwrap() {
			if !errors.Is(c, se) {
				return c
			}
		}
		for _, c := range w.Unwrap() {
			if found := causeBeside(c, se); found != nil {
				return found
			}
		}
	case interface{ Unwrap() error }:
		return causeBeside(w.Unwrap(), se)
	}
	return nil
}

func runMigrate(ctx context.Context, e env, args []string) error {
	fs, dsn := newFlags("migrate")
	if err := parseFlags(fs, e, args); err != nil {
		return err
	}
	db, err := store.Open(ctx, *dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	from, to, err := db.Migrate(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "schema version %d (was %d)\n", to, from)
	return nil
}

func runWarehouseAdd(ctx context.Context, e env, args []string) error {
	fs, dsn := newFlags("warehouse add")
	id := fs.Int64("id", 0, "warehouse id, 1 to 2147483647 (required)")
	name := fs.String("name", "", "warehouse name (required)")
	check := func() error {
		if *id == 0 {
			return usageFor(fs, "--id is required")
		}
		return required(fs, "name")
	}
	return withService(ctx, e, args, serviceFlags{fs: fs, dsn: dsn, check: check}, func(svc *service.Service) error {
		if err := svc.AddWarehouse(ctx, service.Operator, stockroom.Warehouse{ID: *id, Name: *name}); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "warehouse %d added\n", *id)
		return nil
	})
}

func runWarehouseList(ctx context.Context, e env, args []string) error {
	fs, dsn := newFlags("warehouse list")
	return withService(ctx, e, args, serviceFlags{fs: fs, dsn: dsn}, func(svc *service.Service) error {
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "WID\tNAME\tACTIVE")
		for w, err := range svc.AllWarehouses(ctx, service.Operator) {
			if err != nil {
				return err
			}
			fmt.Fprintf(tw, "%d\t%s\t%t\n", w.ID, w.Name, w.Active)
		}
		return tw.Flush()
	})
}

func runClientAdd(ctx context.Context, e env, args []string) error {
	fs, dsn := newFlags("client add")
	var nc service.NewClient
	fs.StringVar(&nc.Name, "name", "", "client name (required)")
	fs.StringVar(&nc.ID, "id", "", "client id (generated when empty)")
	fs.StringVar(&nc.Secret, "secret", "", "client secret, 16 to 72 bytes (generated when empty)")
	perms := fs.String("permissions", "", "comma-separated SecurityIDs from "+stockroom.FormatPermissions(stockroom.AllPermissions)+", or all (required)")
	whs := fs.String("warehouses", "", "comma-separated warehouse ids, or all (required)")
	owners := fs.String("owners", "all", "comma-separated owners whose stock the client may see and change (customerIDs, 0 for the house's own stock), or all")
	reports := fs.String("reports", "none", "reports the client may run: comma-separated ReportIDs, all or none")
	fs.BoolVar(&nc.ReadOnly, "read-only", false, "the client may only read")
	check := func() error {
		if err := required(fs, "name", "permissions", "warehouses"); err != nil {
			return err
		}
		var err error
		if nc.Permissions, err = stockroom.ParsePermissions(*perms); err != nil {
			return usageFor(fs, "--permissions: %v", err)
		}
		if nc.Scope, err = stockroom.ParseScope(*whs); err != nil {
			return usageFor(fs, "--warehouses: %v", err)
		}
		o, err := stockroom.ParseOwners(*owners)
		if err != nil {
			return usageFor(fs, "--owners: %v", err)
		}
		nc.Owners = &o
		if nc.Reports, err = stockroom.ParseReports(*reports); err != nil {
			return usageFor(fs, "--reports: %v", err)
		}
		return nil
	}
	return withService(ctx, e, args, serviceFlags{fs: fs, dsn: dsn, check: check}, func(svc *service.Service) error {
		id, secret, err := svc.AddClient(ctx, service.Operator, nc)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "client_id=%s\nclient_secret=%s\n", id, secret)
		return nil
	})
}

func runClientList(ctx context.Context, e env, args []string) error {
	fs, dsn := newFlags("client list")
	return withService(ctx, e, args, serviceFlags{fs: fs, dsn: dsn}, func(svc *service.Service) error {
		clients, err := svc.ListClients(ctx, service.Operator)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tPERMISSIONS\tWAREHOUSES\tOWNERS\tREPORTS\tREAD-ONLY\tENABLED\tCREATED")
		for _, c := range clients {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%t\t%t\t%s\n", c.ID, c.Name, stockroom.FormatPermissions(c.Permissions),
				c.Scope, c.Owners, stockroom.FormatReports(c.Reports), c.ReadOnly, c.Enabled, c.Created.Format(time.RFC3339))
		}
		return tw.Flush()
	})
}

// clientIDCommand is the shape of the commands that act on one client by id.
func clientIDCommand(name string, act func(ctx context.Context, e env, svc *service.Service, id string) error) func(context.Context, env, []string) error {
	return func(ctx context.Context, e env, args []string) error {
		fs, dsn := newFlags(name)
		id := fs.String("id", "", "client id (required)")
		return withService(ctx, e, args, serviceFlags{fs: fs, dsn: dsn, check: func() error { return required(fs, "id") }}, func(svc *service.Service) error {
			return act(ctx, e, svc, *id)
		})
	}
}

var runClientDisable = clientIDCommand("client disable", func(ctx context.Context, e env, svc *service.Service, id string) error {
	if err := svc.SetClientEnabled(ctx, service.Operator, id, false); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "client %s disabled; its tokens are revoked\n", id)
	return nil
})

var runClientEnable = clientIDCommand("client enable", func(ctx context.Context, e env, svc *service.Service, id string) error {
	if err := svc.SetClientEnabled(ctx, service.Operator, id, true); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "client %s enabled\n", id)
	return nil
})

var runClientRotate = clientIDCommand("client rotate-secret", func(ctx context.Context, e env, svc *service.Service, id string) error {
	secret, err := svc.RotateSecret(ctx, service.Operator, id)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "client_id=%s\nclient_secret=%s\n", id, secret)
	return nil
})

func runReasonCodeAdd(ctx context.Context, e env, args []string) error {
	fs, dsn := newFlags("reasoncode add")
	var rc stockroom.ReasonCode
	fs.Int64Var(&rc.Code, "code", 0, "reason code, 1 to 2147483647 (required)")
	fs.StringVar(&rc.Description, "description", "", "what the code means (required)")
	direction := fs.String("direction", "", "receive, issue or any (required)")
	check := func() error {
		if rc.Code == 0 {
			return usageFor(fs, "--code is required")
		}
		rc.Direction = stockroom.Direction(*direction)
		return required(fs, "description", "direction")
	}
	return withService(ctx, e, args, serviceFlags{fs: fs, dsn: dsn, check: check}, func(svc *service.Service) error {
		if err := svc.AddReasonCode(ctx, service.Operator, rc); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "reason code %d added\n", rc.Code)
		return nil
	})
}

func runReasonCodeList(ctx context.Context, e env, args []string) error {
	fs, dsn := newFlags("reasoncode list")
	return withService(ctx, e, args, serviceFlags{fs: fs, dsn: dsn}, func(svc *service.Service) error {
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "CODE\tDIRECTION\tDESCRIPTION")
		for rc, err := range svc.AllReasonCodes(ctx, service.Operator) {
			if err != nil {
				return err
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\n", rc.Code, rc.Direction, rc.Description)
		}
		return tw.Flush()
	})
}

// errDiscrepancies makes `stockroom audit` exit 1 after it has printed what it
// found.
var errDiscrepancies = errors.New("the audit found discrepancies")

func runAudit(ctx context.Context, e env, args []string) error {
	fs, dsn := newFlags("audit")
	return withService(ctx, e, args, serviceFlags{fs: fs, dsn: dsn}, func(svc *service.Service) error {
		found, err := svc.Audit(ctx)
		if err != nil {
			return err
		}
		for _, d := range found {
			fmt.Fprintln(e.stdout, d.What)
		}
		if len(found) > 0 {
			fmt.Fprintf(e.stdout, "%d discrepancies\n", len(found))
			return errDiscrepancies
		}
		fmt.Fprintln(e.stdout, "audit: every invariant holds")
		return nil
	})
}

package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// givenFlags is the set of flags set on the command line or by their
// environment variables.
func givenFlags(fs *flag.FlagSet) map[string]bool {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return given
}

func runClientUpdate(ctx context.Context, e env, args []string) error {
	fs, dsn := newFlags("client update")
	id := fs.String("id", "", "client id (required)")
	name := fs.String("name", "", "new client name")
	perms := fs.String("permissions", "", "new permissions: comma-separated SecurityIDs from "+stockroom.FormatPermissions(stockroom.AllPermissions)+", or all")
	whs := fs.String("warehouses", "", "new warehouse scope: comma-separated warehouse ids, or all")
	owners := fs.String("owners", "", "new owner scope: comma-separated customerIDs (0 for the house's own stock), or all")
	reports := fs.String("reports", "", "reports the client may run: comma-separated ReportIDs, all or none")
	readOnly := fs.Bool("read-only", false, "whether the client may only read: --read-only=true or --read-only=false")
	var ch stockroom.ClientChange
	check := func() error {
		if err := required(fs, "id"); err != nil {
			return err
		}
		given := givenFlags(fs)
		var err error
		if given["name"] {
			ch.Name = name
		}
		if given["permissions"] {
			if ch.Permissions, err = stockroom.ParsePermissions(*perms); err != nil {
				return usageFor(fs, "--permissions: %v", err)
			}
		}
		if given["warehouses"] {
			if ch.Scope, err = parsed(stockroom.ParseScope, *whs); err != nil {
				return usageFor(fs, "--warehouses: %v", err)
			}
		}
		if given["owners"] {
			if ch.Owners, err = parsed(stockroom.ParseOwners, *owners); err != nil {
				return usageFor(fs, "--owners: %v", err)
			}
		}
		if given["reports"] {
			if ch.Reports, err = parsed(stockroom.ParseReports, *reports); err != nil {
				return usageFor(fs, "--reports: %v", err)
			}
		}
		if given["read-only"] {
			ch.ReadOnly = readOnly
		}
		if ch.IsEmpty() {
			return usageFor(fs, "nothing to change: give --name, --permissions, --warehouses, --owners, --reports or --read-only")
		}
		return nil
	}
	return withService(ctx, e, args, serviceFlags{fs: fs, dsn: dsn, check: check}, func(svc *service.Service) error {
		c, err := svc.UpdateClient(ctx, service.Operator, *id, ch)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "client %s: name %q, permissions %s, warehouses %s, owners %s, reports %s, read-only %t\n",
			c.ID, c.Name, stockroom.FormatPermissions(c.Permissions), c.Scope, c.Owners, stockroom.FormatReports(c.Reports), c.ReadOnly)
		fmt.Fprintln(e.stdout, "running servers apply the change within their --auth-cache time")
		return nil
	})
}

// parsed calls a scope parser and returns a pointer to its result.
func parsed(parse func(string) (stockroom.Scope, error), s string) (*stockroom.Scope, error) {
	scope, err := parse(s)
	if err != nil {
		return nil, err
	}
	return &scope, nil
}

func runWarehouseUpdate(ctx context.Context, e env, args []string) error {
	fs, dsn := newFlags("warehouse update")
	id := fs.Int64("id", 0, "warehouse id (required)")
	name := fs.String("name", "", "new warehouse name")
	active := fs.Bool("active", true, "whether the warehouse is active: --active=false deactivates it, --active=true reactivates it")
	var ch stockroom.WarehouseChange
	check := func() error {
		if *id == 0 {
			return usageFor(fs, "--id is required")
		}
		given := givenFlags(fs)
		if given["name"] {
			ch.Name = name
		}
		if given["active"] {
			ch.Active = active
		}
		if ch.Name == nil && ch.Active == nil {
			return usageFor(fs, "nothing to change: give --name or --active")
		}
		return nil
	}
	return withService(ctx, e, args, serviceFlags{fs: fs, dsn: dsn, check: check}, func(svc *service.Service) error {
		w, err := svc.UpdateWarehouse(ctx, service.Operator, *id, ch)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "warehouse %d: name %q, active %t\n", w.ID, w.Name, w.Active)
		return nil
	})
}

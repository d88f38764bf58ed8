// Command stockroom runs the Stockroom inventory service and administers its
// database.
//
//	stockroom serve                      start the HTTP API
//	stockroom migrate                    bring the schema up to date
//	stockroom version (or --version)     print the version and build
//	stockroom backup --to FILE           copy a running SQLite database
//	stockroom warehouse add|list|update  manage warehouses
//	stockroom client add|list|update|disable|enable|rotate-secret
//	stockroom reasoncode add|list        manage reason codes
//	stockroom audit                      check the inventory's invariants
//	stockroom events [--follow]          print the change feed as JSON lines
//	stockroom import items|customers|vendors|stock FILE.csv
//	                                     move in: rows checked, then written
//	stockroom demo --items N             load demo data
//
// Every flag can also be set by an environment variable: --token-ttl is
// STOCKROOM_TOKEN_TTL, and so on. A flag on the command line wins.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// env is how commands read the environment, so tests can pass their own.
type env struct {
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// command is one subcommand: its name, its one-line summary and what it does
// with its arguments.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, e env, args []string) error
}

// commands is every subcommand. A summary names every flag of its command
// but --db, which all but version take (a test holds the two together).
func commands() []command {
	return []command{
		{"serve", "start the HTTP API server, creating or migrating the database: [--addr HOST:PORT] [--token-ttl D] [--auth-cache D] [--rate-limit N] [--redis URL|HOST:PORT] [--real-ip-header NAME] [--cors-origins LIST] [--metrics-addr HOST:PORT] [--request-timeout D] [--event-retention D] [--export-timeout D] [--db-replica URL] [--webhook-allow-private] [--webhook-lease D] [--log-level LEVEL]", runServe},
		{"migrate", "create the database or bring its schema up to date", runMigrate},
		{"version", "print the version and build of this binary", runVersion},
		{"backup", "copy a SQLite database, consistent even while servers write: --to FILE", runBackup},
		{"warehouse add", "add a warehouse: --id N --name NAME", runWarehouseAdd},
		{"warehouse list", "list warehouses", runWarehouseList},
		{"warehouse update", "rename, deactivate or reactivate a warehouse: --id N [--name NAME] [--active=true|false]", runWarehouseUpdate},
		{"client add", "add a client: --name NAME --permissions LIST|all --warehouses LIST|all [--owners LIST|all] [--reports LIST|all] [--id ID] [--secret S] [--read-only]", runClientAdd},
		{"client list", "list clients (secrets are never shown)", runClientList},
		{"client update", "change a client (only the flags given change; running servers apply it within their auth-cache time): --id ID [--name NAME] [--permissions LIST|all] [--warehouses LIST|all] [--owners LIST|all] [--reports LIST|all|none] [--read-only=true|false]", runClientUpdate},
		{"client disable", "disable a client and revoke its tokens: --id ID", runClientDisable},
		{"client enable", "enable a client: --id ID", runClientEnable},
		{"client rotate-secret", "give a client a new secret and revoke its tokens: --id ID", runClientRotate},
		{"reasoncode add", "add a reason code: --code N --description TEXT --direction receive|issue|any", runReasonCodeAdd},
		{"reasoncode list", "list reason codes", runReasonCodeList},
		{"audit", "check the inventory's invariants; exit status 1 on any discrepancy", runAudit},
		{"report", "run a report, one JSON object a row (--csv: CSV with a header row): ID [--wid N] [--from T --to T] [--days N] [--serial S | --recNo N] [--flags F] [--csv]", runReport},
		{"events", "print the change feed, one JSON event a line, from the start or after --cursor; --follow waits for new events until interrupted: [--cursor C] [--types LIST] [--follow]", runEvents},
		{"import items", "add items from a CSV file (- for standard input) whose header row names the API's fields (POST /Item), every row checked before any is written; run again after it was cut short, it resumes: FILE [--skip N]", importCommand("items")},
		{"import customers", "add customers from a CSV file, as import items does: FILE [--skip N]", importCommand("customers")},
		{"import vendors", "add vendors from a CSV file, as import items does: FILE [--skip N]", importCommand("vendors")},
		{"import stock", "receive stock from a CSV file of receipts (POST /Inventory/Receive), each a lot in the ledger, as import items does; run again, a file imported completely is refused: FILE [--reason CODE] [--skip N] [--again]", importCommand("stock")},
		{"demo", "load demo data: [--items N] [--lots N] [--warehouses W] [--owners LIST]", runDemo},
	}
}

// usageError is a bad invocation: exit status 2, with usage.
type usageError struct {
	msg   string
	usage string
}

func (u *usageError) Error() string { return u.msg }

// run executes one invocation and returns the process exit status.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	e := env{getenv: getenv, stdin: os.Stdin, stdout: stdout, stderr: stderr}
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version") {
		// The flag every command-line tool answers, as the command.
		args = append([]string{"version"}, args[1:]...)
	}
	cmd, rest, ok := findCommand(args)
	if !ok {
		if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
			fmt.Fprint(stdout, mainUsage())
			return 0
		}
		fmt.Fprintf(stderr, "stockroom: unknown command %q\n%s", strings.Join(args[:min(2, len(args))], " "), mainUsage())
		return 2
	}
	err := cmd.run(ctx, e, rest)
	var ue *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "stockroom %s: %s\n%s", cmd.name, ue.msg, ue.usage)
		return 2
	default:
		fmt.Fprintf(stderr, "stockroom %s: %s\n", cmd.name, describe(err))
		return 1
	}
}

func findCommand(args []string) (command, []string, bool) {
	for _, c := range commands() {
		words := strings.Fields(c.name)
		if len(args) >= len(words) && strings.Join(args[:len(words)], " ") == c.name {
			return c, args[len(words):], true
		}
	}
	return command{}, nil, false
}

// usageWidth is where mainUsage wraps a long summary.
const usageWidth = 80

func mainUsage() string {
	var b strings.Builder
	b.WriteString("Usage: stockroom COMMAND [flags]\n\nCommands:\n")
	indent := strings.Repeat(" ", 25)
	for _, c := range commands() {
		line := fmt.Sprintf("  %-22s", c.name)
		for _, word := range strings.Fields(c.summary) {
			if len(line)+1+len(word) > usageWidth && strings.TrimSpace(line) != "" && len(line) > len(indent) {
				b.WriteString(line + "\n")
				line = indent[:len(indent)-1]
			}
			line += " " + word
		}
		b.WriteString(line + "\n")
	}
	b.WriteString(`
Every command but version takes --db sqlite:PATH or a postgres:// URL (default
sqlite:stockroom.db). Only serve and migrate create or migrate a database; the
others refuse one that does not exist or has an outdated schema.

Run 'stockroom COMMAND --help' for a command's flags. Every flag can also be
set through its STOCKROOM_* environment variable (--token-ttl: STOCKROOM_TOKEN_TTL).
`)
	return b.String()
}

// parseFlags parses args into fs, then fills every flag not given on the
// command line from its STOCKROOM_* environment variable. Errors are usage
// errors.
func parseFlags(fs *flag.FlagSet, e env, args []string) error {
	fs.SetOutput(io.Discard)
	usage := func() string { return usageText(fs) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(e.stdout, usage())
			return err
		}
		return &usageError{msg: err.Error(), usage: usage()}
	}
	if fs.NArg() > 0 {
		return &usageError{msg: fmt.Sprintf("unexpected argument %q", fs.Arg(0)), usage: usage()}
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		name := envName(f.Name)
		if v := e.getenv(name); v != "" && !given[f.Name] && err == nil {
			if serr := fs.Set(f.Name, v); serr != nil {
				err = &usageError{msg: fmt.Sprintf("%s=%q: %v", name, v, serr), usage: usage()}
			}
		}
	})
	return err
}

// envName is the environment variable of a flag: --token-ttl is
// STOCKROOM_TOKEN_TTL.
func envName(flagName string) string {
	return "STOCKROOM_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// required returns a usage error naming the first empty required flag.
func required(fs *flag.FlagSet, names ...string) error {
	for _, n := range names {
		if fs.Lookup(n).Value.String() == "" {
			return usageFor(fs, "--%s is required", n)
		}
	}
	return nil
}

func usageFor(fs *flag.FlagSet, format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...), usage: usageText(fs)}
}

// usageText is a command's usage line and flag list.
func usageText(fs *flag.FlagSet) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: stockroom %s [flags]\n", fs.Name())
	fs.SetOutput(&b)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	return b.String()
}

// Command stockroom runs the Stockroom inventory service and administers its
// database.
//
//	stockroom serve                      start the HTTP API
//	stockroom migrate                    bring the schema up to date
//	stockroom warehouse add|list         manage warehouses
//	stockroom client add|list|disable|enable|rotate-secret
//	stockroom reasoncode add|list        manage reason codes
//	stockroom audit                      check the inventory's invariants
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

func commands() []command {
	return []command{
		{"serve", "start the HTTP API server", runServe},
		{"migrate", "bring the database schema up to date", runMigrate},
		{"warehouse add", "add a warehouse: --id N --name NAME", runWarehouseAdd},
		{"warehouse list", "list warehouses", runWarehouseList},
		{"client add", "add a client: --name NAME --permissions LIST|all --warehouses LIST|all [--id ID] [--secret S] [--read-only]", runClientAdd},
		{"client list", "list clients (secrets are never shown)", runClientList},
		{"client disable", "disable a client and revoke its tokens: --id ID", runClientDisable},
		{"client enable", "enable a client: --id ID", runClientEnable},
		{"client rotate-secret", "give a client a new secret and revoke its tokens: --id ID", runClientRotate},
		{"reasoncode add", "add a reason code: --code N --description TEXT --direction receive|issue|any", runReasonCodeAdd},
		{"reasoncode list", "list reason codes", runReasonCodeList},
		{"audit", "check the inventory's invariants; exit status 1 on any discrepancy", runAudit},
		{"demo", "load demo data: --items N", runDemo},
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
	e := env{getenv: getenv, stdout: stdout, stderr: stderr}
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

func mainUsage() string {
	var b strings.Builder
	b.WriteString("Usage: stockroom COMMAND [flags]\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %-22s %s\n", c.name, c.summary)
	}
	b.WriteString("\nRun 'stockroom COMMAND --help' for a command's flags. Every flag can also be\nset through its STOCKROOM_* environment variable (--token-ttl: STOCKROOM_TOKEN_TTL).\n")
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

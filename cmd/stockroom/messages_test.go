package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
	"github.com/stockroom/stockroom/internal/testdb"
)

// commandInText finds a stockroom command line in a message: the command's
// words, then its flags.
var commandInText = regexp.MustCompile(`\bstockroom ((?:[a-z][a-z-]*)(?: [a-z][a-z-]*)?)((?: --?[a-z][a-z-]*(?:[= ][^ ,;)]*)?)*)`)

var flagInText = regexp.MustCompile(`--?([a-z][a-z-]*)`)

// TestCommandsInMessages: every command that a message of the program names
// (a string of its Go source outside tests: refusals of the API, errors of
// the CLI) is one the CLI accepts, with flags it has, so that an operator
// told to run it can. Issue 42 found a 409 telling them to run
// "stockroom warehouse update 2 --active=true", which fails.
func TestCommandsInMessages(t *testing.T) {
	root := filepath.Join("..", "..")
	found := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "sdk" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			text, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, m := range commandInText.FindAllStringSubmatchIndex(text, -1) {
				words, flags := text[m[2]:m[3]], text[m[4]:m[5]]
				if checkMentioned(t, path, words, flags, text[m[1]:]) {
					found++
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 5 {
		t.Fatalf("found %d commands named in messages; the scan is broken", found)
	}
}

// checkMentioned checks one command named in a message: words, then flags.
// Words that are no command's (prose: "stockroom error") are not one.
func checkMentioned(t *testing.T, path, words, flags, after string) bool {
	t.Helper()
	args := strings.Fields(words)
	cmd, _, ok := findCommand(args)
	if next := strings.Fields(after); ok && flags == "" && len(next) > 0 && strings.ContainsAny(next[0][:1], "0123456789%{<") {
		// "stockroom warehouse update 2 --active=true": no command takes
		// a positional argument.
		t.Errorf("%s: a message names stockroom %s with the argument %q; its commands take flags", path, cmd.name, next[0])
		return true
	}
	if ok && strings.Count(cmd.name, " ") != len(args)-1 && flags != "" {
		// "stockroom warehouse 2 --active": the words after a command's
		// name would be taken as its arguments.
		ok = false
	}
	if !ok {
		if flags != "" {
			t.Errorf("%s: a message names %q, which is no command of the CLI", path, "stockroom "+words+flags)
		}
		return false
	}
	var stdout, stderr bytes.Buffer
	run(ctx, append(strings.Fields(cmd.name), "-h"), getenv(nil), &stdout, &stderr)
	usage := stdout.String() + stderr.String()
	for _, fm := range flagInText.FindAllStringSubmatch(flags, -1) {
		if !strings.Contains(usage, "  -"+fm[1]+" ") && !strings.Contains(usage, "  -"+fm[1]+"\n") {
			t.Errorf("%s: a message names stockroom %s with --%s, which it does not take", path, cmd.name, fm[1])
		}
	}
	return true
}

// TestInactiveWarehouseCommandRuns: the command a 409 for an inactive
// warehouse tells the operator to run does reactivate it, run as written.
func TestInactiveWarehouseCommandRuns(t *testing.T) {
	dsn := testdb.DSN(t, "sqlite")
	s := startServe(t, dsn, nil)
	mustAdmin(t, dsn, "warehouse", "add", "--id", "2", "--name", "North")
	mustAdmin(t, dsn, "warehouse", "update", "--id", "2", "--active=false")
	c := sdk(t, s.url, s.adminID, s.adminSecret)
	if _, err := c.CreateItem(ctx, client.ItemInput{ShortID: "BOLT"}); err != nil {
		t.Fatal(err)
	}
	receive := func() error {
		_, err := c.Receive(ctx, client.ReceiveRequest{ItemID: "BOLT", Units: stockroom.Whole(1), WID: 2, ReasonCode: 1})
		return err
	}
	err := receive()
	m := regexp.MustCompile(`\(stockroom (warehouse update [^)]*)\)`).FindStringSubmatch(fmt.Sprint(err))
	if m == nil {
		t.Fatalf("receipt into an inactive warehouse: %v, naming no command", err)
	}
	mustAdmin(t, dsn, strings.Fields(m[1])...)
	if err := receive(); err != nil {
		t.Fatalf("after %q: %v", m[1], err)
	}
}

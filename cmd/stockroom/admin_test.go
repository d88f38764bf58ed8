package main

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// addCustomer stores customer id as POST /Customer would.
func addCustomer(t *testing.T, dsn string, id int64) {
	t.Helper()
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	n := strconv.FormatInt(id, 10)
	err = db.ExecForTest(context.Background(), `
		INSERT INTO parties (id, kind, short_id, short_id_key, name, address1, address2, city, state, zip,
			country, phone, fax, email, contact, active, created, modified)
		VALUES (`+n+`, 'customer', 'C-`+n+`', 'c-`+n+`', 'Customer `+n+`', '', '', '', '', '', '', '', '', '', '', TRUE, 0, 0)`)
	if err != nil {
		t.Fatal(err)
	}
}

// findClient reads a client as stored.
func findClient(t *testing.T, dsn, id string) *stockroom.Client {
	t.Helper()
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c, _, err := db.FindClient(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// authenticate issues a token to a client and authenticates it as a server
// does, and returns the principal requests would carry.
func authenticate(t *testing.T, dsn, id, secret string) *stockroom.Principal {
	t.Helper()
	svc, db, err := openService(context.Background(), dsn, service.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tok, err := svc.IssueToken(context.Background(), id, secret)
	if err != nil {
		t.Fatalf("token for %s: %v", id, err)
	}
	p, err := svc.Authenticate(context.Background(), tok.AccessToken)
	if err != nil {
		t.Fatalf("authenticate %s: %v", id, err)
	}
	return p
}

// TestClientOwners: `client add --owners` limits a client to owners that
// exist, the principal its tokens authenticate carries them, and `client
// update` changes only what it is given.
func TestClientOwners(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			dsn := testdb.DSN(t, engine)
			mustAdmin(t, dsn, "migrate")
			mustAdmin(t, dsn, "warehouse", "add", "--id", "1", "--name", "Main")
			add := []string{"client", "add", "--name", "3PL portal", "--permissions", "11,95", "--warehouses", "all",
				"--owners", "0,5,8", "--id", "tpl", "--secret", "tpl-secret-0123456789"}
			addCustomer(t, dsn, 5)
			code, _, errOut := admin(t, dsn, add...)
			if code != 2 || !strings.Contains(errOut, "customer 8 does not exist") || strings.Contains(errOut, "customer 5 ") {
				t.Fatalf("client on a missing customer: exit %d %q, want 2 naming customer 8 only", code, errOut)
			}
			addCustomer(t, dsn, 8)
			mustAdmin(t, dsn, add...)
			if p := authenticate(t, dsn, "tpl", "tpl-secret-0123456789"); p.Owners.All || !slices.Equal(p.Owners.IDs, []int64{0, 5, 8}) {
				t.Fatalf("the principal of a client added with --owners 0,5,8 has owners %v", p.Owners)
			}
			if out := mustAdmin(t, dsn, "client", "list"); !strings.Contains(out, "OWNERS") || !strings.Contains(out, " 0,5,8 ") {
				t.Fatalf("client list does not show the owners: %s", out)
			}
			// Without --owners a client has every owner.
			out := mustAdmin(t, dsn, "client", "add", "--name", "Any", "--permissions", "11", "--warehouses", "1")
			id := credID.FindStringSubmatch(out)[1]
			if c := findClient(t, dsn, id); !c.Owners.All {
				t.Fatalf("client added without --owners has owners %v, want all", c.Owners)
			}

			before := findClient(t, dsn, "tpl")
			out = mustAdmin(t, dsn, "client", "update", "--id", "tpl", "--owners", "5")
			if !strings.Contains(out, "owners 5,") {
				t.Fatalf("client update printed %q", out)
			}
			after := findClient(t, dsn, "tpl")
			if !slices.Equal(after.Owners.IDs, []int64{5}) || after.Name != before.Name || !slices.Equal(after.Permissions, before.Permissions) ||
				!after.Scope.All || after.ReadOnly || !after.Modified.After(before.Modified) {
				t.Fatalf("--owners 5 changed %+v into %+v", before, after)
			}
			mustAdmin(t, dsn, "client", "update", "--id", "tpl", "--name", "Portal", "--permissions", "all",
				"--warehouses", "1", "--owners", "all", "--read-only=true")
			p := authenticate(t, dsn, "tpl", "tpl-secret-0123456789")
			if p.Name != "Portal" || !slices.Equal(p.Permissions, slices.Sorted(slices.Values(stockroom.AllPermissions))) ||
				!slices.Equal(p.Scope.IDs, []int64{1}) || !p.Owners.All || !p.ReadOnly {
				t.Fatalf("principal after update: %+v", p)
			}
			mustAdmin(t, dsn, "client", "update", "--id", "tpl", "--read-only=false")
			if c := findClient(t, dsn, "tpl"); c.ReadOnly || c.Name != "Portal" {
				t.Fatalf("--read-only=false gave %+v", c)
			}
		})
	}
}

// TestUpdateReachesRunningServers: a change to a client reaches a running
// server within its --auth-cache time, with the token the client holds.
func TestUpdateReachesRunningServers(t *testing.T) {
	dsn := testdb.DSN(t, "sqlite")
	s := startServe(t, dsn, nil, "--auth-cache", "1s")
	mustAdmin(t, dsn, "warehouse", "add", "--id", "2", "--name", "North")
	out := mustAdmin(t, dsn, "client", "add", "--name", "Picker", "--permissions", "11", "--warehouses", "2", "--id", "picker")
	picker := sdk(t, s.url, "picker", credSecret.FindStringSubmatch(out)[1])
	if whs, err := picker.ListWarehouses(ctx, client.ListOptions{}); err != nil || len(whs.Value) != 1 {
		t.Fatalf("before the update: %+v %v", whs, err)
	}
	mustAdmin(t, dsn, "client", "update", "--id", "picker", "--warehouses", "1,2")
	deadline := time.Now().Add(5 * time.Second)
	for {
		whs, err := picker.ListWarehouses(ctx, client.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(whs.Value) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("5s after the update (--auth-cache 1s) the client still sees %+v", whs.Value)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestWarehouseUpdate(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			dsn := testdb.DSN(t, engine)
			mustAdmin(t, dsn, "migrate")
			mustAdmin(t, dsn, "warehouse", "add", "--id", "2", "--name", "North")
			if out := mustAdmin(t, dsn, "warehouse", "update", "--id", "2", "--name", "North annex", "--active=false"); !strings.Contains(out, `"North annex", active false`) {
				t.Fatalf("warehouse update printed %q", out)
			}
			if out := mustAdmin(t, dsn, "warehouse", "list"); !regexpLine(out, `^2\s+North annex\s+false$`) {
				t.Fatalf("warehouse list after deactivation: %s", out)
			}
			mustAdmin(t, dsn, "warehouse", "update", "--id", "2", "--active=true")
			if out := mustAdmin(t, dsn, "warehouse", "list"); !regexpLine(out, `^2\s+North annex\s+true$`) {
				t.Fatalf("warehouse list after reactivation: %s", out)
			}
			code, _, errOut := admin(t, dsn, "warehouse", "update", "--id", "42", "--name", "Nowhere")
			if code != 1 || !strings.Contains(errOut, "Warehouse 42 does not exist.") || strings.Contains(errOut, "Usage") {
				t.Fatalf("unknown warehouse: exit %d %q, want 1 without usage", code, errOut)
			}
		})
	}
}

func regexpLine(out, pattern string) bool {
	re := regexp.MustCompile(pattern)
	for line := range strings.SplitSeq(out, "\n") {
		if re.MatchString(strings.TrimSpace(line)) {
			return true
		}
	}
	return false
}

func TestUpdateBadArguments(t *testing.T) {
	dsn := testdb.DSN(t, "sqlite")
	mustAdmin(t, dsn, "migrate")
	mustAdmin(t, dsn, "warehouse", "add", "--id", "1", "--name", "Main")
	mustAdmin(t, dsn, "client", "add", "--name", "App", "--permissions", "11", "--warehouses", "1", "--id", "app")
	for _, args := range [][]string{
		{"client", "update", "--name", "X"},
		{"client", "update", "--id", "app"},
		{"client", "update", "--id", "app", "--permissions", "12"},
		{"client", "update", "--id", "app", "--warehouses", "x"},
		{"client", "update", "--id", "app", "--warehouses", "9"},
		{"client", "update", "--id", "app", "--owners", "-1"},
		{"client", "update", "--id", "app", "--owners", "77"},
		{"client", "update", "--id", "app", "--read-only=maybe"},
		{"client", "update", "--id", "app", "--name", " "},
		{"client", "update", "--id", "app", "stray"},
		{"client", "add", "--name", "x", "--permissions", "11", "--warehouses", "all", "--owners", "a,b"},
		{"client", "add", "--name", "x", "--permissions", "11", "--warehouses", "all", "--owners", "77"},
		{"warehouse", "update", "--name", "X"},
		{"warehouse", "update", "--id", "1"},
		{"warehouse", "update", "--id", "-3", "--name", "X"},
		{"warehouse", "update", "--id", "x", "--name", "X"},
		{"warehouse", "update", "--id", "1", "--name", ""},
		{"warehouse", "update", "--id", "1", "--active=maybe"},
	} {
		code, _, errOut := admin(t, dsn, args...)
		first, _, _ := strings.Cut(errOut, "\n")
		if code != 2 || !strings.HasPrefix(first, "stockroom") || !strings.Contains(errOut, "Usage: stockroom") {
			t.Errorf("%v: exit %d, stderr %q; want 2 with a one-line error and usage", args, code, errOut)
		}
		if args[len(args)-1] == "77" && !strings.Contains(errOut, "customer 77 does not exist") {
			t.Errorf("%v: %q does not name the missing customer", args, errOut)
		}
	}
	code, _, errOut := admin(t, dsn, "client", "update", "--id", "ghost", "--name", "Boo")
	if code != 1 || !strings.Contains(errOut, `Client "ghost" does not exist.`) || strings.Contains(errOut, "Usage") {
		t.Errorf("unknown client: exit %d %q, want 1 without usage", code, errOut)
	}
	if c := findClient(t, dsn, "app"); c.Name != "App" || !slices.Equal(c.Scope.IDs, []int64{1}) || !c.Owners.All || c.ReadOnly {
		t.Errorf("refused updates changed the client: %+v", c)
	}
}

// TestUnreachableDatabaseSaysWhy runs migrate against a PostgreSQL that
// refuses the connection and, when one is configured, against a database
// of it that does not exist: an operator is told the driver's reason
// beside "temporarily unavailable", exit 1.
func TestUnreachableDatabaseSaysWhy(t *testing.T) {
	cases := []struct{ dsn, want string }{
		{"postgres://postgres@127.0.0.1:1/stockroom?sslmode=disable&connect_timeout=5", "connection refused"},
	}
	if base := os.Getenv("STOCKROOM_TEST_POSTGRES"); base != "" {
		u, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		u.Path = "/stockroom_no_such_database"
		cases = append(cases, struct{ dsn, want string }{u.String(), `database "stockroom_no_such_database" does not exist`})
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"migrate", "--db", c.dsn}, getenv(nil), &stdout, &stderr)
		if code != 1 || !strings.Contains(stderr.String(), "temporarily unavailable") || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("migrate --db %s: exit %d, stderr %q; want 1, saying %q", c.dsn, code, stderr.String(), c.want)
		}
	}
}

package httpapi_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/internal/openapitest"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// fuzzRoutes are the routes whose path and query parameters
// FuzzQueryAndPathParameters fills in: a {} is the fuzzed path segment.
var fuzzRoutes = []string{
	"GET /api/v1/Item",
	"GET /api/v1/Item/{}",
	"DELETE /api/v1/Item/{}",
	"GET /api/v1/Item/All",
	"GET /api/v1/Alias",
	"DELETE /api/v1/Alias/{}",
	"GET /api/v1/Inventory",
	"GET /api/v1/Inventory/{}",
	"GET /api/v1/Inventory/StockLevels",
	"GET /api/v1/Inventory/StockLevels/{}",
	"GET /api/v1/Inventory/Transactions",
	"GET /api/v1/Inventory/Transactions/{}",
	"GET /api/v1/Warehouse",
	"GET /api/v1/ReasonCode",
	"POST /api/v1/Inventory/{}",
	"GET /api/v1/Customer",
	"GET /api/v1/Customer/{}",
	"GET /api/v1/Vendor/{}",
	"GET /api/v1/Category/{}",
	"DELETE /api/v1/Customer/{}",
	"DELETE /api/v1/Category/{}",
	"GET /api/v1/Transit",
	"GET /api/v1/Transit/{}",
	"POST /api/v1/Transit/{}/Cancel",
}

// escapeLoosely percent-encodes only what cannot stand in a request line
// (white space, control bytes, bytes beyond ASCII, '#'), so that a fuzzed
// '%' escape reaches the server as written: %00, %FF, %zz.
func escapeLoosely(s string, alsoQuery bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || c == '#' || (alsoQuery && c == '?') {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// FuzzQueryAndPathParameters sends fuzzed path segments and query strings to
// the real server over a real database: PostgreSQL when
// STOCKROOM_TEST_POSTGRES is set (the engine that is strictest about text),
// else SQLite. No answer may be a 5xx, every 4xx must be the error object,
// and every answer must match the OpenAPI document.
func FuzzQueryAndPathParameters(f *testing.F) {
	for _, s := range []struct {
		route      uint8
		seg, query string
	}{
		{0, "", "key=%00"}, {0, "", "key=item-a&type=alias"}, {0, "", "category=%FF"}, {0, "", "Category=1&page=2"},
		{1, "1", ""}, {1, "%FF", ""}, {1, "ITEM-A", ""}, {2, "%00", ""}, {2, "ITEM-B", ""}, {3, "", "sort=modified&direction=desc&modifiedSince=2025-01-15"},
		{4, "", "itemID=%FF"}, {5, "%00", ""}, {5, "x", ""}, {6, "", "spot=A%00"}, {6, "", "serial=%C0%AF&hold=true&includeShipped=1"},
		{7, "1", "itemID=ITEM-A"}, {7, "Receive", ""}, {7, "99999999999999999999", ""}, {8, "", "itemID=ITEM-A&includeZero=true&wid=1"},
		{9, "2", "wid=%ED%A0%80"}, {10, "", "itemID=ITEM-A&type=receive&wid=1"}, {11, "1", ""}, {11, "%C0%AF", ""},
		{6, "", "owner=%00"}, {8, "", "owner=-1"}, {10, "", "owner=ACME&type=issue"}, {7, "1", "owner=99999999999999999999"},
		{15, "", "sort=shortID&modifiedSince=%FF"}, {16, "ACME", ""}, {17, "%C0%AF", ""}, {18, "-1", ""}, {19, "%00", ""}, {20, "0x10", ""},
		{7, "", "0"}, {12, "", "page=0&pageSize=%zz"}, {13, "", "%FF=1&pagesize=1000"}, {14, "Receive", "x=%00"}, {1, "..", ""}, {7, "/Receive", ""},
	} {
		f.Add(s.route, s.seg, s.query)
	}
	a := newAPIWith(f, fuzzDB(f), service.Options{})
	tok := a.token(f, a.adminID, a.adminSecret)
	for _, body := range []string{`{"shortID":"ITEM-A"}`, `{"shortID":"ITEM-B"}`} {
		if r := a.do(f, "POST", "/api/v1/Item", strings.NewReader(body), "Authorization", "Bearer "+tok, "Content-Type", "application/json"); r.status != 201 {
			f.Fatalf("seed item: %d %s", r.status, r.body)
		}
	}
	if r := a.do(f, "POST", "/api/v1/Inventory/Receive", strings.NewReader(`{"itemID":"ITEM-A","units":5,"wid":1,"reasonCode":1,"spot":"A"}`),
		"Authorization", "Bearer "+tok, "Content-Type", "application/json"); r.status != 201 {
		f.Fatalf("seed stock: %d %s", r.status, r.body)
	}
	checker, err := openapitest.New()
	if err != nil {
		f.Fatal(err)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	f.Fuzz(func(t *testing.T, route uint8, seg, query string) {
		method, path, _ := strings.Cut(fuzzRoutes[int(route)%len(fuzzRoutes)], " ")
		path = strings.Replace(path, "{}", escapeLoosely(seg, true), 1)
		u, err := url.Parse(a.url + path + "?" + escapeLoosely(query, false))
		if err != nil {
			return // no client can send it
		}
		var body io.Reader
		if method == "POST" {
			body = strings.NewReader(`{"itemID":"ITEM-A","units":1,"wid":1,"reasonCode":1,"toSpot":"B","spot":"A"}`)
		}
		req, err := http.NewRequest(method, u.String(), body)
		if err != nil {
			return
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		res, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, u, err)
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatalf("%s %s: %v", method, u, err)
		}
		if res.StatusCode >= 500 {
			t.Fatalf("%s %s: %d %s", method, u, res.StatusCode, b)
		}
		if res.StatusCode >= 400 {
			var e struct {
				StatusCode int    `json:"statusCode"`
				Error      string `json:"error"`
				Message    string `json:"message"`
			}
			if json.Unmarshal(b, &e) != nil || e.StatusCode != res.StatusCode || e.Error == "" || e.Message == "" ||
				!bytes.Contains(b, []byte(`"details":`)) || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
				t.Fatalf("%s %s: %d is not the error object: %s", method, u, res.StatusCode, b)
			}
		}
		// The checker's router forgives a trailing slash, which the server
		// does not: such a path is no operation of the document.
		if strings.HasSuffix(u.EscapedPath(), "/") {
			return
		}
		if err := checker.Check(req, res.StatusCode, res.Header, b); err != nil {
			t.Fatalf("%s %s: %d does not match the OpenAPI document: %v\n%s", method, u, res.StatusCode, err, b)
		}
	})
}

// fuzzSchemaMark is the comment on the PostgreSQL schemas of fuzzing
// processes; fuzzLockClass the first key of the advisory lock each holds on
// its schema while it lives.
const (
	fuzzSchemaMark = "stockroom fuzz target database"
	fuzzLockClass  = 0x53_52 // "SR"
)

// fuzzDB returns the fuzz target's database: a fresh PostgreSQL schema when
// STOCKROOM_TEST_POSTGRES is set, else a fresh SQLite file. A fuzzing
// process may be stopped without running its cleanup, which would leave its
// schema behind on a shared server; so each process holds a session lock on
// its schema while it lives, and drops the schemas whose process has gone.
func fuzzDB(f *testing.F) *store.DB {
	engines := testdb.Engines(f)
	if engines[len(engines)-1] != store.Postgres {
		return testdb.MustOpen(f, store.SQLite)
	}
	ctx := context.Background()
	admin, err := sql.Open("pgx", testdb.RequirePostgres(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { admin.Close() })
	sweepFuzzSchemas(f, ctx, admin)

	dsn := testdb.DSN(f, store.Postgres)
	u, err := url.Parse(dsn)
	if err != nil {
		f.Fatal(err)
	}
	schema := u.Query().Get("search_path")
	lock, err := admin.Conn(ctx) // held until the process ends
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { lock.Close() })
	if _, err := lock.ExecContext(ctx, "SELECT pg_advisory_lock($1, hashtext($2))", fuzzLockClass, schema); err != nil {
		f.Fatal(err)
	}
	// Marked only once locked, so that no sweep takes it for abandoned.
	if _, err := admin.ExecContext(ctx, `COMMENT ON SCHEMA "`+schema+`" IS '`+fuzzSchemaMark+`'`); err != nil {
		f.Fatal(err)
	}
	db, err := store.Open(ctx, dsn)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	if _, _, err := db.Migrate(ctx); err != nil {
		f.Fatal(err)
	}
	return db
}

// sweepFuzzSchemas drops the marked schemas that no live process holds.
func sweepFuzzSchemas(f *testing.F, ctx context.Context, admin *sql.DB) {
	rows, err := admin.QueryContext(ctx, "SELECT nspname FROM pg_namespace WHERE obj_description(oid, 'pg_namespace') = $1", fuzzSchemaMark)
	if err != nil {
		f.Fatal(err)
	}
	var schemas []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			f.Fatal(err)
		}
		schemas = append(schemas, s)
	}
	if err := rows.Err(); err != nil {
		f.Fatal(err)
	}
	conn, err := admin.Conn(ctx)
	if err != nil {
		f.Fatal(err)
	}
	defer conn.Close()
	for _, s := range schemas {
		var free bool
		if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1, hashtext($2))", fuzzLockClass, s).Scan(&free); err != nil {
			f.Fatal(err)
		}
		if !free {
			continue
		}
		if _, err := conn.ExecContext(ctx, `DROP SCHEMA IF EXISTS "`+s+`" CASCADE`); err != nil {
			f.Logf("drop abandoned fuzz schema %s: %v", s, err)
		}
		if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1, hashtext($2))", fuzzLockClass, s); err != nil {
			f.Fatal(err)
		}
	}
}

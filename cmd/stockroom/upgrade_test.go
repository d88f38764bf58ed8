package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// TestUpgradeFromPreviousRelease: a database made by the release before
// owners (schema 6), by that release's own binary, with items using
// categories and default owners, lots received, emptied, split, held and
// released, and their ledger, is migrated by this release's server on start.
// Then the audit finds nothing; every item reads and names categories and
// customers that exist; every lot and every stock level reads as before and
// is the house's; stock changes work on it, old stock drawn as the house's;
// and migration 7's Down gives back a database the previous release's audit
// accepts, which migrates again.
func TestUpgradeFromPreviousRelease(t *testing.T) {
	bin := buildPreviousRelease(t, t.TempDir())
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			dsn := testdb.DSN(t, engine)
			before := fillPreviousRelease(t, bin, dsn)
			srv := startServe(t, dsn, nil, "--rate-limit", "1000000")
			checkUpgraded(t, engine, dsn, srv.url, before)
			changeUpgraded(t, dsn, sdk(t, srv.url, before.adminID, before.secret), before)
			if code := srv.wait(); code != 0 {
				t.Fatalf("serve exited with %d: %s", code, srv.stderr)
			}
			checkDown(t, bin, dsn)
		})
	}
}

// prevState is what the previous release showed before the upgrade.
type prevState struct {
	adminID, secret string
	levels          map[string][]map[string]any // by levelViews path
	lots            []map[string]any            // every lot, emptied ones too
	held            int64                       // a held lot of OWNED-7
	house           int64                       // a lot of OWNED-7 with units, not held
}

// levelViews are the stock-level lists compared across the upgrade: summed
// over warehouses, and each warehouse's.
var levelViews = []string{"Inventory/StockLevels", "Inventory/StockLevels/1", "Inventory/StockLevels/2", "Inventory/StockLevels/3"}

// fillPreviousRelease makes the database with the previous release: demo
// items and lots, two items with a category and a default owner, and stock
// changes of every kind through its API. It returns what that release then
// showed, its own audit having found nothing.
func fillPreviousRelease(t *testing.T, bin, dsn string) prevState {
	t.Helper()
	if out := runPrevious(t, bin, "migrate", "--db", dsn); !strings.Contains(out, "schema version 6") {
		t.Fatalf("the previous release migrated to %q, want schema version 6", out)
	}
	runPrevious(t, bin, "demo", "--db", dsn, "--items", "30", "--lots", "240", "--warehouses", "3")
	s := startPrevious(t, bin, dsn)
	s.do("POST", "Item", `{"shortID":"OWNED-7","description":"Kept for customer 7","category":60,"subCategory":61,"dfltOwner":7}`, nil)
	s.do("POST", "Item", `{"shortID":"OWNED-12","description":"Kept for customer 12","category":3,"dfltOwner":12}`, nil)
	receive := func(item string, wid, units int) int64 {
		var r struct{ RecNo int64 }
		s.do("POST", "Inventory/Receive", fmt.Sprintf(`{"itemID":%q,"units":%d,"wid":%d,"reasonCode":1,"spot":"R-1"}`, item, units, wid), &r)
		return r.RecNo
	}
	receive("OWNED-7", 1, 10)
	split := receive("OWNED-7", 1, 20)
	held := receive("OWNED-7", 1, 30)
	receive("OWNED-7", 2, 5)
	released := receive("OWNED-12", 3, 8)
	s.do("POST", "Inventory/Issue", `{"itemID":"OWNED-7","units":10,"wid":1,"reasonCode":20}`, nil) // empties the first lot
	s.do("POST", "Inventory/Issue", `{"itemID":"OWNED-7","units":5,"wid":1,"reasonCode":20}`, nil)  // part of the second
	s.do("POST", "Inventory/Move", `{"itemID":"OWNED-7","units":7,"wid":1,"shipToWid":2,"toSpot":"M-1"}`, nil)
	s.do("POST", "Inventory/Hold", fmt.Sprintf(`{"recno":%d}`, held), nil)
	s.do("POST", "Inventory/Hold", fmt.Sprintf(`{"recno":%d}`, released), nil)
	s.do("POST", "Inventory/Release", fmt.Sprintf(`{"recno":%d}`, released), nil)
	// Draws over several demo lots: all but one unit of an item in one
	// warehouse issued, all of another moved.
	var lv listPage
	s.do("GET", "Inventory/StockLevels/1?itemID=DEMO-0000001", "", &lv)
	have, err := strconv.ParseInt(fmt.Sprint(lv.Value[0]["inStock"]), 10, 64)
	if err != nil || have < 3 {
		t.Fatalf("DEMO-0000001 in warehouse 1: %v %v", lv.Value, err)
	}
	s.do("POST", "Inventory/Issue", fmt.Sprintf(`{"itemID":"DEMO-0000001","units":%d,"wid":1,"reasonCode":20}`, have-1), nil)
	s.do("GET", "Inventory/StockLevels/2?itemID=DEMO-0000002", "", &lv)
	s.do("POST", "Inventory/Move", fmt.Sprintf(`{"itemID":"DEMO-0000002","units":%s,"wid":2,"shipToWid":3}`, lv.Value[0]["inStock"]), nil)
	if out := runPrevious(t, bin, "audit", "--db", dsn); !strings.Contains(out, "every invariant holds") {
		t.Fatalf("the previous release's audit: %s", out)
	}
	get := func(path string, out *listPage) { s.do("GET", path, "", out) }
	st := prevState{adminID: s.adminID, secret: s.secret, levels: map[string][]map[string]any{}, held: held, house: split}
	for _, v := range levelViews {
		st.levels[v] = rows(t, v, get)
	}
	st.lots = rows(t, "Inventory?includeShipped=true", get)
	s.stop()
	return st
}

// sameRecords reports every field the previous release showed that this one
// shows differently, or does not show, with records matched by key.
func sameRecords(t *testing.T, what, key string, old, now []map[string]any) {
	t.Helper()
	byKey := map[string]map[string]any{}
	for _, r := range now {
		byKey[fmt.Sprint(r[key])] = r
	}
	if len(now) != len(old) {
		t.Errorf("%s: %d records, before the upgrade %d", what, len(now), len(old))
	}
	for _, o := range old {
		n, ok := byKey[fmt.Sprint(o[key])]
		if !ok {
			t.Errorf("%s: %s %v is gone", what, key, o[key])
			continue
		}
		for field, v := range o {
			if !reflect.DeepEqual(n[field], v) {
				t.Errorf("%s: %s %v: %s is %v, before the upgrade %v", what, key, o[key], field, n[field], v)
			}
		}
	}
}

// checkUpgraded holds the migrated database to what the previous release
// showed.
func checkUpgraded(t *testing.T, engine, dsn, base string, before prevState) {
	t.Helper()
	if out := mustAdmin(t, dsn, "audit"); !strings.Contains(out, "every invariant holds") {
		t.Fatalf("audit after the upgrade: %s", out)
	}
	token := mustToken(t, base, before.adminID, before.secret) // the client survived
	get := func(path string, out *listPage) {
		t.Helper()
		status, body, _ := call("GET", base+"/api/v1/"+path, token, "")
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if err := dec.Decode(out); status != 200 || err != nil {
			t.Fatalf("GET %s: %d %s", path, status, body)
		}
	}
	for _, v := range levelViews {
		sameRecords(t, v, "shortID", before.levels[v], rows(t, v, get))
		sameRecords(t, v+"?owner=0", "shortID", before.levels[v], rows(t, v+"?owner=0", get))
	}
	lots := rows(t, "Inventory?includeShipped=true", get)
	sameRecords(t, "lots", "recNo", before.lots, lots)
	for _, l := range lots {
		if fmt.Sprint(l["owner"]) != "0" || l["associate"] != "" {
			t.Errorf("lot %v: owner %v, associate %q; want the house's (0, \"\")", l["recNo"], l["owner"], l["associate"])
		}
	}
	items := rows(t, "Item/All", get)
	if len(items) != 32 {
		t.Errorf("%d items read, want 32", len(items))
	}
	db := rawDB(t, engine, dsn)
	for query, want := range map[string]int64{
		// Every item's categories and default owner exist.
		`SELECT COUNT(*) FROM items i
		 WHERE (i.category > 0 AND NOT EXISTS (SELECT 1 FROM categories c WHERE c.id = i.category AND c.active))
		    OR (i.sub_category > 0 AND NOT EXISTS (SELECT 1 FROM categories c WHERE c.id = i.sub_category AND c.active))
		    OR (i.dflt_owner > 0 AND NOT EXISTS (SELECT 1 FROM parties p WHERE p.id = i.dflt_owner AND p.kind = 'customer' AND p.active))`: 0,
		// One category per id used, no other.
		`SELECT COUNT(*) FROM categories`:                      queryInt(t, db, `SELECT COUNT(*) FROM (SELECT category AS c FROM items UNION SELECT sub_category FROM items) u WHERE c > 0`),
		`SELECT COUNT(*) FROM categories WHERE id IN (60, 61)`: 2,
		`SELECT COUNT(*) FROM parties WHERE kind = 'customer' AND short_id = 'CUSTOMER-' || CAST(id AS TEXT) AND id IN (7, 12)`: 2,
		`SELECT COUNT(*) FROM parties`:                                                                              2,
		`SELECT COUNT(*) FROM owner_levels WHERE owner <> 0`:                                                        0,
		`SELECT COUNT(*) FROM transactions WHERE owner <> 0`:                                                        0,
		`SELECT COUNT(*) FROM owner_levels`:                                                                         queryInt(t, db, `SELECT COUNT(*) FROM stock_levels`),
		`SELECT COUNT(*) FROM clients WHERE NOT all_owners`:                                                         0,
		`SELECT COUNT(*) FROM transactions WHERE part_no IN (SELECT part_no FROM items WHERE short_id = 'OWNED-7')`: 8,
	} {
		if n := queryInt(t, db, query); n != want {
			t.Errorf("%s: %d, want %d", strings.Join(strings.Fields(query), " "), n, want)
		}
	}
}

// changeUpgraded changes stock on the migrated database through the SDK: an
// item's default owner now takes its receipts and draws, the stock received
// before the upgrade is drawn as the house's, and the audit stays clean.
func changeUpgraded(t *testing.T, dsn string, c *client.Client, before prevState) {
	t.Helper()
	r, err := c.Receive(ctx, client.ReceiveRequest{ItemID: "OWNED-7", Units: stockroom.Whole(4), WID: 1, ReasonCode: 1})
	if err != nil || r.Lot.Owner != 7 || r.Lot.Associate != "Customer 7" {
		t.Fatalf("receive after the upgrade: %+v %v; want customer 7's lot", r, err)
	}
	issue := client.IssueRequest{ItemID: "OWNED-7", Units: stockroom.Whole(5), WID: 1, ReasonCode: 20}
	if _, err := c.Issue(ctx, issue); statusOf(err) != 409 {
		t.Fatalf("issuing 5 of customer 7's 4 units: %v, want 409 (the house's lots are not customer 7's)", err)
	}
	issue.Units = stockroom.Whole(4)
	if d, err := c.Issue(ctx, issue); err != nil || d.Owner != 7 || d.Lines[0].RecNo != r.RecNo {
		t.Fatalf("issue of customer 7's stock: %+v %v", d, err)
	}
	issue.Units, issue.Owner = stockroom.Whole(3), &stockroom.OwnerRef{ID: 0}
	if d, err := c.Issue(ctx, issue); err != nil || d.Owner != 0 || d.Lines[0].RecNo != before.house {
		t.Fatalf("issue of the house's stock received before the upgrade: %+v %v, want lot %d", d, err, before.house)
	}
	move := client.MoveRequest{ItemID: "DEMO-0000003", Units: stockroom.Whole(1), WID: 1, ShipToWID: 2, ToSpot: new("M-2")}
	if d, err := c.Move(ctx, move); err != nil || d.Owner != 0 {
		t.Fatalf("move after the upgrade: %+v %v", d, err)
	}
	if _, err := c.Release(ctx, before.held); err != nil {
		t.Fatalf("release of a lot held before the upgrade: %v", err)
	}
	if out := mustAdmin(t, dsn, "audit"); !strings.Contains(out, "every invariant holds") {
		t.Fatalf("audit after changes on the upgraded database: %s", out)
	}
}

// checkDown undoes migration 7: the previous release's audit accepts the
// result, and this release migrates it again.
func checkDown(t *testing.T, bin, dsn string) {
	t.Helper()
	db, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	err = db.MigrateDownForTest(ctx, 6)
	have, _, verr := db.SchemaVersion(ctx)
	db.Close()
	if err != nil || verr != nil || have != 6 {
		t.Fatalf("migrate down to 6: %v; schema version %d %v", err, have, verr)
	}
	if out := runPrevious(t, bin, "audit", "--db", dsn); !strings.Contains(out, "every invariant holds") {
		t.Fatalf("the previous release's audit after migration 7's Down: %s", out)
	}
	mustAdmin(t, dsn, "migrate")
	if out := mustAdmin(t, dsn, "audit"); !strings.Contains(out, "every invariant holds") {
		t.Fatalf("audit after migrating down and up again: %s", out)
	}
}

// TestDemoSpreadsLotsOverOwners: `demo --owners` spreads each item's lots in
// each warehouse over every owner given, and refuses an owner that is not a
// customer.
func TestDemoSpreadsLotsOverOwners(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			dsn := testdb.DSN(t, engine)
			mustAdmin(t, dsn, "migrate")
			addCustomer(t, dsn, 5)
			addCustomer(t, dsn, 6)
			out := mustAdmin(t, dsn, "demo", "--items", "4", "--lots", "48", "--warehouses", "2", "--owners", "6,0,5")
			if !strings.Contains(out, "demo lots: 48 received into warehouses 1..2 for owners 0,5,6") {
				t.Fatalf("demo: %q", out)
			}
			db := rawDB(t, engine, dsn)
			for query, want := range map[string]int64{
				`SELECT COUNT(DISTINCT owner) FROM lots`: 3,
				`SELECT COUNT(*) FROM (SELECT part_no, wid FROM lots GROUP BY part_no, wid HAVING COUNT(DISTINCT owner) = 3) g`: 8,
				`SELECT COUNT(*) FROM owner_levels WHERE owner IN (0, 5, 6)`:                                                    24,
			} {
				if n := queryInt(t, db, query); n != want {
					t.Errorf("%s: %d, want %d", query, n, want)
				}
			}
			if out := mustAdmin(t, dsn, "audit"); !strings.Contains(out, "every invariant holds") {
				t.Fatalf("audit after demo --owners: %s", out)
			}
			if code, _, errOut := admin(t, dsn, "demo", "--items", "4", "--lots", "3", "--owners", "9"); code != 1 || !strings.Contains(errOut, "must be an existing, active customer") {
				t.Errorf("demo --owners 9 (no such customer): exit %d, %q", code, errOut)
			}
			if code, _, errOut := admin(t, dsn, "demo", "--lots", "3", "--owners", "all"); code != 2 || !strings.Contains(errOut, "--owners") {
				t.Errorf("demo --owners all: exit %d, %q", code, errOut)
			}
		})
	}
}

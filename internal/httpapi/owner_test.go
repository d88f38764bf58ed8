package httpapi_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// The owners of these tests: two customers whose stock shares items and
// bins with the house's.
const (
	ownerA int64 = 7 // ShortID "C-7"
	ownerB int64 = 8 // ShortID "C-8"
)

// addCustomer stores a customer as POST /Customer would, with the ShortID
// "C-<id>".
func (a *api) addCustomer(t testing.TB, id int64) {
	t.Helper()
	n := strconv.FormatInt(id, 10)
	err := a.db.ExecForTest(context.Background(), `
		INSERT INTO parties (id, kind, short_id, short_id_key, name, address1, address2, city, state, zip,
			country, phone, fax, email, contact, active, created, modified)
		VALUES (`+n+`, 'customer', 'C-`+n+`', 'c-`+n+`', 'Customer `+n+`', '', '', '', '', '', '', '', '', '', '', TRUE, 0, 0)`)
	if err != nil {
		t.Fatalf("add customer %d: %v", id, err)
	}
}

// setCustomerActive activates or deactivates a customer, as
// DELETE /Customer and PUT /Customer would.
func (a *api) setCustomerActive(t testing.TB, id int64, active bool) {
	t.Helper()
	err := a.db.ExecForTest(context.Background(), fmt.Sprintf(`UPDATE parties SET active = %t WHERE id = %d`, active, id))
	if err != nil {
		t.Fatalf("set customer %d active=%t: %v", id, active, err)
	}
}

// ownersAPI is stockAPI with customers A and B, and returns the
// administrator's token and that of a client limited to owner A.
func ownersAPI(t *testing.T, a *api) (admin, limitedToA string) {
	t.Helper()
	admin = stockAPI(t, a)
	a.addCustomer(t, ownerA)
	a.addCustomer(t, ownerB)
	_, limitedToA = a.ownerClient(t, ownerA)
	return admin, limitedToA
}

// ownerClient adds a client of every permission and warehouse, limited to
// the owners given, and returns its id and a token.
func (a *api) ownerClient(t *testing.T, owners ...int64) (id, token string) {
	t.Helper()
	id, secret := a.addClient(t, service.NewClient{Permissions: stockroom.AllPermissions, Scope: stockroom.Scope{All: true},
		Owners: &stockroom.Scope{IDs: owners}})
	return id, a.token(t, id, secret)
}

// receiveFor receives units of ITEM-A into warehouse 1, spot S, for an
// owner, and returns the new lot's recNo.
func (a *api) receiveFor(t *testing.T, tok string, owner any, units int) any {
	t.Helper()
	v := a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{
		"itemID": "ITEM-A", "units": units, "wid": 1, "reasonCode": 1, "spot": "S", "owner": owner}, 201)
	// The new lot names its owner: the customer's name, "" for the house.
	lot := v["lot"].(map[string]any)
	want := ""
	if id := lot["owner"].(float64); id != 0 {
		want = fmt.Sprintf("Customer %d", int64(id))
	}
	if lot["associate"] != want {
		t.Fatalf("receipt for owner %v: lot %v, want associate %q", owner, lot, want)
	}
	return v["recNo"]
}

// stockWrites are a receive, an issue and a move of ITEM-A in warehouse 1,
// for the owner given (none when nil).
func stockWrites(owner any) map[string]map[string]any {
	w := map[string]map[string]any{
		"Receive": {"itemID": "ITEM-A", "units": 1, "wid": 1, "reasonCode": 1, "spot": "S"},
		"Issue":   {"itemID": "ITEM-A", "units": 1, "wid": 1, "reasonCode": 20},
		"Move":    {"itemID": "ITEM-A", "units": 1, "wid": 1, "toSpot": "T"},
	}
	if owner != nil {
		for _, body := range w {
			body["owner"] = owner
		}
	}
	return w
}

// ownerLists are the inventory lists that take ?owner=.
var ownerLists = []string{
	"/api/v1/Inventory", "/api/v1/Inventory/1", "/api/v1/Inventory/StockLevels",
	"/api/v1/Inventory/StockLevels/1", "/api/v1/Inventory/Transactions",
}

// TestOwnerRefusals covers every 4xx an owner can cause.
func TestOwnerRefusals(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin, limited := ownersAPI(t, a)
		a.receiveFor(t, admin, ownerB, 5)
		for _, tc := range []struct {
			name string
			test func(t *testing.T, a *api, admin, limited string)
		}{
			{"UnknownOwnerIsAValidationError", testUnknownOwnerIsAValidationError},
			{"WrongTypeIsAValidationError", testWrongTypeIsAValidationError},
			{"OwnerScope", testOwnerScope},
			{"AnotherOwnersItemIsNotFound", testAnotherOwnersItemIsNotFound},
			{"HoldOfAnotherOwnersLotIsNotFound", testHoldOfAnotherOwnersLotIsNotFound},
			{"InactiveCustomer", testInactiveCustomer},
		} {
			t.Run(tc.name, func(t *testing.T) { tc.test(t, a, admin, limited) })
		}
	})
}

func testUnknownOwnerIsAValidationError(t *testing.T, a *api, admin, limited string) {
	for _, owner := range []any{99, "99", "NO-SUCH", ownerB + 1000} {
		for path, body := range stockWrites(owner) {
			v := wantError(t, a.send(t, "POST", "/api/v1/Inventory/"+path, admin, body), 400, stockroom.EINVALID)
			if f := detailFields(v); !slices.Equal(f, []string{"owner"}) {
				t.Errorf("%s with owner %v: details name %v, want owner", path, owner, f)
			}
		}
		// A field's problem, so reported with the others, before scope and
		// existence: an unknown item does not hide it, nor a bad unit count.
		for path, body := range stockWrites(owner) {
			body["itemID"], body["units"] = "NO-SUCH-ITEM", 0
			v := wantError(t, a.send(t, "POST", "/api/v1/Inventory/"+path, admin, body), 400, stockroom.EINVALID)
			if f := detailFields(v); !slices.Equal(f, []string{"owner", "units"}) {
				t.Errorf("%s with owner %v and units 0 of an unknown item: details name %v, want owner and units", path, owner, f)
			}
		}
		for _, list := range ownerLists {
			v := wantError(t, a.get(t, fmt.Sprintf("%s?owner=%v", list, owner), admin), 400, stockroom.EINVALID)
			if f := detailFields(v); !slices.Equal(f, []string{"owner"}) {
				t.Errorf("%s?owner=%v: details name %v, want owner", list, owner, f)
			}
		}
	}
}

func testWrongTypeIsAValidationError(t *testing.T, a *api, admin, limited string) {
	bodies := map[string]string{
		"Receive": `{"itemID":"ITEM-A","units":1,"wid":1,"reasonCode":1,"owner":%s}`,
		"Issue":   `{"itemID":"ITEM-A","units":1,"wid":1,"reasonCode":20,"owner":%s}`,
		"Move":    `{"itemID":"ITEM-A","units":1,"wid":1,"toSpot":"T","owner":%s}`,
	}
	for _, owner := range []string{`true`, `1.5`, `{}`, `[7]`, `-7`, `""`, `" "`} {
		for path, body := range bodies {
			text := fmt.Sprintf(body, owner)
			v := wantError(t, a.send(t, "POST", "/api/v1/Inventory/"+path, admin, text), 400, stockroom.EINVALID)
			if f := detailFields(v); !slices.Equal(f, []string{"owner"}) {
				t.Errorf("%s %s: details name %v, want owner", path, text, f)
			}
		}
	}
	for _, list := range ownerLists {
		for _, q := range []string{"owner=-1", "owner=", "owner=%20"} {
			wantError(t, a.get(t, list+"?"+q, admin), 400, stockroom.EINVALID)
		}
	}
}

func testOwnerScope(t *testing.T, a *api, admin, limited string) {
	ledger := a.ledgerSize(t, admin)
	for _, owner := range []any{ownerB, "C-8", "c-8", 0, 99, "NO-SUCH"} {
		for path, body := range stockWrites(owner) {
			r := a.send(t, "POST", "/api/v1/Inventory/"+path, limited, body)
			if v := wantError(t, r, 403, stockroom.EFORBIDDEN); v["message"] != stockroom.MsgOwnerOutOfScope {
				t.Errorf("%s for owner %v: message %q", path, owner, v["message"])
			}
		}
		for _, list := range ownerLists {
			r := a.get(t, fmt.Sprintf("%s?owner=%v", list, owner), limited)
			if v := wantError(t, r, 403, stockroom.EFORBIDDEN); v["message"] != stockroom.MsgOwnerOutOfScope {
				t.Errorf("%s?owner=%v: message %q", list, owner, v["message"])
			}
		}
	}
	if got := a.ledgerSize(t, admin); got != ledger {
		t.Errorf("refused writes changed the ledger: %d entries, then %d", ledger, got)
	}
}

// testAnotherOwnersItemIsNotFound: an item of another owner's catalogue
// is not found in a stock change, as one that does not exist, whatever the
// owner named. (A house item's stock changes naming no owner are the
// client's own owner's: TestSoleOwnerIsTheDefault.)
func testAnotherOwnersItemIsNotFound(t *testing.T, a *api, admin, limited string) {
	a.mustSend(t, "PUT", "/api/v1/Item", admin, map[string]any{"shortID": "ITEM-B", "dfltOwner": ownerB}, 200)
	defer a.mustSend(t, "PUT", "/api/v1/Item", admin, map[string]any{"shortID": "ITEM-B", "dfltOwner": 0}, 200)
	for _, owner := range []any{nil, ownerA} {
		for path, body := range stockWrites(owner) {
			body["itemID"] = "ITEM-B"
			hidden := wantError(t, a.send(t, "POST", "/api/v1/Inventory/"+path, limited, body), 404, stockroom.ENOTFOUND)
			body["itemID"] = "NO-SUCH"
			missing := wantError(t, a.send(t, "POST", "/api/v1/Inventory/"+path, limited, body), 404, stockroom.ENOTFOUND)
			if strings.Replace(missing["message"].(string), "NO-SUCH", "ITEM-B", 1) != hidden["message"] {
				t.Errorf("%s of another owner's item: %q; of a missing one: %q", path, hidden["message"], missing["message"])
			}
		}
	}
}

func testHoldOfAnotherOwnersLotIsNotFound(t *testing.T, a *api, admin, limited string) {
	recNo := a.receiveFor(t, admin, ownerB, 2)
	for _, path := range []string{"Hold", "Release"} {
		wantError(t, a.send(t, "POST", "/api/v1/Inventory/"+path, limited, map[string]any{"recno": recNo}), 404, stockroom.ENOTFOUND)
	}
	unknown := wantError(t, a.send(t, "POST", "/api/v1/Inventory/Hold", limited, map[string]any{"recno": 999999}), 404, stockroom.ENOTFOUND)
	hidden := wantError(t, a.send(t, "POST", "/api/v1/Inventory/Hold", limited, map[string]any{"recno": recNo}), 404, stockroom.ENOTFOUND)
	if want := strings.Replace(unknown["message"].(string), "999999", fmt.Sprint(recNo), 1); hidden["message"] != want {
		t.Errorf("another owner's lot answered %q, a missing one %q: they must read alike", hidden["message"], unknown["message"])
	}
	if l := a.ownerLevel(t, admin, "ITEM-A", 1, ownerB); !l.OnHold.IsZero() {
		t.Errorf("owner B's onHold is %s after refused holds", l.OnHold)
	}
}

func testInactiveCustomer(t *testing.T, a *api, admin, limited string) {
	a.setCustomerActive(t, ownerB, false)
	defer a.setCustomerActive(t, ownerB, true)
	for _, owner := range []any{ownerB, "C-8"} {
		wantError(t, a.send(t, "POST", "/api/v1/Inventory/Receive", admin, stockWrites(owner)["Receive"]), 409, stockroom.ECONFLICT)
	}
	// Its stock can still leave.
	a.mustPost(t, admin, "/api/v1/Inventory/Issue", stockWrites(ownerB)["Issue"], 200)
}

// TestInactiveWarehouseTakesNoStock: a deactivated warehouse refuses
// receipts and moves into it, and still lets its stock be issued.
func TestInactiveWarehouseTakesNoStock(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin, _ := ownersAPI(t, a)
		for _, owner := range []any{0, ownerA} {
			a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 4, "wid": 2, "reasonCode": 1, "owner": owner}, 201)
			a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 4, "wid": 1, "reasonCode": 1, "owner": owner}, 201)
		}
		if _, err := a.svc.UpdateWarehouse(context.Background(), service.Operator, 2, stockroom.WarehouseChange{Active: new(false)}); err != nil {
			t.Fatal(err)
		}
		lots, ledger := a.stockState(t, admin)
		for _, owner := range []any{nil, 0, ownerA} {
			receive := map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 2, "reasonCode": 1}
			move := map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "shipToWid": 2, "toSpot": "X"}
			if owner != nil {
				receive["owner"], move["owner"] = owner, owner
			}
			wantError(t, a.send(t, "POST", "/api/v1/Inventory/Receive", admin, receive), 409, stockroom.ECONFLICT)
			wantError(t, a.send(t, "POST", "/api/v1/Inventory/Move", admin, move), 409, stockroom.ECONFLICT)
		}
		if l, n := a.stockState(t, admin); l != lots || n != ledger {
			t.Fatalf("refused requests changed lots or the ledger (%d entries, then %d)", ledger, n)
		}
		for _, owner := range []any{0, ownerA} {
			a.mustPost(t, admin, "/api/v1/Inventory/Issue", map[string]any{"itemID": "ITEM-A", "units": 3, "wid": 2, "reasonCode": 20, "owner": owner}, 200)
			if l := a.ownerLevel(t, admin, "ITEM-A", 2, owner); l.InStock != stockroom.Whole(1) {
				t.Errorf("owner %v in the inactive warehouse: inStock %s after issuing 3 of 4", owner, l.InStock)
			}
		}
		a.auditClean(t)
	})
}

// ownerLevel returns one owner's level of an item in a warehouse.
func (a *api) ownerLevel(t *testing.T, tok, itemID string, wid int, owner any) stockroom.StockLevel {
	t.Helper()
	p := decode[struct{ Value []stockroom.StockLevel }](t, a.get(t, fmt.Sprintf("/api/v1/Inventory/StockLevels/%d?itemID=%s&includeZero=true&owner=%v", wid, itemID, owner), tok))
	if len(p.Value) != 1 {
		t.Fatalf("levels of %s in warehouse %d for owner %v: %+v", itemID, wid, owner, p.Value)
	}
	return p.Value[0]
}

// TestStaleDefaultOwner: an item's dfltOwner changed through a second
// server over the same database, while the first still remembers the old
// one; the first server's next receive and issue use the new default, for
// a client of every owner and for one limited to the new default owner.
func TestStaleDefaultOwner(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			dsn := testdb.DSN(t, engine)
			first := newAPIWith(t, openDB(t, dsn, true), service.Options{})
			second := newAPIWith(t, openDB(t, dsn, false), service.Options{})
			admin, limitedToA := ownersAPI(t, first)
			id, secret := first.addClient(t, service.NewClient{Permissions: stockroom.AllPermissions, Scope: stockroom.Scope{All: true},
				Owners: &stockroom.Scope{IDs: []int64{ownerB}}})
			limitedToB := first.token(t, id, secret)
			adminOnSecond := second.token(t, first.adminID, first.adminSecret)
			setDefault := func(a *api, tok string, owner int64) {
				t.Helper()
				a.mustSend(t, "PUT", "/api/v1/Item", tok, map[string]any{"shortID": "ITEM-A", "dfltOwner": owner}, 200)
			}
			receive := func(tok string) (*response, map[string]any) {
				r, v := first.post(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 2, "wid": 1, "reasonCode": 1})
				return &r, v
			}
			owned := func(v map[string]any) any { return v["lot"].(map[string]any)["owner"] }

			setDefault(first, admin, ownerA)
			if _, v := receive(admin); owned(v) != float64(ownerA) {
				t.Fatalf("receive with dfltOwner %d made a lot of owner %v", ownerA, owned(v))
			}
			setDefault(second, adminOnSecond, ownerB)
			r, v := receive(admin)
			if r.status != 201 || owned(v) != float64(ownerB) {
				t.Fatalf("receive after dfltOwner changed to %d elsewhere: %d %s", ownerB, r.status, r.body)
			}
			// The issue must take owner B's 2 units, not A's.
			first.mustPost(t, admin, "/api/v1/Inventory/Issue", map[string]any{"itemID": "ITEM-A", "units": 2, "wid": 1, "reasonCode": 20}, 200)
			if a, b := first.ownerLevel(t, admin, "ITEM-A", 1, ownerA), first.ownerLevel(t, admin, "ITEM-A", 1, ownerB); a.InStock != stockroom.Whole(2) || !b.InStock.IsZero() {
				t.Fatalf("after issuing 2 for the new default: owner A %s, owner B %s; want 2 and 0", a.InStock, b.InStock)
			}

			// The first server remembers A; the default becomes B elsewhere.
			setDefault(first, admin, ownerA)
			setDefault(second, adminOnSecond, ownerB)
			if r, v := receive(limitedToB); r.status != 201 || owned(v) != float64(ownerB) {
				t.Fatalf("client limited to %d receiving for the item's current default %d: %d %s", ownerB, ownerB, r.status, r.body)
			}
			setDefault(first, admin, ownerA)
			setDefault(second, adminOnSecond, ownerB)
			if r := first.send(t, "POST", "/api/v1/Inventory/Issue", limitedToB, map[string]any{"itemID": "ITEM-A", "units": 2, "wid": 1, "reasonCode": 20}); r.status != 200 {
				t.Fatalf("client limited to %d issuing for the item's current default %d: %d %s", ownerB, ownerB, r.status, r.body)
			}
			// And a client limited to the old default no longer sees it:
			// the item is now of owner B's catalogue.
			setDefault(first, admin, ownerA)
			setDefault(second, adminOnSecond, ownerB)
			r, _ = receive(limitedToA)
			wantError(t, *r, 404, stockroom.ENOTFOUND)
			first.auditClean(t)
		})
	}
}

// openDB opens a database, migrated when migrate is set.
func openDB(t *testing.T, dsn string, migrate bool) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if migrate {
		if _, _, err := db.Migrate(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

package httpapi_test

import (
	"fmt"
	"testing"

	"github.com/stockroom/stockroom"
)

// stockState is what a refused request must leave alone: every lot, shipped
// ones too, and the size of the ledger.
func (a *api) stockState(t *testing.T, tok string) (string, int64) {
	t.Helper()
	r := a.get(t, "/api/v1/Inventory?includeShipped=true&pageSize=250", tok)
	if r.status != 200 {
		t.Fatalf("GET /Inventory: %d %s", r.status, r.body)
	}
	return string(r.body), a.ledgerSize(t, tok)
}

// levelOf returns an item's stock level in one warehouse.
func (a *api) levelOf(t *testing.T, tok, itemID string, wid int) stockroom.StockLevel {
	t.Helper()
	p := decode[struct{ Value []stockroom.StockLevel }](t, a.get(t, fmt.Sprintf("/api/v1/Inventory/StockLevels/%d?itemID=%s&includeZero=true", wid, itemID), tok))
	if len(p.Value) != 1 {
		t.Fatalf("levels of %s in warehouse %d: %+v", itemID, wid, p.Value)
	}
	return p.Value[0]
}

// TestHeldLotsMoveOnlyWhenNamed: over HTTP, a held lot is never issued, not
// even when named by recno, and is moved only when named by recno. The held
// lot is the oldest, so a request that wrongly took it would draw from it
// first, or find enough stock where it must be refused.
func TestHeldLotsMoveOnlyWhenNamed(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		held := a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 5, "wid": 1, "reasonCode": 1, "spot": "X"}, 201)["recNo"]
		free := a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 3, "wid": 1, "reasonCode": 1, "spot": "X"}, 201)["recNo"]
		a.mustPost(t, tok, "/api/v1/Inventory/Hold", map[string]any{"recno": held}, 200)
		lotsBefore, ledgerBefore := a.stockState(t, tok)
		for _, tc := range []struct{ path, body string }{
			{"Issue", `{"itemID":"ITEM-A","units":4,"wid":1,"reasonCode":20}`},
			{"Issue", fmt.Sprintf(`{"itemID":"ITEM-A","units":1,"wid":1,"reasonCode":20,"recno":%v}`, held)},
			{"Move", `{"itemID":"ITEM-A","units":4,"wid":1,"shipToWid":2,"toSpot":"R"}`},
			{"Move", `{"itemID":"ITEM-A","units":4,"wid":1,"toSpot":"R"}`},
			{"Move", `{"itemID":"ITEM-A","units":4,"wid":1,"shipToWid":2}`},
			{"Move", `{"itemID":"ITEM-A","units":4,"wid":1,"fromSpot":"X","shipToWid":2}`},
		} {
			r := a.send(t, "POST", "/api/v1/Inventory/"+tc.path, tok, tc.body)
			if r.status != 409 {
				t.Errorf("%s %s: %d %s, want 409: 3 units are free and the held lot may not be taken", tc.path, tc.body, r.status, r.body)
				continue
			}
			wantError(t, r, 409, stockroom.ECONFLICT)
		}
		if lots, ledger := a.stockState(t, tok); lots != lotsBefore || ledger != ledgerBefore {
			t.Fatalf("refused requests changed lots or the ledger (%d entries, then %d):\n%s\n%s", ledgerBefore, ledger, lotsBefore, lots)
		}

		// Without recno a move takes the free lot, younger as it is.
		v := a.mustPost(t, tok, "/api/v1/Inventory/Move", map[string]any{"itemID": "ITEM-A", "units": 2, "wid": 1, "shipToWid": 2, "toSpot": "R"}, 200)
		if lines := v["lines"].([]any); len(lines) != 1 || lines[0].(map[string]any)["recNo"] != free {
			t.Fatalf("move without recno drew %v, want only lot %v", lines, free)
		}
		// Named by recno, the held lot moves, whole within its warehouse and
		// in part across, and stays held; onHold follows it.
		v = a.mustPost(t, tok, "/api/v1/Inventory/Move", map[string]any{"itemID": "ITEM-A", "units": 5, "wid": 1, "toSpot": "H", "recno": held}, 200)
		if line := v["lines"].([]any)[0].(map[string]any); line["recNo"] != held || line["newRecNo"] != 0.0 {
			t.Fatalf("move of the held lot by recno: %v", v)
		}
		v = a.mustPost(t, tok, "/api/v1/Inventory/Move", map[string]any{"itemID": "ITEM-A", "units": 2, "wid": 1, "shipToWid": 2, "recno": held}, 200)
		if line := v["lines"].([]any)[0].(map[string]any); line["recNo"] != held || line["newRecNo"] == 0.0 {
			t.Fatalf("move of part of the held lot across: %v", v)
		}
		if l1, l2 := a.levelOf(t, tok, "ITEM-A", 1), a.levelOf(t, tok, "ITEM-A", 2); l1.OnHold != stockroom.Whole(3) || l1.InStock != stockroom.Whole(4) ||
			l2.OnHold != stockroom.Whole(2) || l2.InStock != stockroom.Whole(4) {
			t.Fatalf("levels after moving held units: %+v %+v", l1, l2)
		}
		a.auditClean(t)
	})
}

// TestEmptiedLotsCannotBeHeld: over HTTP, a lot issued to zero is 409 to
// hold and to release, and neither records anything.
func TestEmptiedLotsCannotBeHeld(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		rec := a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 2, "wid": 1, "reasonCode": 1}, 201)["recNo"]
		a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "reasonCode": 1}, 201)
		a.mustPost(t, tok, "/api/v1/Inventory/Issue", map[string]any{"itemID": "ITEM-A", "units": 2, "wid": 1, "reasonCode": 20}, 200)
		lotsBefore, ledgerBefore := a.stockState(t, tok)
		for _, path := range []string{"Hold", "Release"} {
			r := a.send(t, "POST", "/api/v1/Inventory/"+path, tok, map[string]any{"recno": rec})
			if r.status != 409 {
				t.Errorf("%s of emptied lot %v: %d %s, want 409", path, rec, r.status, r.body)
				continue
			}
			wantError(t, r, 409, stockroom.ECONFLICT)
		}
		if lots, ledger := a.stockState(t, tok); lots != lotsBefore || ledger != ledgerBefore {
			t.Fatalf("refused holds changed lots or the ledger (%d entries, then %d):\n%s\n%s", ledgerBefore, ledger, lotsBefore, lots)
		}
		if l := a.levelOf(t, tok, "ITEM-A", 1); !l.OnHold.IsZero() || l.InStock != stockroom.Whole(1) {
			t.Fatalf("level %+v", l)
		}
		a.auditClean(t)
	})
}

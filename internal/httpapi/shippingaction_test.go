package httpapi_test

import (
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
)

// shippingActionRefusals are POSTs to /api/v1/ShippingOrder+path by the client tok (shippingClients; "none": no token) and the
// error each gets: for a validation error want is its detail fields, else a
// part of its message. SO-1 has lines of 5 ITEM-A in warehouses 1 (line 1)
// and 2, TWO one in 2, MIXED one of owner 7 and one of the house in 1,
// SHORT 50 in 1, ENDED is closed; warehouse 1 holds 8 ITEM-A, 2 holds 10.
var shippingActionRefusals = []tableRefusal{
	{"NoToken", "none", "POST", "/SO-1/Commit", nil, 401, stockroom.EUNAUTHORIZED, "token"},
	{"ReadOnly", "readOnly", "POST", "/SO-1/Commit", nil, 403, stockroom.EFORBIDDEN, stockroom.MsgReadOnly},
	{"Reader", "reader", "POST", "/SO-1/Ship", `not json`, 403, stockroom.EFORBIDDEN, stockroom.MsgNoPermission},
	{"Purchaser", "purchase", "POST", "/SO-1/Pack", `{}`, 403, stockroom.EFORBIDDEN, stockroom.MsgNoPermission},
	{"PurchaserCloses", "purchase", "POST", "/SO-1/Close", nil, 403, stockroom.EFORBIDDEN, stockroom.MsgNoPermission},
	{"NotJSON", "admin", "POST", "/SO-1/Commit", `{"lines":`, 400, stockroom.EBADREQUEST, "JSON"},
	{"NotAnObject", "admin", "POST", "/SO-1/Ship", `[1]`, 400, stockroom.EBADREQUEST, "JSON"},
	{"PackNoLines", "admin", "POST", "/SO-1/Pack", `{}`, 400, stockroom.EINVALID, "lines"},
	{"PackNoUnits", "admin", "POST", "/SO-1/Pack", `{"lines":[{"line":1},{"line":2,"units":-1}]}`, 400, stockroom.EINVALID, "lines[0].units lines[1].units"},
	{"BadCommit", "admin", "POST", "/SO-1/Commit", `{"lines":[{"units":0,"recno":-1},7],"allowPartial":"yes"}`, 400, stockroom.EINVALID,
		"allowPartial lines[0].line lines[0].recno lines[0].units lines[1] lines[1].line"},
	{"ShipWrongTypes", "admin", "POST", "/SO-1/Ship", `{"reference":1,"remark":2,"lines":[{"line":"1","units":"2"}]}`, 400, stockroom.EINVALID,
		"lines[0].line lines[0].units reference remark"},
	{"UncommitTooManyDigits", "admin", "POST", "/SO-1/Uncommit", `{"lines":[{"line":1,"units":0.0000001}]}`, 400, stockroom.EINVALID, "lines[0].units"},
	{"NoSuchOrder", "admin", "POST", "/NOPE/Commit", nil, 404, stockroom.ENOTFOUND, `No shipping order "NOPE".`},
	{"CloseNoSuchOrder", "admin", "POST", "/NOPE/Close", nil, 404, stockroom.ENOTFOUND, `No shipping order "NOPE".`},
	{"NoSuchLine", "admin", "POST", "/so-1/Commit", `{"lines":[{"line":9}]}`, 400, stockroom.EINVALID, "lines[0].line"},
	{"LineTwice", "admin", "POST", "/SO-1/Uncommit", `{"lines":[{"line":1},{"line":1}]}`, 400, stockroom.EINVALID, "lines[1].line"},
	{"OutOfScope", "scoped", "POST", "/SO-1/Commit", nil, 403, stockroom.EFORBIDDEN, stockroom.MsgOutOfScope},
	// A line the client does not see is as one the order lacks.
	{"LineOutOfScope", "scoped", "POST", "/SO-1/Ship", `{"lines":[{"line":1},{"line":2}]}`, 400, stockroom.EINVALID, "lines[1].line"},
	{"CancelOutOfScope", "scoped", "POST", "/SO-1/Cancel", nil, 403, stockroom.EFORBIDDEN, stockroom.MsgOutOfScope},
	{"UnseenByScope", "scoped", "POST", "/TWO/Close", nil, 404, stockroom.ENOTFOUND, `No shipping order "TWO".`},
	{"UnseenByOwner", "limited", "POST", "/SO-1/Ship", nil, 404, stockroom.ENOTFOUND, `No shipping order "SO-1".`},
	{"OtherOwnersLine", "limited", "POST", "/MIXED/Cancel", nil, 403, stockroom.EFORBIDDEN, stockroom.MsgOwnerOutOfScope},
	{"Ended", "admin", "POST", "/ended/Commit", nil, 409, stockroom.ECONFLICT, "Shipping order ENDED is Closed; only an open order can be committed."},
	{"EndedClose", "admin", "POST", "/ENDED/Close", nil, 409, stockroom.ECONFLICT, "only an open order can be closed."},
	{"Short", "admin", "POST", "/SHORT/Commit", nil, 409, stockroom.ECONFLICT, "Insufficient stock to commit line 1: 50 units wanted, 8 available."},
	{"CommitTooMuch", "admin", "POST", "/SO-1/Commit", `{"lines":[{"line":1,"units":6}]}`, 409, stockroom.ECONFLICT, "left to commit"},
	{"PackTooMuch", "admin", "POST", "/SO-1/Pack", `{"lines":[{"line":1,"units":1}]}`, 409, stockroom.ECONFLICT, "cannot be packed"},
	{"UncommitTooMuch", "admin", "POST", "/SO-1/Uncommit", `{"lines":[{"line":1,"units":1}]}`, 409, stockroom.ECONFLICT, "cannot be released"},
	{"ShipTooMuch", "admin", "POST", "/SO-1/Ship", `{"lines":[{"line":1,"units":1}]}`, 409, stockroom.ECONFLICT, "cannot be shipped"},
	// Nothing committed or packed: nothing to ship, named by the order's number as stored.
	{"ShipNothing", "admin", "POST", "/so-1/Ship", nil, 409, stockroom.ECONFLICT, "Shipping order SO-1 has nothing committed or packed to ship."},
	{"ShipNothingOnLine", "admin", "POST", "/SO-1/Ship", `{"lines":[{"line":1}]}`, 409, stockroom.ECONFLICT, "Shipping order SO-1 has nothing committed or packed to ship."},
}

// TestShippingActionRefusals: every 4xx of the shipping order actions, in
// the order of contract §2, then the refusals that state brings: a hold of
// an allocated lot, an issue that would need allocated units, a cancel
// after a ship, a repeat of an ended order's close.
func TestShippingActionRefusals(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok, _ := shipAPI(t, a)
		a.mustSend(t, "POST", "/api/v1/ShippingOrder", tok, shipment("TWO", 8, 2), 201)
		a.mustSend(t, "POST", "/api/v1/ShippingOrder", tok, `{"soNo":"MIXED","customerID":7,"lines":[{"itemID":"ITEM-A","units":1,"wid":1,"owner":7},{"itemID":"ITEM-A","units":1,"wid":1,"owner":0}]}`, 201)
		a.mustSend(t, "POST", "/api/v1/ShippingOrder", tok, `{"soNo":"SHORT","customerID":7,"lines":[{"itemID":"ITEM-A","units":50,"wid":1}]}`, 201)
		a.mustSend(t, "POST", "/api/v1/ShippingOrder", tok, shipment("ENDED", 7, 1), 201)
		a.setLine(t, "ENDED", 0, "status = 'Closed'")
		lot := a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 8, "wid": 1, "reasonCode": 1}, 201)["recNo"]
		a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 10, "wid": 2, "reasonCode": 1}, 201)
		toks := shippingClients(t, a)
		toks["admin"] = tok
		runRefusalTable(t, a, "/api/v1/ShippingOrder", toks, shippingActionRefusals)
		t.Run("State", func(t *testing.T) { testShippingActionState(t, a, tok, toks["scoped"], lot) })
		a.auditClean(t)
	})
}

// testShippingActionState: lot (8 ITEM-A in warehouse 1) gets 5 committed
// to SO-1's line 1 by a client scoped to warehouse 1, which names that
// line only; then the refusals that allocation brings.
func testShippingActionState(t *testing.T, a *api, tok, scoped string, lot any) {
	res := decode[stockroom.AllocationResult](t, a.mustSend(t, "POST", "/api/v1/ShippingOrder/SO-1/Commit", scoped, map[string]any{"lines": []any{map[string]any{"line": 1, "recno": lot}}}, 200))
	if res.OrderNo != "SO-1" || res.Status != stockroom.OrderOpen || len(res.Lines) != 1 || res.Lines[0].UnitsCommitted != stockroom.Whole(5) {
		t.Fatalf("commit of line 1: %+v", res)
	}
	v := wantError(t, a.send(t, "POST", "/api/v1/Inventory/Hold", tok, map[string]any{"recno": lot}), 409, stockroom.ECONFLICT)
	if v["message"] != "Lot has units committed to orders." {
		t.Errorf("hold of an allocated lot: %v", v["message"])
	}
	v = wantError(t, a.send(t, "POST", "/api/v1/Inventory/Issue", tok, map[string]any{"itemID": "ITEM-A", "units": 4, "wid": 1, "reasonCode": 20}), 409, stockroom.ECONFLICT)
	if msg := v["message"].(string); !strings.Contains(msg, "3") {
		t.Errorf("an issue of 4 with 3 unallocated: %q", msg)
	}
	a.mustSend(t, "POST", "/api/v1/ShippingOrder/SO-1/Ship", tok, `{"lines":[{"line":1,"units":2}]}`, 200)
	v = wantError(t, a.send(t, "POST", "/api/v1/ShippingOrder/SO-1/Cancel", tok, nil), 409, stockroom.ECONFLICT)
	if v["message"] != "Shipping order SO-1 has shipped units; it can be closed, not canceled." {
		t.Errorf("cancel after a ship: %v", v["message"])
	}
	keyed := []string{"Authorization", "Bearer " + tok, "Content-Type", "application/json", "Idempotency-Key", "close-so-1"}
	first, again := a.doBody(t, "POST", "/api/v1/ShippingOrder/SO-1/Close", "{}", keyed...), a.doBody(t, "POST", "/api/v1/ShippingOrder/SO-1/Close", "{}", keyed...)
	if first.status != 200 || again.status != 200 || string(again.body) != string(first.body) || again.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("close twice under one key: %d %s, %d %s", first.status, first.body, again.status, again.body)
	}
	if res := decode[stockroom.AllocationResult](t, first); res.Status != stockroom.OrderClosed || len(res.Lines) != 1 || !res.Lines[0].UnitsCommitted.IsZero() {
		t.Fatalf("closed: %s", first.body)
	}
	wantError(t, a.send(t, "POST", "/api/v1/ShippingOrder/SO-1/Close", tok, nil), 409, stockroom.ECONFLICT)
	a.mustSend(t, "POST", "/api/v1/Inventory/Hold", tok, map[string]any{"recno": lot}, 200)
}

package httpapi_test

import (
	"testing"

	"github.com/stockroom/stockroom"
)

// TestSoleOwnerIsTheDefault: a client limited to exactly one owner writes
// for it when a request names no owner (contract §9) — receipts, issues,
// moves and order lines of a house item, whose dfltOwner (0) is outside its
// scope — and never touches the house's stock; a client of several owners
// keeps the item's dfltOwner as the default, and is refused it (403).
func TestSoleOwnerIsTheDefault(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin, onlyA := ownersAPI(t, a)
		a.receiveFor(t, admin, stockroom.HouseOwner, 10)
		ledger := a.ledgerSize(t, admin)

		receipt := stockWrites(nil)["Receive"]
		receipt["units"] = 2 // one to issue, one to move
		got := a.mustPost(t, onlyA, "/api/v1/Inventory/Receive", receipt, 201)
		if lot := got["lot"].(map[string]any); lot["owner"] != float64(ownerA) {
			t.Fatalf("receipt naming no owner by a client of owner A only: lot %v, want owner %d", lot, ownerA)
		}
		for _, path := range []string{"Issue", "Move"} {
			got := a.mustPost(t, onlyA, "/api/v1/Inventory/"+path, stockWrites(nil)[path], 200)
			if got["owner"] != float64(ownerA) {
				t.Errorf("%s naming no owner by a client of owner A only: %v, want owner %d", path, got, ownerA)
			}
		}
		if l := a.ownerLevel(t, admin, "ITEM-A", 1, stockroom.HouseOwner); l.InStock != stockroom.Whole(10) {
			t.Errorf("the house's ITEM-A holds %s after owner A's writes, want 10", l.InStock)
		}

		so := a.mustPost(t, onlyA, "/api/v1/ShippingOrder", map[string]any{"customerID": ownerA,
			"lines": []any{map[string]any{"itemID": "ITEM-A", "units": 1, "warehouse": 1}}}, 201)
		if line := so["lines"].([]any)[0].(map[string]any); line["owner"] != float64(ownerA) {
			t.Errorf("shipping line naming no owner by a client of owner A only: %v, want owner %d", line, ownerA)
		}
		wo := a.mustPost(t, onlyA, "/api/v1/WorkOrder", map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1,
			"components": []any{map[string]any{"itemID": "ITEM-B", "units": 1}}}, 201)
		if line := wo["lines"].([]any)[0].(map[string]any); line["owner"] != float64(ownerA) {
			t.Errorf("work order naming no owner by a client of owner A only: %v, want owner %d", wo, ownerA)
		}

		_, ofAandB := a.ownerClient(t, ownerA, ownerB)
		before := a.ledgerSize(t, admin)
		for path, body := range stockWrites(nil) {
			v := wantError(t, a.send(t, "POST", "/api/v1/Inventory/"+path, ofAandB, body), 403, stockroom.EFORBIDDEN)
			if v["message"] != stockroom.MsgOwnerOutOfScope {
				t.Errorf("%s of a house item naming no owner by a client of owners A and B: %q", path, v["message"])
			}
		}
		if after := a.ledgerSize(t, admin); after != before || before != ledger+3 {
			t.Errorf("ledger grew %d → %d → %d, want 3 entries by owner A's writes and none by refusals", ledger, before, after)
		}
	})
}

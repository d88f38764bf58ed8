package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// TestMoveByRecNo: a move naming a lot by recno needs only the lot and a
// destination (contract §7): item, warehouse and owner are the lot's, and
// units its free units (those not committed to orders), so the whole lot
// moves, in place, or its free part splits off; a transfer by recno too.
// What the request gives must be the lot's (400 naming each field); a lot
// the client does not see answers as a missing one.
func TestMoveByRecNo(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin, onlyA := ownersAPI(t, a)
		recNo := a.receiveFor(t, admin, stockroom.HouseOwner, 10) // ITEM-A, warehouse 1, spot S

		res := decode[stockroom.DrawResult](t, a.mustSend(t, "POST", "/api/v1/Inventory/Move", admin, map[string]any{"recno": recNo, "toSpot": "T"}, 200))
		if res.ItemID != "ITEM-A" || res.WID != 1 || res.Units != stockroom.Whole(10) || len(res.Lines) != 1 ||
			res.Lines[0].SplitRecNo() != 0 || !res.Lines[0].Remaining.IsZero() || *res.ToSpot != "T" {
			t.Fatalf("whole-lot move by recno alone: %+v", res)
		}

		// 4 of its units committed to an order: 6 are free.
		a.mustSend(t, "POST", "/api/v1/ShippingOrder", admin, map[string]any{"soNo": "SO-LOT", "customerID": ownerA,
			"lines": []any{map[string]any{"itemID": "ITEM-A", "units": 4, "wid": 1, "owner": 0}}}, 201)
		a.mustSend(t, "POST", "/api/v1/ShippingOrder/SO-LOT/Commit", admin, map[string]any{"lines": []any{map[string]any{"line": 1, "recno": recNo}}}, 200)
		v := wantError(t, a.send(t, "POST", "/api/v1/Inventory/Move", admin, map[string]any{"recno": recNo, "units": 7, "toSpot": "U"}), 409, stockroom.ECONFLICT)
		if v["message"] != "Insufficient stock: 7 units requested, 6 available." {
			t.Errorf("more than the lot's free units: %q", v["message"])
		}
		res = decode[stockroom.DrawResult](t, a.mustSend(t, "POST", "/api/v1/Inventory/Move", admin, map[string]any{"recno": recNo, "shipToWid": 2}, 200))
		if res.Units != stockroom.Whole(6) || len(res.Lines) != 1 || res.Lines[0].SplitRecNo() == 0 || res.Lines[0].Remaining != stockroom.Whole(4) || *res.ToWID != 2 {
			t.Fatalf("move by recno of a lot with 4 of 10 units committed: %+v", res)
		}
		v = wantError(t, a.send(t, "POST", "/api/v1/Inventory/Move", admin, map[string]any{"recno": recNo, "toSpot": "U"}), 409, stockroom.ECONFLICT)
		if !strings.HasPrefix(v["message"].(string), fmt.Sprintf("Lot %v has no free units", recNo)) {
			t.Errorf("whole-lot move of a lot all committed: %q", v["message"])
		}

		// A transfer by recno ships the whole lot split off in warehouse 2.
		split := res.Lines[0].SplitRecNo()
		res = decode[stockroom.DrawResult](t, a.mustSend(t, "POST", "/api/v1/Inventory/Move", admin,
			map[string]any{"recno": split, "shipToWid": 1, "transitSlip": "SLIP-1"}, 200))
		if res.Type != stockroom.TxTransfer || res.WID != 2 || res.Units != stockroom.Whole(6) || res.TransitID == nil {
			t.Fatalf("transfer by recno alone: %+v", res)
		}
		a.auditClean(t)

		t.Run("Refusals", func(t *testing.T) { testMoveByRecNoRefusals(t, a, admin, onlyA, recNo) })
	})
}

// testMoveByRecNoRefusals: every 4xx a move by recno adds, in the
// contract's order. recNo is a house lot of 10 ITEM-A at warehouse 1, spot
// T, 4 of them committed.
func testMoveByRecNoRefusals(t *testing.T, a *api, admin, onlyA string, recNo any) {
	id, secret := a.addClient(t, service.NewClient{Permissions: stockroom.AllPermissions, Scope: stockroom.Scope{IDs: []int64{2}}})
	onlyWarehouse2 := a.token(t, id, secret)
	reader := a.clientToken(t, false, 11)
	ledger := a.ledgerSize(t, admin)
	move := func(tok string, body map[string]any) response {
		return a.send(t, "POST", "/api/v1/Inventory/Move", tok, body)
	}
	for _, tc := range []struct {
		name string
		tok  string
		body map[string]any
		want []string // a validation error's fields
	}{
		{"NoDestination", admin, map[string]any{"recno": recNo}, []string{"toSpot"}},
		{"NoLotNoFields", admin, map[string]any{"toSpot": "U"}, []string{"itemID", "units", "wid"}},
		{"BadGivenFields", admin, map[string]any{"recno": recNo, "units": -1, "wid": -2, "itemID": strings.Repeat("X", 65), "toSpot": "U"}, []string{"itemID", "units", "wid"}},
		{"NotTheLots", admin, map[string]any{"recno": recNo, "itemID": "ITEM-B", "wid": 2, "fromSpot": "S", "owner": ownerA, "toSpot": "U"},
			[]string{"fromSpot", "itemID", "owner", "wid"}},
		{"WhereTheLotIs", admin, map[string]any{"recno": recNo, "toSpot": "T"}, []string{"toSpot"}},
		{"WhereTheLotIsByWarehouse", admin, map[string]any{"recno": recNo, "shipToWid": 1}, []string{"shipToWid"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := wantError(t, move(tc.tok, tc.body), 400, stockroom.EINVALID)
			if got := strings.Join(detailFields(v), " "); got != strings.Join(tc.want, " ") {
				t.Errorf("details %v, want fields %v", v["details"], tc.want)
			}
		})
	}
	t.Run("PermissionFirst", func(t *testing.T) {
		wantError(t, move(reader, map[string]any{"recno": recNo}), 403, stockroom.EFORBIDDEN)
	})
	t.Run("ScopeBeforeExistence", func(t *testing.T) {
		for _, lot := range []any{recNo, 999999} {
			v := wantError(t, move(onlyWarehouse2, map[string]any{"recno": lot, "wid": 1, "toSpot": "U"}), 403, stockroom.EFORBIDDEN)
			if v["message"] != stockroom.MsgOutOfScope {
				t.Errorf("lot %v in warehouse 1: %q", lot, v["message"])
			}
		}
	})
	t.Run("HiddenIsMissing", func(t *testing.T) {
		missing := wantError(t, move(admin, map[string]any{"recno": 999999, "toSpot": "U"}), 404, stockroom.ENOTFOUND)
		if missing["message"] != "No lot with recNo 999999." {
			t.Errorf("a missing lot: %q", missing["message"])
		}
		want := strings.Replace(missing["message"].(string), "999999", fmt.Sprint(recNo), 1)
		for name, tok := range map[string]string{"OtherWarehouse": onlyWarehouse2, "OtherOwner": onlyA} {
			for _, body := range []map[string]any{{"recno": recNo, "toSpot": "U"}, {"recno": recNo, "itemID": "ITEM-A", "units": 1, "toSpot": "U"}} {
				if v := wantError(t, move(tok, body), 404, stockroom.ENOTFOUND); v["message"] != want {
					t.Errorf("%s: a lot the client does not see answered %q, a missing one %q", name, v["message"], missing["message"])
				}
			}
		}
	})
	if got := a.ledgerSize(t, admin); got != ledger {
		t.Errorf("refused moves changed the ledger: %d entries, then %d", ledger, got)
	}
}

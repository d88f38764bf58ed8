package httpapi_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/testdb"
)

// TestConcurrentStockOfOwnersOverHTTP runs the mix of
// TestConcurrentStockOverHTTP for two customers and the house at once, on
// the same items and bins, then proves that no owner's stock ever counted
// another's: no draw took another owner's lot, the audit (per item,
// warehouse and owner) finds nothing, and each owner's levels are the net
// of its successful responses and the sum of its lots.
func TestConcurrentStockOfOwnersOverHTTP(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok, items, owners := ownersMixAPI(t, a)
		m := newHTTPMix(owners...)
		a.runMix(t, tok, m, items, 16, ownerMixSteps(), 30)
		if t.Failed() {
			return
		}
		for _, f := range m.foreign {
			t.Error(f)
		}
		a.auditClean(t)
		for i, item := range items {
			for wid := 1; wid <= 3; wid++ {
				a.checkOwnerLevels(t, tok, m, owners, i, item, wid)
			}
		}
		a.checkLedger(t, tok, m.outcomes)
		checkHTTPMix(t, m.outcomes)
	})
}

// ownersMixAPI is stockAPI with ITEM-C, warehouse 3 and customers A and B:
// the three items and the owners (the house, A and B) of the owners' mix.
func ownersMixAPI(t *testing.T, a *api) (tok string, items []string, owners []int64) {
	t.Helper()
	tok = stockAPI(t, a)
	a.addCustomer(t, ownerA)
	a.addCustomer(t, ownerB)
	if err := a.svc.AddWarehouse(context.Background(), service.Operator, stockroom.Warehouse{ID: 3, Name: "Third"}); err != nil {
		t.Fatal(err)
	}
	a.createItem(t, tok, map[string]any{"shortID": "ITEM-C"})
	return tok, []string{"ITEM-A", "ITEM-B", "ITEM-C"}, []int64{stockroom.HouseOwner, ownerA, ownerB}
}

// checkOwnerLevels checks each owner's level of an item in a warehouse
// against the net of its successes and the sum of its lots (every one of
// which must be that owner's), and their sum against the level over owners.
func (a *api) checkOwnerLevels(t *testing.T, tok string, m *httpMix, owners []int64, i int, item string, wid int) {
	t.Helper()
	var sum stockroom.Units
	for _, o := range owners {
		l := a.ownerLevel(t, tok, item, wid, o)
		var inLots, heldLots stockroom.Units
		lots := decode[struct{ Value []stockroom.Lot }](t, a.get(t, fmt.Sprintf("/api/v1/Inventory/%d?itemID=%s&owner=%d&pageSize=250", wid, item, o), tok))
		if len(lots.Value) == 250 {
			t.Fatalf("%s in warehouse %d for owner %d: more lots than one page", item, wid, o)
		}
		for _, lot := range lots.Value {
			if lot.Owner != o {
				t.Errorf("%s in warehouse %d, ?owner=%d lists lot %d of owner %d", item, wid, o, lot.RecNo, lot.Owner)
			}
			inLots = inLots.Add(lot.Units)
			if lot.Hold {
				heldLots = heldLots.Add(lot.Units)
			}
		}
		net := m.net[mixKey{o, i, int64(wid)}]
		if l.InStock != net || l.InStock != inLots || l.OnHold != heldLots {
			t.Errorf("%s in warehouse %d for owner %d: inStock %s onHold %s; its successes net %s, its lots hold %s (%s held)",
				item, wid, o, l.InStock, l.OnHold, net, inLots, heldLots)
		}
		sum = sum.Add(l.InStock)
	}
	if l := a.levelOf(t, tok, item, wid); l.InStock != sum {
		t.Errorf("%s in warehouse %d: inStock %s over owners, the owners' levels sum to %s", item, wid, l.InStock, sum)
	}
}

// ownerMixSteps is how many steps each worker of the owners' mix takes:
// fewer under the race detector, which slows every request many times over
// while the interleavings it checks come with the first few.
func ownerMixSteps() int {
	if testdb.Race {
		return 25
	}
	return 60
}

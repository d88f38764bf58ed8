package storetest

import (
	"testing"

	"github.com/stockroom/stockroom"
)

// testSecondCommitTakesOnlyUnpromised: units one order has committed are
// not available to another, whatever its kind, until released. One request
// after another, so the refusal is the store's own judgement (the 409 that
// names what is available), not the database's CHECK on lots.allocated,
// which only a concurrent mix (Allocations/NeverPromisedTwice) reaches.
func (h *harness) testSecondCommitTakesOnlyUnpromised(t *testing.T) {
	t.Run("ShippingOrders", func(t *testing.T) {
		s := h.openStock(t)
		lot := s.receive(s.a.PartNo, 1, "X", u(10))
		s.insertShippingOrderForTest("SO-1", soLine(s.a.PartNo, 1, u(7)))
		s.insertShippingOrderForTest("SO-2", soLine(s.a.PartNo, 1, u(5)))
		must(t, firstErr(s.commit("SO-1", stockroom.CommitRequest{})))
		size := s.ledgerSize()
		_, err := s.commit("SO-2", stockroom.CommitRequest{})
		if want := "Insufficient stock to commit line 1: 5 units wanted, 3 available."; stockroom.ErrorCode(err) != stockroom.ECONFLICT || stockroom.ErrorMessage(err) != want {
			t.Fatalf("the second commit: %v, want 409 %q", err, want)
		}
		if la := s.soLines("SO-2")[0]; figures(la) != "0/0/0" || s.ledgerSize() != size || s.level(s.a.PartNo, 1).Committed != u(7) {
			t.Fatalf("the refused commit changed line %+v or the ledger or the level", la)
		}
		res, err := s.commit("SO-2", stockroom.CommitRequest{AllowPartial: true})
		must(t, err)
		if l := res.Lines[0]; l.Units != u(3) || l.Short != u(2) {
			t.Fatalf("the partial commit: %+v, want 3 committed and 2 short", l)
		}
		if a, b := s.soLines("SO-1")[0], s.soLines("SO-2")[0]; allocs(a) != fmtAllocs(lot.RecNo, "7/0") || allocs(b) != fmtAllocs(lot.RecNo, "3/0") {
			t.Fatalf("allocations %s and %s", allocs(a), allocs(b))
		}
		if lv := s.level(s.a.PartNo, 1); lv.Committed != u(10) || !lv.Available.IsZero() {
			t.Fatalf("level with every unit promised: %+v", lv)
		}
		// Released by the first, the units go to the second.
		must(t, firstErr(s.uncommit("SO-1")))
		must(t, firstErr(s.commit("SO-2", stockroom.CommitRequest{})))
		if b := s.soLines("SO-2")[0]; figures(b) != "5/0/0" {
			t.Fatalf("after the first order's release the second has %s", figures(b))
		}
		if _, err := s.commit("SO-1", stockroom.CommitRequest{}); stockroom.ErrorMessage(err) != "Insufficient stock to commit line 1: 7 units wanted, 5 available." {
			t.Fatalf("the first order again: %v", err)
		}
		s.audit()
	})
	t.Run("WorkOrderAfterShippingOrder", func(t *testing.T) {
		s := h.openStock(t)
		s.priced(s.a.PartNo, u(10), "1")
		s.insertShippingOrderForTest("SO-1", soLine(s.a.PartNo, 1, u(7)))
		must(t, firstErr(s.commit("SO-1", stockroom.CommitRequest{})))
		s.placeWorkOrder("WO-1", u(5), comp(s.a.PartNo, u(1)))
		_, err := s.CommitOrder(ctx, nil, s.act(stockroom.OrderKindWork, "WO-1", everyone), stockroom.CommitRequest{})
		if want := "Insufficient stock to commit line 1: 5 units wanted, 3 available."; stockroom.ErrorMessage(err) != want {
			t.Fatalf("the component's commit: %v, want %q", err, want)
		}
		// A completion consumes only units no other order holds.
		if _, err := s.complete("WO-1", u(5)); stockroom.ErrorMessage(err) != "Insufficient stock of component A (line 1): 5 units wanted, 3 available." {
			t.Fatalf("the completion: %v", err)
		}
		must(t, firstErr(s.complete("WO-1", u(3))))
		if lv := s.level(s.a.PartNo, 1); lv.InStock != u(7) || lv.Committed != u(7) || !lv.Available.IsZero() {
			t.Fatalf("level after the completion: %+v", lv)
		}
		must(t, firstErr(s.shipOrder("SO-1", stockroom.ShipRequest{})))
		s.audit()
	})
}

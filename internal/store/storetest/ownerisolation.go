package storetest

import (
	"testing"

	"github.com/stockroom/stockroom"
)

// testOwnerIsolation: an issue, a move or a commit for one owner takes
// only that owner's lots (contract §9), even when another owner's lot of
// the same item in the same warehouse comes first in draw order and the
// owner asked for is short; each owner's levels count its own lots only.
// One request after another, so a failure names the draw that crossed.
func (h *harness) testOwnerIsolation(t *testing.T) {
	s := h.openStock(t)
	owners := s.ownersMix()
	mine, theirs := owners[1], owners[2]
	ownerReceive := func(owner int64, units stockroom.Units) stockroom.Lot {
		res, err := s.Receive(ctx, nil, stockroom.Receipt{PartNo: s.a.PartNo, Owner: owner, ReceiveRequest: stockroom.ReceiveRequest{WID: 1, Spot: "X", Units: units}}, s.entry())
		must(t, err)
		return res.Lot
	}
	other := ownerReceive(theirs, u(10)) // first in draw order
	lot := ownerReceive(mine, u(5))
	issue := stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: s.a.PartNo, WID: 1, Owner: mine, Units: u(6)}
	move := stockroom.Withdrawal{Type: stockroom.TxMove, PartNo: s.a.PartNo, WID: 1, Owner: mine, Units: u(6), ToWID: 1, ToSpot: "Y"}
	for _, w := range []stockroom.Withdrawal{issue, move} {
		if _, err := s.withdraw(w); stockroom.ErrorMessage(err) != "Insufficient stock: 6 units requested, 5 available." {
			t.Fatalf("%s of 6 for an owner of 5: %v", w.Type, err)
		}
	}
	s.insertShippingOrderForTest("SO-1", stockroom.OutboundLine{PartNo: s.a.PartNo, WID: 1, Owner: mine, Units: u(6)})
	if _, err := s.commit("SO-1", stockroom.CommitRequest{}); stockroom.ErrorMessage(err) != "Insufficient stock to commit line 1: 6 units wanted, 5 available." {
		t.Fatalf("a commit of 6 for an owner of 5: %v", err)
	}
	house := issue
	house.Owner, house.Units = stockroom.HouseOwner, u(1)
	if _, err := s.withdraw(house); stockroom.ErrorMessage(err) != "Insufficient stock: 1 unit requested, 0 available." {
		t.Fatalf("an issue for the house, which has nothing: %v", err)
	}

	issue.Units, move.Units = u(1), u(2)
	for _, w := range []stockroom.Withdrawal{issue, move} {
		if got := drawnLots(t, s, w); len(got) != 1 || got[0] != lot.RecNo {
			t.Fatalf("%s for owner %d drew lots %v, want only its lot %d (lot %d is owner %d's)", w.Type, mine, got, lot.RecNo, other.RecNo, theirs)
		}
	}
	must(t, firstErr(s.commit("SO-1", stockroom.CommitRequest{AllowPartial: true})))
	for _, la := range s.soLines("SO-1")[0].Allocations {
		if got := s.lot(la.RecNo); got.Owner != mine {
			t.Fatalf("owner %d's order line was allocated lot %d of owner %d", mine, la.RecNo, got.Owner)
		}
	}
	for _, want := range []struct {
		owner              int64
		inStock, committed stockroom.Units
	}{
		{mine, u(4), u(4)},
		{theirs, u(10), u(0)},
		{stockroom.HouseOwner, u(0), u(0)},
	} {
		lv := s.ownerLevel(s.a.PartNo, 1, want.owner)
		units, held := s.ownerLots(s.a.PartNo, 1, want.owner)
		if lv.InStock != want.inStock || lv.Committed != want.committed || units != want.inStock || !held.IsZero() {
			t.Errorf("owner %d: level %+v, lots %s (%s held); want inStock and lots %s, committed %s", want.owner, lv, units, held, want.inStock, want.committed)
		}
	}
	if lv := s.level(s.a.PartNo, 1); lv.InStock != u(14) || lv.Committed != u(4) {
		t.Fatalf("level over owners %+v, want inStock 14, committed 4", lv)
	}
	s.audit()
}

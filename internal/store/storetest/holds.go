package storetest

import (
	"slices"
	"testing"

	"github.com/stockroom/stockroom"
)

// allowAll is a SetHold check that refuses nothing.
func allowAll(stockroom.Lot) error { return nil }

// ledgerSize is how many entries the ledger holds.
func (s *stockDB) ledgerSize() int64 {
	s.t.Helper()
	p, err := s.ListTransactions(ctx, stockroom.Scope{All: true}, stockroom.TransactionFilter{}, stockroom.PageRequest{Page: 1, PageSize: 1})
	must(s.t, err)
	return p.Total
}

// lots returns every lot, shipped ones too, in list order.
func (s *stockDB) lots() []stockroom.Lot {
	s.t.Helper()
	p, err := s.ListLots(ctx, stockroom.Scope{All: true}, stockroom.LotFilter{IncludeShipped: true}, stockroom.PageRequest{Page: 1, PageSize: 250})
	must(s.t, err)
	return p.Items
}

// sameLots reports whether two lot lists agree in every field a stock
// transaction or a hold changes.
func sameLots(a, b []stockroom.Lot) bool {
	return slices.EqualFunc(a, b, func(x, y stockroom.Lot) bool {
		return x.RecNo == y.RecNo && x.WID == y.WID && x.Spot == y.Spot && x.Units == y.Units &&
			x.Hold == y.Hold && x.Active == y.Active && x.Modified.Equal(y.Modified)
	})
}

// testHeldLotsMoveOnlyWhenNamed: a held lot is never issued, not even when
// named by recNo, and moves, within a warehouse or across, only when named
// by recNo. The held lot is the oldest, so any withdrawal that wrongly took
// it as a candidate would draw from it first or find enough stock.
func (h *harness) testHeldLotsMoveOnlyWhenNamed(t *testing.T) {
	s := h.openStock(t)
	held := s.receive(s.a.PartNo, 1, "X", u(5))
	free := s.receive(s.a.PartNo, 1, "X", u(3))
	if res, err := s.SetHold(ctx, nil, stockroom.HoldChange{RecNo: held.RecNo, Hold: true}, s.entry(), allowAll); err != nil || res.TransactionID == nil {
		t.Fatalf("hold: %+v, %v", res, err)
	}
	lotsBefore, ledgerBefore := s.lots(), s.ledgerSize()
	for _, tc := range []struct {
		name string
		w    stockroom.Withdrawal
	}{
		{"IssueBeyondTheFreeLots", stockroom.Withdrawal{Type: stockroom.TxIssue, Units: u(4)}},
		{"IssueNamingTheHeldLot", stockroom.Withdrawal{Type: stockroom.TxIssue, Units: u(1), RecNo: held.RecNo}},
		{"MoveAcrossBeyondTheFreeLots", stockroom.Withdrawal{Type: stockroom.TxMove, Units: u(4), ToWID: 2, ToSpot: "R"}},
		{"MoveWithinBeyondTheFreeLots", stockroom.Withdrawal{Type: stockroom.TxMove, Units: u(4), ToWID: 1, ToSpot: "R"}},
		{"MoveAcrossOnlyByWarehouse", stockroom.Withdrawal{Type: stockroom.TxMove, Units: u(4), ToWID: 2}},
		{"MoveFromTheSpotWithoutRecNo", stockroom.Withdrawal{Type: stockroom.TxMove, Units: u(4), Spot: "X", ToWID: 2, ToSpot: "R"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.w
			w.PartNo, w.WID = s.a.PartNo, 1
			draws, err := s.withdraw(w)
			if stockroom.ErrorCode(err) != stockroom.ECONFLICT {
				t.Fatalf("%+v: drew %+v (%v), want a refusal: the free lot has 3 units and the held one may not be taken", w, draws, err)
			}
		})
	}
	if !sameLots(lotsBefore, s.lots()) || s.ledgerSize() != ledgerBefore {
		t.Fatalf("refused withdrawals changed lots or the ledger:\n%+v\n%+v", lotsBefore, s.lots())
	}

	// Without recNo a move takes the free lot, younger as it is.
	draws, err := s.withdraw(stockroom.Withdrawal{Type: stockroom.TxMove, PartNo: s.a.PartNo, WID: 1, Units: u(2), ToWID: 2, ToSpot: "R"})
	must(t, err)
	if len(draws) != 1 || draws[0].RecNo != free.RecNo {
		t.Fatalf("move without recNo drew %+v, want only lot %d (lot %d is held)", draws, free.RecNo, held.RecNo)
	}
	// Named by recNo, the held lot moves, whole within its warehouse and
	// in part across, and stays held; onHold follows it.
	draws, err = s.withdraw(stockroom.Withdrawal{Type: stockroom.TxMove, PartNo: s.a.PartNo, WID: 1, Units: u(5), RecNo: held.RecNo, ToWID: 1, ToSpot: "H"})
	must(t, err)
	if moved := s.lot(held.RecNo); len(draws) != 1 || draws[0].SplitRecNo() != 0 || moved.Spot != "H" || !moved.Hold {
		t.Fatalf("move of the held lot by recNo: draws %+v, lot %+v", draws, moved)
	}
	draws, err = s.withdraw(stockroom.Withdrawal{Type: stockroom.TxMove, PartNo: s.a.PartNo, WID: 1, Units: u(2), RecNo: held.RecNo, ToWID: 2, ToSpot: "R"})
	must(t, err)
	if len(draws) != 1 || draws[0].RecNo != held.RecNo || !s.lot(draws[0].SplitRecNo()).Hold {
		t.Fatalf("move of part of the held lot across: %+v", draws)
	}
	if a, b := s.level(s.a.PartNo, 1), s.level(s.a.PartNo, 2); a.OnHold != u(3) || a.InStock != u(4) || b.OnHold != u(2) || b.InStock != u(4) {
		t.Fatalf("levels after moving held units: %+v %+v", a, b)
	}
	s.audit()
}

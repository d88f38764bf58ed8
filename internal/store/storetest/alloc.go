package storetest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
)

func (h *harness) testAllocations(t *testing.T) {
	t.Run("CommitTakesFreeLotsOldestFirst", h.testCommitFIFO)
	t.Run("DrawsAndHoldsLeaveAllocatedUnits", h.testDrawsLeaveAllocated)
	t.Run("CommitIsAllOrNothing", h.testCommitAllOrNothing)
	t.Run("CommitNamedLot", h.testCommitNamedLot)
	t.Run("Refusals", h.testAllocRefusals)
	t.Run("UncommitPackShip", h.testUncommitPackShip)
	t.Run("CloseAndCancelRelease", h.testEndReleases)
	t.Run("WorkOrderComponents", h.testWorkOrderComponents)
	t.Run("AuditFindsAllocationDamage", h.testAllocAudit)
	t.Run("NeverPromisedTwice", h.testNeverPromisedTwice)
	t.Run("RoundTrips", h.testAllocRoundTrips)
	t.Run("WorkOrders", h.testWorkOrders)
}

func (h *harness) testCommitFIFO(t *testing.T) {
	s := h.openStock(t)
	l1 := s.receive(s.a.PartNo, 1, "X", u(5))
	l2 := s.receive(s.a.PartNo, 1, "Y", u(10))
	s.receive(s.a.PartNo, 2, "X", u(50)) // another warehouse: never taken
	b := s.receive(s.b.PartNo, 1, "X", u(3))
	s.insertShippingOrderForTest("SO-1", soLine(s.a.PartNo, 1, u(7)), soLine(s.b.PartNo, 1, u(2)))
	res, err := s.commit("so-1", stockroom.CommitRequest{})
	must(t, err)
	if res.OrderNo != "SO-1" || res.Status != stockroom.OrderOpen || len(res.Lines) != 2 {
		t.Fatalf("commit answered %+v", res)
	}
	r1 := res.Lines[0]
	if r1.Line != 1 || r1.TransactionID == nil || r1.Units != u(7) || !r1.Short.IsZero() || r1.UnitsCommitted != u(7) ||
		len(r1.Lots) != 2 || r1.Lots[0].RecNo != l1.RecNo || r1.Lots[0].Units != u(5) || r1.Lots[1].RecNo != l2.RecNo || r1.Lots[1].Units != u(2) {
		t.Fatalf("line 1: %+v", r1)
	}
	lines := s.soLines("SO-1")
	if figures(lines[0]) != "7/0/0" || allocs(lines[0]) != fmtAllocs(l1.RecNo, "5/0", l2.RecNo, "2/0") ||
		figures(lines[1]) != "2/0/0" || allocs(lines[1]) != fmtAllocs(b.RecNo, "2/0") {
		t.Fatalf("lines %+v", lines)
	}
	if lv := s.level(s.a.PartNo, 1); lv.Committed != u(7) || lv.InStock != u(15) || lv.Available != u(8) {
		t.Fatalf("level of A in 1: %+v", lv)
	}
	if lv := s.level(s.a.PartNo, 0); lv.Committed != u(7) || lv.Available != u(58) {
		t.Fatalf("level of A in every warehouse: %+v", lv)
	}
	txs := s.ledgerOf(stockroom.TxCommit)
	if len(txs) != 2 || txs[0].Units != u(7) || txs[0].Reference != "SO-1" || txs[0].Details["soNo"] != "SO-1" ||
		len(txs[0].Figures) != 1 || txs[0].Figures[0].Committed != u(7) || len(txs[0].Lines) != 0 {
		t.Fatalf("ledger %+v", txs)
	}
	// A second commit finds nothing left to commit and changes nothing.
	again, err := s.commit("SO-1", stockroom.CommitRequest{})
	must(t, err)
	if len(again.Lines) != 0 || len(s.ledgerOf(stockroom.TxCommit)) != 2 {
		t.Fatalf("second commit answered %+v", again)
	}
	s.audit()
}

// fmtAllocs writes pairs of recNo and "committed/packed" as allocs does.
func fmtAllocs(pairs ...any) string {
	var out []string
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, fmt.Sprintf("%d:%s", pairs[i], pairs[i+1]))
	}
	return strings.Join(out, " ")
}

func (h *harness) testDrawsLeaveAllocated(t *testing.T) {
	s := h.openStock(t)
	l1 := s.receive(s.a.PartNo, 1, "X", u(5))
	l2 := s.receive(s.a.PartNo, 1, "Y", u(10))
	s.insertShippingOrderForTest("SO-1", soLine(s.a.PartNo, 1, u(7)))
	_, err := s.commit("SO-1", stockroom.CommitRequest{})
	must(t, err)
	issue := func(n int64) ([]stockroom.Draw, error) {
		return s.withdraw(stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: s.a.PartNo, WID: 1, Units: u(n)})
	}
	if _, err := issue(9); stockroom.ErrorMessage(err) != "Insufficient stock: 9 units requested, 8 available." {
		t.Fatalf("an issue past the free units: %v", err)
	}
	draws, err := issue(6)
	must(t, err)
	if len(draws) != 1 || draws[0].RecNo != l2.RecNo || draws[0].Units != u(6) || draws[0].Remaining != u(4) {
		t.Fatalf("the issue drew %+v, want 6 of lot %d, leaving its allocated units", draws, l2.RecNo)
	}
	// A move takes the free part and leaves the allocated part in place.
	draws, err = s.withdraw(stockroom.Withdrawal{Type: stockroom.TxMove, PartNo: s.a.PartNo, WID: 1, ToWID: 1, ToSpot: "Z", Units: u(2)})
	must(t, err)
	if len(draws) != 1 || draws[0].RecNo != l2.RecNo || newRec(draws[0]) == 0 || draws[0].Remaining != u(2) {
		t.Fatalf("the move drew %+v", draws)
	}
	named := stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: s.a.PartNo, WID: 1, Units: u(1), RecNo: l1.RecNo}
	if _, err := s.withdraw(named); stockroom.ErrorMessage(err) != "Insufficient stock: 1 unit requested, 0 available." {
		t.Fatalf("an issue of a lot all promised: %v", err)
	}
	for _, rec := range []int64{l1.RecNo, l2.RecNo} {
		_, err := s.SetHold(ctx, nil, stockroom.HoldChange{RecNo: rec, Hold: true}, s.entry(), func(stockroom.Lot) error { return nil })
		if !errors.Is(err, stockroom.ErrLotAllocated) || stockroom.ErrorMessage(err) != "Lot has units committed to orders." {
			t.Fatalf("holding lot %d with allocations: %v", rec, err)
		}
		if s.lot(rec).Hold {
			t.Fatalf("lot %d was held", rec)
		}
	}
	if lv := s.level(s.a.PartNo, 1); lv.InStock != u(9) || lv.Committed != u(7) || !lv.OnHold.IsZero() || lv.Available != u(2) {
		t.Fatalf("level %+v", lv)
	}
	// Released, the lot can be held again.
	_, err = s.uncommit("SO-1")
	must(t, err)
	_, err = s.SetHold(ctx, nil, stockroom.HoldChange{RecNo: l1.RecNo, Hold: true}, s.entry(), func(stockroom.Lot) error { return nil })
	must(t, err)
	s.audit()
}

func (h *harness) testCommitAllOrNothing(t *testing.T) {
	s := h.openStock(t)
	s.receive(s.a.PartNo, 1, "X", u(3))
	s.receive(s.b.PartNo, 1, "X", u(4))
	s.insertShippingOrderForTest("SO-1", soLine(s.a.PartNo, 1, u(5)), soLine(s.b.PartNo, 1, u(1)), soLine(s.a.PartNo, 2, u(1)))
	_, err := s.commit("SO-1", stockroom.CommitRequest{})
	want := "Insufficient stock to commit line 1: 5 units wanted, 3 available. Insufficient stock to commit line 3: 1 unit wanted, 0 available."
	if stockroom.ErrorCode(err) != stockroom.ECONFLICT || stockroom.ErrorMessage(err) != want {
		t.Fatalf("short commit: %v", err)
	}
	for _, la := range s.soLines("SO-1") {
		if figures(la) != "0/0/0" || len(la.Allocations) != 0 {
			t.Fatalf("a refused commit changed line %+v", la)
		}
	}
	if lv := s.level(s.b.PartNo, 1); !lv.Committed.IsZero() || len(s.ledgerOf(stockroom.TxCommit)) != 0 {
		t.Fatalf("a refused commit changed levels or the ledger: %+v", lv)
	}
	res, err := s.commit("SO-1", stockroom.CommitRequest{AllowPartial: true})
	must(t, err)
	if len(res.Lines) != 3 || res.Lines[0].Units != u(3) || res.Lines[0].Short != u(2) || res.Lines[1].Units != u(1) ||
		!res.Lines[1].Short.IsZero() || res.Lines[2].TransactionID != nil || res.Lines[2].Short != u(1) {
		t.Fatalf("partial commit answered %+v", res.Lines)
	}
	// More stock arrives: a second commit takes what is still uncommitted.
	s.receive(s.a.PartNo, 1, "Y", u(2))
	res, err = s.commit("SO-1", stockroom.CommitRequest{Lines: []stockroom.AllocLine{allocLine(1, nil)}})
	must(t, err)
	if len(res.Lines) != 1 || res.Lines[0].Units != u(2) || res.Lines[0].UnitsCommitted != u(5) {
		t.Fatalf("second commit answered %+v", res.Lines)
	}
	if lv := s.level(s.a.PartNo, 1); lv.Committed != u(5) || !lv.Available.IsZero() {
		t.Fatalf("level %+v", lv)
	}
	s.audit()
}

func (h *harness) testCommitNamedLot(t *testing.T) {
	s := h.openStock(t)
	s.receive(s.a.PartNo, 1, "X", u(5))
	l2 := s.receive(s.a.PartNo, 1, "Y", u(5))
	held := s.receive(s.a.PartNo, 1, "Z", u(5))
	_, err := s.SetHold(ctx, nil, stockroom.HoldChange{RecNo: held.RecNo, Hold: true}, s.entry(), func(stockroom.Lot) error { return nil })
	must(t, err)
	s.insertShippingOrderForTest("SO-1", soLine(s.a.PartNo, 1, u(4)), soLine(s.a.PartNo, 1, u(4)))
	res, err := s.commit("SO-1", stockroom.CommitRequest{Lines: []stockroom.AllocLine{{Line: 2, RecNo: l2.RecNo}, {Line: 1, Units: up(2)}}})
	must(t, err)
	lines := s.soLines("SO-1")
	if len(res.Lines) != 2 || allocs(lines[1]) != fmtAllocs(l2.RecNo, "4/0") || figures(lines[0]) != "2/0/0" || lines[0].Allocations[0].RecNo == l2.RecNo {
		t.Fatalf("named lot: %+v; lines %+v", res.Lines, lines)
	}
	_, err = s.commit("SO-1", stockroom.CommitRequest{Lines: []stockroom.AllocLine{{Line: 1, Units: up(1), RecNo: held.RecNo}}})
	if stockroom.ErrorMessage(err) != "Insufficient stock to commit line 1: 1 unit wanted, 0 available." {
		t.Fatalf("a held lot named: %v", err)
	}
	s.audit()
}

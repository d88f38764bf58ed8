package storetest

import (
	"slices"
	"testing"

	"github.com/stockroom/stockroom"
)

// testDrawAfterSplit pins the draw order (contract §7, §11): oldest
// received first, then lowest recNo. A lot split off by a move keeps its
// source's received but takes a new, higher recNo, so after a split the
// two orders differ: every way of taking lots must take the split lot,
// received first, before a lot received later under a lower recNo.
func (h *harness) testDrawAfterSplit(t *testing.T) {
	for _, tc := range []struct {
		name string
		// draw takes 8 units of item A in warehouse 1 and returns the lots
		// it took them from, in the order taken.
		draw func(t *testing.T, s *stockDB) []int64
	}{
		{"Issue", func(t *testing.T, s *stockDB) []int64 {
			return drawnLots(t, s, stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: s.a.PartNo, WID: 1, Units: u(8)})
		}},
		{"Move", func(t *testing.T, s *stockDB) []int64 {
			return drawnLots(t, s, stockroom.Withdrawal{Type: stockroom.TxMove, PartNo: s.a.PartNo, WID: 1, Units: u(8), ToWID: 2, ToSpot: "R"})
		}},
		{"ShippingOrderCommit", func(t *testing.T, s *stockDB) []int64 {
			s.insertShippingOrderForTest("SO-1", soLine(s.a.PartNo, 1, u(8)))
			must(t, firstErr(s.commit("SO-1", stockroom.CommitRequest{})))
			return allocatedLots(s.soLines("SO-1")[0])
		}},
		{"WorkOrderCommit", func(t *testing.T, s *stockDB) []int64 {
			s.placeWorkOrder("WO-1", u(8), comp(s.a.PartNo, u(1)))
			must(t, firstErr(s.CommitOrder(ctx, nil, s.act(stockroom.OrderKindWork, "WO-1", everyone), stockroom.CommitRequest{})))
			lines, err := s.FindOrderAllocations(ctx, stockroom.OrderKindWork, "WO-1")
			must(t, err)
			return allocatedLots(lines[0])
		}},
		{"WorkOrderCompletion", func(t *testing.T, s *stockDB) []int64 {
			s.placeWorkOrder("WO-1", u(8), comp(s.a.PartNo, u(1)))
			res, err := s.complete("WO-1", u(8))
			must(t, err)
			var recs []int64
			for _, l := range res.Components[0].Lots {
				recs = append(recs, l.RecNo)
			}
			return recs
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := h.openStock(t)
			a, split, b, _ := s.splitLots(0)
			// A's 6, then its split's 2 (received with A, before B); never B.
			if got, want := tc.draw(t, s), []int64{a, split}; !slices.Equal(got, want) {
				t.Fatalf("took lots %v, want %v: lot %d, split from %d, was received before lot %d though numbered after it", got, want, split, a, b)
			}
			s.audit()
		})
	}
	t.Run("IssuePastTheFirstLotsLocked", func(t *testing.T) {
		// A draw locks its first few lots, then the rest after the last
		// one in draw order (lotlock.go): the split lot is among the
		// first, numbered after the rest.
		s := h.openStock(t)
		a, split, b, more := s.splitLots(3)
		want := append([]int64{a, split, b}, more...)
		issue := stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: s.a.PartNo, WID: 1, Units: u(24)}
		if _, err := s.withdraw(issue); stockroom.ErrorMessage(err) != "Insufficient stock: 24 units requested, 23 available." {
			t.Fatalf("issuing one more than there is: %v", err)
		}
		issue.Units = u(23)
		if got := drawnLots(t, s, issue); !slices.Equal(got, want) {
			t.Fatalf("took lots %v, want %v", got, want)
		}
		s.audit()
	})
	t.Run("PackTakesAllocationsInDrawOrder", func(t *testing.T) {
		s := h.openStock(t)
		_, split, b, _ := s.splitLots(0)
		s.insertShippingOrderForTest("SO-1", soLine(s.a.PartNo, 1, u(4)))
		for _, rec := range []int64{b, split} {
			must(t, firstErr(s.commit("SO-1", stockroom.CommitRequest{Lines: []stockroom.AllocLine{{Line: 1, Units: up(2), RecNo: rec}}})))
		}
		must(t, firstErr(s.pack("SO-1", allocLine(1, up(2)))))
		if got, want := allocs(s.soLines("SO-1")[0]), fmtAllocs(split, "0/2", b, "2/0"); got != want {
			t.Fatalf("allocations after packing 2: %s; want %s (the split lot, received first, packed first)", got, want)
		}
		s.audit()
	})
}

// splitLots receives 10 units of item A into warehouse 1 (lot a), then 10
// more a second later (lot b), then lots of 1 unit each, one per second
// (more, n of them), then moves 4 of a to another spot: they split off as
// lot split, received with a but numbered after all the others.
func (s *stockDB) splitLots(n int) (a, split, b int64, more []int64) {
	s.t.Helper()
	la := s.receive(s.a.PartNo, 1, "X", u(10))
	lb := s.receive(s.a.PartNo, 1, "X", u(10))
	for range n {
		more = append(more, s.receive(s.a.PartNo, 1, "X", u(1)).RecNo)
	}
	draws, err := s.withdraw(stockroom.Withdrawal{Type: stockroom.TxMove, PartNo: s.a.PartNo, WID: 1, Units: u(4), ToWID: 1, ToSpot: "Y"})
	must(s.t, err)
	if len(draws) != 1 || draws[0].RecNo != la.RecNo || newRec(draws[0]) == 0 {
		s.t.Fatalf("the move to split lot %d drew %+v", la.RecNo, draws)
	}
	split = newRec(draws[0])
	if l := s.lot(split); !l.Received.Equal(la.Received) || !la.Received.Before(lb.Received) || split < lb.RecNo {
		s.t.Fatalf("split lot %+v of lot %+v: want a's received, before b's %s, and a recNo after b's %d", l, la, lb.Received, lb.RecNo)
	}
	return la.RecNo, split, lb.RecNo, more
}

// drawnLots runs withdrawal w and returns the lots it drew from, in order.
func drawnLots(t *testing.T, s *stockDB, w stockroom.Withdrawal) []int64 {
	t.Helper()
	draws, err := s.withdraw(w)
	must(t, err)
	recs := make([]int64, len(draws))
	for i, d := range draws {
		recs[i] = d.RecNo
	}
	return recs
}

// allocatedLots lists the lots of a line's allocations, as the store
// orders them.
func allocatedLots(la stockroom.LineAllocations) []int64 {
	recs := make([]int64, len(la.Allocations))
	for i, a := range la.Allocations {
		recs[i] = a.RecNo
	}
	return recs
}

package storetest

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store"
)

// testAllocUnseenLines: a line the client does not see
// (stockroom.Principal.SeesLine) is as one the order lacks, and an order
// none of whose lines it sees is not found, whatever the lines named; an
// action on every line of an order refuses one it sees only in part
// (stockroom.Principal.JudgeLines: 403), and changes nothing.
func testAllocUnseenLines(t *testing.T, s *stockDB) {
	s.insertShippingOrderForTest("SO-V", soLine(s.a.PartNo, 1, u(1)), soLine(s.a.PartNo, 2, u(1)))
	inOne, none := inWarehouses(1), inWarehouses()
	for _, tc := range []struct {
		by    *stockroom.Principal
		named []stockroom.AllocLine
		code  string
	}{
		{inOne, []stockroom.AllocLine{allocLine(2, nil)}, stockroom.EINVALID},
		{inOne, []stockroom.AllocLine{allocLine(9, nil)}, stockroom.EINVALID},
		{none, []stockroom.AllocLine{allocLine(1, nil)}, stockroom.ENOTFOUND},
		{none, []stockroom.AllocLine{allocLine(9, nil)}, stockroom.ENOTFOUND},
		{none, nil, stockroom.ENOTFOUND},
	} {
		_, err := s.CommitOrder(ctx, nil, s.act(stockroom.OrderKindShipping, "SO-V", tc.by), stockroom.CommitRequest{Lines: tc.named})
		if got := stockroom.ErrorCode(err); got != tc.code {
			t.Fatalf("commit of lines %v: %v, want %s", tc.named, err, tc.code)
		}
		var e *stockroom.Error
		if tc.code == stockroom.EINVALID && (!errors.As(err, &e) || e.Details["lines[0].line"][0] != "is not a line of shipping order SO-V") {
			t.Fatalf("commit of lines %v: %v", tc.named, err)
		}
		_, err = s.EndOutboundOrder(ctx, nil, s.act(stockroom.OrderKindShipping, "SO-V", none), false)
		wantCode(t, err, stockroom.ENOTFOUND)
	}
	for name, err := range map[string]error{
		"commit": firstErr(s.CommitOrder(ctx, nil, s.act(stockroom.OrderKindShipping, "SO-V", inOne), stockroom.CommitRequest{})),
		"close":  firstErr(s.EndOutboundOrder(ctx, nil, s.act(stockroom.OrderKindShipping, "SO-V", inOne), false)),
	} {
		if stockroom.ErrorCode(err) != stockroom.EFORBIDDEN || stockroom.ErrorMessage(err) != stockroom.MsgOutOfScope {
			t.Fatalf("%s of every line, one out of scope: %v", name, err)
		}
	}
	if la := s.soLines("SO-V"); figures(la[0]) != "0/0/0" || figures(la[1]) != "0/0/0" {
		t.Fatalf("refusals changed the lines: %+v", la)
	}
}

func (h *harness) testAllocRefusals(t *testing.T) {
	s := h.openStock(t)
	s.receive(s.a.PartNo, 1, "X", u(10))
	s.insertShippingOrderForTest("SO-1", soLine(s.a.PartNo, 1, u(4)), soLine(s.a.PartNo, 1, u(4)))
	lines := func(ls ...stockroom.AllocLine) stockroom.CommitRequest { return stockroom.CommitRequest{Lines: ls} }
	_, err := s.commit("SO-9", stockroom.CommitRequest{})
	if !errors.Is(err, stockroom.ErrNotFound) {
		t.Fatalf("an order that does not exist: %v", err)
	}
	_, err = s.CommitOrder(ctx, nil, s.act(stockroom.OrderKindWork, "SO-1", everyone), stockroom.CommitRequest{})
	if !errors.Is(err, stockroom.ErrNotFound) {
		t.Fatalf("an order of another kind: %v", err)
	}
	var e *stockroom.Error
	_, err = s.commit("SO-1", lines(allocLine(3, nil), allocLine(1, nil), allocLine(1, nil)))
	if !errors.As(err, &e) || e.Code != stockroom.EINVALID || e.Details["lines[0].line"][0] != "is not a line of shipping order SO-1" ||
		e.Details["lines[2].line"][0] != "names line 1 again" {
		t.Fatalf("lines the order does not have or named twice: %v", err)
	}
	if _, err := s.commit("SO-1", lines(allocLine(1, up(5)))); stockroom.ErrorMessage(err) != "Line 1 has 4 units left to commit; 5 units cannot be committed." {
		t.Fatalf("more than the line: %v", err)
	}
	testAllocUnseenLines(t, s)
	must(t, firstErr(s.commit("SO-1", lines(allocLine(1, up(1))))))
	for name, err := range map[string]error{
		"pack":     firstErr(s.pack("SO-1", allocLine(1, up(2)))),
		"uncommit": firstErr(s.uncommit("SO-1", allocLine(1, up(2)))),
		"ship":     firstErr(s.shipOrder("SO-1", stockroom.ShipRequest{Lines: []stockroom.AllocLine{allocLine(1, up(2))}})),
	} {
		if stockroom.ErrorCode(err) != stockroom.ECONFLICT || !strings.HasPrefix(stockroom.ErrorMessage(err), "Line 1 has 1 unit committed") {
			t.Errorf("%s past what is committed: %v", name, err)
		}
	}
	if la := s.soLines("SO-1"); figures(la[0]) != "1/0/0" || figures(la[1]) != "0/0/0" {
		t.Fatalf("refusals changed the lines: %+v", la)
	}
	must(t, firstErr(s.endOrder("SO-1", false)))
	if _, err := s.commit("SO-1", stockroom.CommitRequest{}); stockroom.ErrorMessage(err) != "Shipping order SO-1 is Closed; only an open order can be committed." {
		t.Fatalf("commit of a closed order: %v", err)
	}
	if _, err := s.endOrder("SO-1", true); stockroom.ErrorMessage(err) != "Shipping order SO-1 is Closed; only an open order can be canceled." {
		t.Fatalf("cancel of a closed order: %v", err)
	}
	s.audit()
}

// firstErr keeps the error of a call's answer.
func firstErr[T any](_ T, err error) error { return err }

func (h *harness) testUncommitPackShip(t *testing.T) {
	s := h.openStock(t)
	l1 := s.receive(s.a.PartNo, 1, "X", u(5))
	l2 := s.receive(s.a.PartNo, 1, "Y", u(10))
	s.insertShippingOrderForTest("SO-1", soLine(s.a.PartNo, 1, u(8)))
	must(t, firstErr(s.commit("SO-1", stockroom.CommitRequest{Lines: []stockroom.AllocLine{allocLine(1, up(7))}})))
	res, err := s.pack("SO-1", allocLine(1, up(4)))
	must(t, err)
	if r := res.Lines[0]; r.Units != u(4) || r.UnitsCommitted != u(3) || r.UnitsPacked != u(4) || len(r.Lots) != 1 || r.Lots[0].RecNo != l1.RecNo {
		t.Fatalf("pack answered %+v", r)
	}
	res, err = s.uncommit("SO-1", allocLine(1, up(1)))
	must(t, err)
	if r := res.Lines[0]; r.Units != u(1) || r.UnitsCommitted != u(2) || len(r.Lots) != 1 || r.Lots[0].RecNo != l2.RecNo {
		t.Fatalf("uncommit answered %+v (newest lot first)", r)
	}
	if la := s.soLines("SO-1")[0]; allocs(la) != fmtAllocs(l1.RecNo, "1/4", l2.RecNo, "1/0") {
		t.Fatalf("allocations %s", allocs(la))
	}
	if lv := s.level(s.a.PartNo, 1); lv.Committed != u(2) || lv.Packed != u(4) || lv.Available != u(9) {
		t.Fatalf("level %+v", lv)
	}
	res, err = s.shipOrder("SO-1", stockroom.ShipRequest{Lines: []stockroom.AllocLine{allocLine(1, up(5))}, Reference: "DN-1", Remark: "first"})
	must(t, err)
	r := res.Lines[0]
	if res.Status != stockroom.OrderPartial || r.Units != u(5) || r.UnitsShipped != u(5) || r.UnitsCommitted != u(1) || !r.UnitsPacked.IsZero() ||
		len(r.Lots) != 1 || r.Lots[0].Units != u(5) || r.Lots[0].Remaining == nil || !r.Lots[0].Remaining.IsZero() {
		t.Fatalf("ship answered %+v %+v", res, r)
	}
	if lot := s.lot(l1.RecNo); !lot.Units.IsZero() || lot.Active || lot.Shipped == nil {
		t.Fatalf("the lot shipped empty is %+v", lot)
	}
	if lv := s.level(s.a.PartNo, 1); lv.InStock != u(10) || lv.Committed != u(1) || !lv.Packed.IsZero() || lv.Available != u(9) {
		t.Fatalf("level after ship %+v", lv)
	}
	txs := s.ledgerOf(stockroom.TxShip)
	if len(txs) != 1 || txs[0].Units != u(5) || txs[0].Reference != "DN-1" || txs[0].Remark != "first" || txs[0].Details["soNo"] != "SO-1" ||
		len(txs[0].Lines) != 1 || txs[0].Lines[0].RecNo != l1.RecNo || txs[0].Lines[0].Units != u(-5) || txs[0].Lines[0].Spot != "X" ||
		len(txs[0].Figures) != 1 || txs[0].Figures[0].Committed != u(-1) || txs[0].Figures[0].Packed != u(-4) {
		t.Fatalf("ship ledger %+v", txs)
	}
	s.audit()
	// The rest: commit what is uncommitted, ship every unit; the order closes.
	must(t, firstErr(s.commit("SO-1", stockroom.CommitRequest{})))
	res, err = s.shipOrder("SO-1", stockroom.ShipRequest{})
	must(t, err)
	if res.Status != stockroom.OrderClosed || res.Lines[0].Units != u(3) || res.Lines[0].UnitsShipped != u(8) {
		t.Fatalf("second ship answered %+v", res)
	}
	if txs := s.ledgerOf(stockroom.TxShip); len(txs) != 2 || txs[1].Reference != "SO-1" {
		t.Fatalf("second ship's ledger %+v", txs)
	}
	if lv := s.level(s.a.PartNo, 1); lv.InStock != u(7) || !lv.Committed.IsZero() || lv.Available != u(7) {
		t.Fatalf("level after shipping everything %+v", lv)
	}
	s.audit()
}

func (h *harness) testEndReleases(t *testing.T) {
	s := h.openStock(t)
	s.receive(s.a.PartNo, 1, "X", u(10))
	s.receive(s.b.PartNo, 1, "X", u(10))
	s.insertShippingOrderForTest("SO-1", soLine(s.a.PartNo, 1, u(4)), soLine(s.b.PartNo, 1, u(4)), soLine(s.b.PartNo, 1, u(1)))
	s.insertShippingOrderForTest("SO-2", soLine(s.a.PartNo, 1, u(2)))
	must(t, firstErr(s.commit("SO-1", stockroom.CommitRequest{Lines: []stockroom.AllocLine{allocLine(1, nil), allocLine(2, nil)}})))
	must(t, firstErr(s.pack("SO-1", allocLine(1, up(3)))))
	must(t, firstErr(s.commit("SO-2", stockroom.CommitRequest{})))
	res, err := s.endOrder("SO-1", true)
	must(t, err)
	if res.Status != stockroom.OrderCanceled || len(res.Lines) != 2 || res.Lines[0].Units != u(4) || !res.Lines[0].UnitsPacked.IsZero() ||
		res.Lines[1].Line != 2 || res.Lines[1].Units != u(4) {
		t.Fatalf("cancel answered %+v", res)
	}
	if lv := s.level(s.a.PartNo, 1); lv.Committed != u(2) || !lv.Packed.IsZero() || lv.Available != u(8) {
		t.Fatalf("level of A after the cancel %+v", lv)
	}
	if txs := s.ledgerOf(stockroom.TxOrderRelease); len(txs) != 2 || txs[0].Figures[0].Committed != u(-1) || txs[0].Figures[0].Packed != u(-3) {
		t.Fatalf("release ledger %+v", txs)
	}
	// An order that shipped can be closed, not canceled; closing releases.
	must(t, firstErr(s.shipOrder("SO-2", stockroom.ShipRequest{Lines: []stockroom.AllocLine{allocLine(1, up(1))}})))
	if _, err := s.endOrder("SO-2", true); stockroom.ErrorMessage(err) != "Shipping order SO-2 has shipped units; it can be closed, not canceled." {
		t.Fatalf("cancel after a ship: %v", err)
	}
	res, err = s.endOrder("SO-2", false)
	must(t, err)
	if res.Status != stockroom.OrderClosed || len(res.Lines) != 1 || res.Lines[0].Units != u(1) || res.Lines[0].UnitsShipped != u(1) {
		t.Fatalf("close answered %+v", res)
	}
	if lv := s.level(s.a.PartNo, 1); !lv.Committed.IsZero() || lv.Available != u(9) {
		t.Fatalf("level of A after the close %+v", lv)
	}
	s.audit()
}

func (h *harness) testAllocAudit(t *testing.T) {
	s := h.openStock(t)
	s.receive(s.a.PartNo, 1, "X", u(10))
	s.insertShippingOrderForTest("SO-1", soLine(s.a.PartNo, 1, u(6)))
	must(t, firstErr(s.commit("SO-1", stockroom.CommitRequest{Lines: []stockroom.AllocLine{allocLine(1, up(4))}})))
	must(t, firstErr(s.shipOrder("SO-1", stockroom.ShipRequest{Lines: []stockroom.AllocLine{allocLine(1, up(1))}})))
	s.audit()
	// Each damage stays within the database's constraints; the audit
	// finds what they cannot see.
	for _, tc := range []struct{ damage, want string }{
		{"UPDATE lots SET allocated = allocated + 1000000", "units allocated, its allocations sum to 3"},
		{"UPDATE order_lines SET committed = committed + 1000000", "committed 4, its allocations 3"},
		{"UPDATE order_lines SET shipped = shipped + 1000000", "shipped 2, its ship entries add up to 1"},
		{"UPDATE allocations SET committed = committed + 1000000", "committed 3, allocations 4, ledger 3"},
	} {
		s.auditFinds(tc.damage, tc.want)
	}
}

// testAllocRoundTrips holds order actions on PostgreSQL to their round
// trips: the order, its lines and allocations locked in one; a commit's
// lots in one per item, warehouse and owner; the writes in one; the ledger's
// figures with the commit.
func (h *harness) testAllocRoundTrips(t *testing.T) {
	s := h.openStock(t)
	if s.Engine() != store.Postgres {
		t.Skip("SQLite runs in the process: it has no round trips")
	}
	s.receive(s.a.PartNo, 1, "X", u(100))
	s.insertShippingOrderForTest("SO-1", soLine(s.a.PartNo, 1, u(100)))
	var last atomic.Int64
	s.ObserveRoundTripsForTest(func(n int) { last.Store(int64(n)) })
	for _, op := range []struct {
		name string
		want int64
		run  func() error
	}{
		// Each one more than before the change feed: the order is read
		// back after the action for its event (outboundEvents, issue 40).
		{"commit", 5, func() error {
			return firstErr(s.commit("SO-1", stockroom.CommitRequest{Lines: []stockroom.AllocLine{allocLine(1, up(2))}}))
		}},
		{"pack", 4, func() error { return firstErr(s.pack("SO-1", allocLine(1, up(1)))) }},
		{"uncommit", 4, func() error { return firstErr(s.uncommit("SO-1", allocLine(1, up(1)))) }},
		{"ship", 4, func() error {
			return firstErr(s.shipOrder("SO-1", stockroom.ShipRequest{Lines: []stockroom.AllocLine{allocLine(1, up(1))}}))
		}},
	} {
		for range 2 { // the second run finds its statements prepared
			last.Store(0)
			must(t, op.run())
		}
		if got := last.Load(); got != op.want {
			t.Errorf("%s took %d round trips, want %d", op.name, got, op.want)
		}
	}
}

// testWorkOrderComponents: the same actions serve a work order's
// components, recorded under its number (woNo); shipping part of them
// puts the order In Progress.
func (h *harness) testWorkOrderComponents(t *testing.T) {
	s := h.openStock(t)
	lot := s.receive(s.a.PartNo, 1, "X", u(10))
	s.placeWorkOrder("WO-1", u(1), comp(s.a.PartNo, u(4)))
	s.insertShippingOrderForTest("WO-1", soLine(s.a.PartNo, 1, u(3))) // a shipping order of the same number: another order
	kind := stockroom.OrderKindWork
	res, err := s.CommitOrder(ctx, nil, s.act(kind, "wo-1", everyone), stockroom.CommitRequest{})
	must(t, err)
	if res.OrderNo != "WO-1" || len(res.Lines) != 1 || res.Lines[0].Units != u(4) || res.Lines[0].Lots[0].RecNo != lot.RecNo {
		t.Fatalf("commit of components answered %+v", res)
	}
	res, err = s.ShipOrder(ctx, nil, s.act(kind, "WO-1", everyone), stockroom.ShipRequest{Lines: []stockroom.AllocLine{allocLine(1, up(1))}})
	must(t, err)
	if res.Status != stockroom.OrderInProgress || res.Lines[0].UnitsShipped != u(1) {
		t.Fatalf("ship of components answered %+v", res)
	}
	if txs := s.ledgerOf(stockroom.TxShip); len(txs) != 1 || txs[0].Details["woNo"] != "WO-1" || txs[0].Details["soNo"] != nil {
		t.Fatalf("ledger %+v", txs)
	}
	if la := s.soLines("WO-1"); figures(la[0]) != "0/0/0" {
		t.Fatalf("the shipping order of the same number changed: %+v", la)
	}
	if lv := s.level(s.a.PartNo, 1); lv.Committed != u(3) || lv.InStock != u(9) || lv.Available != u(6) {
		t.Fatalf("level %+v", lv)
	}
	s.audit()
}

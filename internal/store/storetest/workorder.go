package storetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

// Work orders (contract §11): placed, listed, their components committed,
// completed in parts, refused when short, canceled.
func (h *harness) testWorkOrders(t *testing.T) {
	t.Run("CreateAndList", h.testWorkOrderCreate)
	t.Run("Complete", h.testWorkOrderComplete)
	t.Run("CompletionIsOneAssembleEntry", h.testWorkOrderLedger)
	t.Run("ShortRefusesAndChangesNothing", h.testWorkOrderShort)
	t.Run("CancelReleases", h.testWorkOrderCancel)
	t.Run("ConcurrentCompletes", h.testWorkOrderConcurrency)
	t.Run("AuditFindsDamage", h.testWorkOrderAudit)
}

// priced receives a lot of units of part at warehouse 1 at price.
func (s *stockDB) priced(part int64, units stockroom.Units, price string) stockroom.Lot {
	s.t.Helper()
	res, err := s.Receive(ctx, nil, stockroom.Receipt{PartNo: part, ReceiveRequest: stockroom.ReceiveRequest{WID: 1, Spot: "IN", Units: units,
		Price: stockroom.MustParseUnits(price)}}, s.entry())
	must(s.t, err)
	return res.Lot
}

func (s *stockDB) complete(no string, units stockroom.Units) (stockroom.CompleteResult, error) {
	return s.CompleteWorkOrder(ctx, nil, s.act(stockroom.OrderKindWork, no, everyone), units)
}

func (s *stockDB) workOrder(no string) stockroom.WorkOrder {
	s.t.Helper()
	o, err := s.FindWorkOrder(ctx, no)
	must(s.t, err)
	return o
}

func (h *harness) testWorkOrderCreate(t *testing.T) {
	s := h.openStock(t)
	half := stockroom.MustParseUnits("0.5")
	o := s.placeWorkOrder("", u(6), comp(s.a.PartNo, half))
	if o.WONo != "WO-000001" || o.Status != stockroom.OrderOpen || o.ItemID != "B" || o.Units != u(6) || o.WID != 1 || o.Spot != "OUT" ||
		o.TotalLines != 1 || o.Lines[0].Units != u(3) || o.Lines[0].PerUnit != half || o.Lines[0].ShortID != "A" || o.Lines[0].Warehouse != 1 {
		t.Fatalf("placed %+v", o)
	}
	due := t0.Add(48 * time.Hour)
	w := stockroom.WorkOrder{WONo: "wo-7", PartNo: s.a.PartNo, Units: u(1), WID: 2, DueDate: &due, StartDate: &t0, Assignee: "Kim",
		Description: "rework", OrderHead: stockroom.OrderHead{OrderDate: t0}, Lines: []stockroom.WorkLine{comp(s.b.PartNo, u(2))}}
	w.Lines[0].Units, w.Lines[0].Warehouse = u(2), 2
	_, err := s.CreateWorkOrder(ctx, nil, w, s.entry())
	must(t, err)
	got := s.workOrder("WO-7")
	if got.WONo != "wo-7" || got.Assignee != "Kim" || got.Description != "rework" || !got.StartDate.Equal(t0) || !got.DueDate.Equal(due) ||
		got.ItemID != "A" || got.WID != 2 {
		t.Fatalf("read %+v", got)
	}
	if _, err := s.CreateWorkOrder(ctx, nil, w, s.entry()); !errors.Is(err, stockroom.ErrDuplicate) {
		t.Fatalf("a number taken: %v", err)
	}
	list := func(f stockroom.OrderFilter) []string {
		p, err := s.ListWorkOrders(ctx, stockroom.Scope{All: true}, f, stockroom.PageRequest{Page: 1, PageSize: 50, Sort: "woNo"})
		must(t, err)
		var out []string
		for _, o := range p.Items {
			if o.ItemID == "" || o.TotalLines != 1 {
				t.Fatalf("list entry %+v", o)
			}
			out = append(out, o.WONo)
		}
		return out
	}
	end := t0.Add(24 * time.Hour)
	for name, c := range map[string]struct {
		f    stockroom.OrderFilter
		want int
	}{
		"all":                {stockroom.OrderFilter{}, 2},
		"product A":          {stockroom.OrderFilter{ItemShortID: "a"}, 2}, // WO-7's product, WO-000001's component
		"component B":        {stockroom.OrderFilter{ItemShortID: "B"}, 2},
		"warehouse 2":        {stockroom.OrderFilter{WID: 2}, 1},
		"due by tomorrow":    {stockroom.OrderFilter{EndDate: &end}, 0},
		"status In Progress": {stockroom.OrderFilter{Status: stockroom.OrderInProgress}, 0},
	} {
		if got := list(c.f); len(got) != c.want {
			t.Errorf("%s: %v", name, got)
		}
	}
	if got := list(stockroom.OrderFilter{WID: 2}); got[0] != "wo-7" {
		t.Errorf("warehouse 2: %v", got)
	}
	s.audit()
}

// testWorkOrderComplete: a completion takes the allocated lots first, then
// free ones oldest first; the product's lot costs what was consumed.
func (h *harness) testWorkOrderComplete(t *testing.T) {
	s := h.openStock(t)
	l1 := s.priced(s.a.PartNo, u(4), "1")
	l2 := s.priced(s.a.PartNo, u(6), "2")
	s.priced(s.a.PartNo, u(10), "3")
	s.placeWorkOrder("WO-1", u(5), comp(s.a.PartNo, u(2)))
	res, err := s.CommitOrder(ctx, nil, s.act(stockroom.OrderKindWork, "WO-1", everyone), stockroom.CommitRequest{Lines: []stockroom.AllocLine{{Line: 1, Units: up(3), RecNo: l2.RecNo}}})
	must(t, err)
	if res.Status != stockroom.OrderInProgress {
		t.Fatalf("after a commit: %+v", res)
	}
	done, err := s.complete("WO-1", u(2))
	must(t, err)
	c := done.Components
	if len(c) != 1 || c[0].Units != u(4) || len(c[0].Lots) != 2 || c[0].Lots[0].RecNo != l2.RecNo || c[0].Lots[0].Units != u(3) ||
		c[0].Lots[1].RecNo != l1.RecNo || c[0].Lots[1].Units != u(1) || c[0].UnitsCommitted.Sign() != 0 || c[0].UnitsShipped != u(4) {
		t.Fatalf("components consumed %+v", c)
	}
	if done.Lot.PartNo != s.b.PartNo || done.Lot.Units != u(2) || done.Lot.Price != stockroom.MustParseUnits("3.5") || done.Lot.Spot != "OUT" ||
		done.WorkOrder.UnitsCompleted != u(2) || done.WorkOrder.Status != stockroom.OrderInProgress || done.WorkOrder.Lines[0].UnitsCompleted != u(4) {
		t.Fatalf("completion %+v", done)
	}
	done, err = s.complete("WO-1", u(3)) // 3 left in l1, 3 free in l2
	must(t, err)
	if done.Lot.Price != u(3) || done.WorkOrder.Status != stockroom.OrderClosed || done.WorkOrder.UnitsCompleted != u(5) {
		t.Fatalf("the rest %+v", done)
	}
	if _, err := s.complete("WO-1", u(1)); stockroom.ErrorCode(err) != stockroom.ECONFLICT {
		t.Fatalf("a closed order: %v", err)
	}
	if lv := s.level(s.a.PartNo, 1); lv.InStock != u(10) || lv.Committed.Sign() != 0 {
		t.Fatalf("component level %+v", lv)
	}
	if lv := s.level(s.b.PartNo, 1); lv.InStock != u(5) {
		t.Fatalf("product level %+v", lv)
	}
	if l := s.lot(l1.RecNo); l.Units.Sign() != 0 || l.Active {
		t.Fatalf("lot 1 %+v", l)
	}
	txs := s.ledgerOf(stockroom.TxAssemble)
	if len(txs) != 2 || txs[0].Units != u(2) || txs[0].Details["woNo"] != "WO-1" || len(txs[0].Lines) != 3 || txs[1].Units != u(3) {
		t.Fatalf("ledger %+v, want an assemble entry per completion", txs)
	}
	s.audit()
}

// testWorkOrderShort: a component that cannot be covered refuses the
// completion, naming it, and nothing changes; so does more than is left.
func (h *harness) testWorkOrderShort(t *testing.T) {
	s := h.openStock(t)
	s.priced(s.a.PartNo, u(3), "1")
	s.placeWorkOrder("WO-1", u(2), comp(s.a.PartNo, u(2)))
	must(t, firstErr(s.CommitOrder(ctx, nil, s.act(stockroom.OrderKindWork, "WO-1", everyone), stockroom.CommitRequest{AllowPartial: true})))
	before, size := s.level(s.a.PartNo, 1), s.ledgerSize()
	_, err := s.complete("WO-1", u(2))
	if stockroom.ErrorMessage(err) != "Insufficient stock of component A (line 1): 4 units wanted, 3 available." {
		t.Fatalf("short: %v", err)
	}
	if _, err := s.complete("WO-1", u(3)); stockroom.ErrorMessage(err) != "Work order WO-1 has 2 units left to complete; 3 asked." {
		t.Fatalf("more than left: %v", err)
	}
	if _, err := s.complete("WO-9", u(1)); !errors.Is(err, stockroom.ErrNotFound) {
		t.Fatalf("no such order: %v", err)
	}
	if after := s.level(s.a.PartNo, 1); after != before || s.ledgerSize() != size || s.workOrder("WO-1").Lines[0].UnitsCommitted != u(3) {
		t.Fatalf("a refusal changed %+v to %+v", before, after)
	}
	s.audit()
}

// testWorkOrderCancel: a cancel releases what is committed; after a
// completion only a close ends the order.
func (h *harness) testWorkOrderCancel(t *testing.T) {
	s := h.openStock(t)
	lot := s.priced(s.a.PartNo, u(10), "1")
	s.placeWorkOrder("WO-1", u(2), comp(s.a.PartNo, u(2)))
	s.placeWorkOrder("WO-2", u(2), comp(s.a.PartNo, u(2)))
	for _, no := range []string{"WO-1", "WO-2"} {
		must(t, firstErr(s.CommitOrder(ctx, nil, s.act(stockroom.OrderKindWork, no, everyone), stockroom.CommitRequest{})))
	}
	res, err := s.EndOutboundOrder(ctx, nil, s.act(stockroom.OrderKindWork, "WO-1", everyone), true)
	must(t, err)
	if res.Status != stockroom.OrderCanceled || s.lot(lot.RecNo).Units != u(10) || s.level(s.a.PartNo, 1).Committed != u(4) {
		t.Fatalf("cancel %+v", res)
	}
	must(t, firstErr(s.complete("WO-2", u(1))))
	if _, err := s.EndOutboundOrder(ctx, nil, s.act(stockroom.OrderKindWork, "WO-2", everyone), true); stockroom.ErrorMessage(err) != "Work order WO-2 has completed units; it can be closed, not canceled." {
		t.Fatalf("cancel after a completion: %v", err)
	}
	res, err = s.EndOutboundOrder(ctx, nil, s.act(stockroom.OrderKindWork, "WO-2", everyone), false)
	must(t, err)
	if res.Status != stockroom.OrderClosed || s.level(s.a.PartNo, 1).Committed.Sign() != 0 || s.lot(lot.RecNo).Units != u(8) {
		t.Fatalf("close %+v", res)
	}
	s.audit()
}

// testWorkOrderConcurrency: completions racing for the same stock never
// consume more than there is.
func (h *harness) testWorkOrderConcurrency(t *testing.T) {
	s := h.openStock(t)
	s.priced(s.a.PartNo, u(4), "1")
	s.priced(s.a.PartNo, u(6), "1")
	nos := []string{"WO-1", "WO-2", "WO-3", "WO-4"}
	for _, no := range nos {
		s.placeWorkOrder(no, u(5), comp(s.a.PartNo, u(1)))
	}
	must(t, firstErr(s.CommitOrder(ctx, nil, s.act(stockroom.OrderKindWork, "WO-4", everyone), stockroom.CommitRequest{Lines: []stockroom.AllocLine{allocLine(1, up(2))}})))
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int
	)
	for _, no := range nos {
		wg.Go(func() {
			_, err := s.complete(no, u(5))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				done++
			case stockroom.ErrorCode(err) != stockroom.ECONFLICT:
				t.Errorf("%s: %v", no, err)
			}
		})
	}
	wg.Wait()
	if lv := s.level(s.a.PartNo, 1); done != 2 || lv.InStock.Sign() != 0 || s.level(s.b.PartNo, 1).InStock != u(10) {
		t.Fatalf("%d completed, level %+v", done, lv)
	}
	s.audit()
}

// testWorkOrderAudit: the audit holds components' consumption and the
// orders' completed units to their assemble entries, and the items an
// entry lists (transaction_items, which the ledger's item filter reads) to
// the items of its lines and figures.
func (h *harness) testWorkOrderAudit(t *testing.T) {
	s := h.openStock(t)
	s.priced(s.a.PartNo, u(10), "1")
	c := newItem("C", t0)
	must(t, s.CreateItem(ctx, nil, &c))
	other := s.priced(c.PartNo, u(1), "1")
	s.placeWorkOrder("WO-1", u(4), comp(s.a.PartNo, u(2)))
	done, err := s.complete("WO-1", u(1))
	must(t, err)
	s.audit()
	receipt := s.ledgerOf(stockroom.TxReceive)[0].ID
	s.auditFinds(fmt.Sprintf("INSERT INTO transaction_items (part_no, transaction_id) VALUES (%d, %d)", s.b.PartNo, receipt),
		fmt.Sprintf("transaction %d lists item %d among its items but changes none of it", receipt, s.b.PartNo))
	s.auditFinds(fmt.Sprintf(`INSERT INTO transaction_lines (transaction_id, line, rec_no, part_no, wid, spot, units)
		VALUES (%d, 9, %d, %d, 1, 'IN', 0)`, done.TransactionID, other.RecNo, c.PartNo),
		fmt.Sprintf("transaction %d changes item %d, which it does not list among its items", done.TransactionID, c.PartNo))
	for _, tc := range []struct{ damage, want string }{
		{"UPDATE work_orders SET completed = completed + 1000000", "Work order WO-1: completed 2, its products' assemble entries add up to 1"},
		{"UPDATE order_lines SET shipped = shipped + 1000000", "shipped 3, its ship entries add up to 2"},
	} {
		must(t, s.ExecForTest(ctx, tc.damage))
		found, err := s.Audit(ctx)
		must(t, err)
		if !slices.ContainsFunc(found, func(d stockroom.Discrepancy) bool { return d.What == tc.want || strings.HasSuffix(d.What, tc.want) }) {
			t.Errorf("after %q the audit found %+v, want %q", tc.damage, found, tc.want)
		}
	}
}

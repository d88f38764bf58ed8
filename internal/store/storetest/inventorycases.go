package storetest

// The cases of testInventory (inventory.go), one method each.

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

func (h *harness) testInventoryReceiveCreatesALotAndLevels(t *testing.T) {
	s := h.openStock(t)
	exp := t0.Add(90 * 24 * time.Hour)
	res, err := s.Receive(ctx, nil, stockroom.Receipt{PartNo: s.a.PartNo, ReceiveRequest: stockroom.ReceiveRequest{WID: 1, Spot: "A-01", Units: stockroom.MustParseUnits("12.5"),
		Serial: "S1", Reference: "PO-7", Price: stockroom.MustParseUnits("3.25"), Expires: &exp, Supplier: 4, Line: 2}}, s.entry())
	must(t, err)
	lot, txID := res.Lot, res.TransactionID
	if txID < 1 || lot.RecNo < 1 || lot.Units != stockroom.MustParseUnits("12.5") || lot.ShortID != "A" || lot.Warehouse != "W1" || lot.Spot != "A-01" ||
		!lot.Active || lot.Shipped != nil || lot.Hold || lot.Serial != "S1" || lot.Reference != "PO-7" || lot.Price != stockroom.MustParseUnits("3.25") ||
		lot.Expires == nil || !lot.Expires.Equal(exp) || lot.Supplier != 4 || lot.Line != 2 || !lot.Received.Equal(t0.Add(time.Second)) {
		t.Fatalf("lot %+v", lot)
	}
	if l := s.level(s.a.PartNo, 1); l.InStock != stockroom.MustParseUnits("12.5") || l.Available != stockroom.MustParseUnits("12.5") || !l.OnHold.IsZero() {
		t.Fatalf("level %+v", l)
	}
	s.audit()
}

func (h *harness) testInventoryIssueDrawsFIFOAndEmptiesLots(t *testing.T) {
	s := h.openStock(t)
	first := s.receive(s.a.PartNo, 1, "X", u(5))
	second := s.receive(s.a.PartNo, 1, "Y", u(10))
	s.receive(s.a.PartNo, 2, "X", u(100)) // another warehouse: never drawn
	draws, err := s.withdraw(stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: s.a.PartNo, WID: 1, Units: u(7)})
	must(t, err)
	want := []stockroom.Draw{{RecNo: first.RecNo, Units: u(5)}, {RecNo: second.RecNo, Units: u(2), Remaining: u(8)}}
	if !slices.EqualFunc(draws, want, func(a, b stockroom.Draw) bool {
		return a.RecNo == b.RecNo && a.Units == b.Units && a.Remaining == b.Remaining && newRec(a) == newRec(b)
	}) {
		t.Fatalf("draws %+v, want %+v", draws, want)
	}
	emptied := s.lot(first.RecNo)
	if !emptied.Units.IsZero() || emptied.Active || emptied.Shipped == nil {
		t.Fatalf("emptied lot %+v", emptied)
	}
	if l := s.level(s.a.PartNo, 1); l.InStock != u(8) {
		t.Fatalf("level after issue %+v", l)
	}
	s.audit()
}

func (h *harness) testInventoryDrawsAcrossManyLots(t *testing.T) {
	s := h.openStock(t)
	var recs []int64
	for range 9 {
		recs = append(recs, s.receive(s.a.PartNo, 1, "X", u(1)).RecNo)
	}
	draws, err := s.withdraw(stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: s.a.PartNo, WID: 1, Units: u(7)})
	must(t, err)
	if len(draws) != 7 || draws[0].RecNo != recs[0] || draws[6].RecNo != recs[6] {
		t.Fatalf("draws %+v", draws)
	}
	_, err = s.withdraw(stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: s.a.PartNo, WID: 1, Units: u(3)})
	wantCode(t, err, stockroom.ECONFLICT)
	if stockroom.ErrorMessage(err) != "Insufficient stock: 3 units requested, 2 available." {
		t.Fatalf("message %q", stockroom.ErrorMessage(err))
	}
	s.audit()
}

func (h *harness) testInventoryBulkReceiptsOverManyItems(t *testing.T) {
	// More level rows than one write batch holds: the bulk path must
	// split them and still keep every level exact.
	s := h.openStock(t)
	skipSizeUnderRace(t, s)
	const items = 900 // 1,800 level rows and 900 totals
	var batch []stockroom.Item
	for i := range items {
		batch = append(batch, newItem(fmt.Sprintf("BULK-%03d", i), t0))
	}
	_, err := s.CreateItems(ctx, batch, nil)
	must(t, err)
	var rs []stockroom.Receipt
	for i := range items {
		it, err := s.FindItemByShortID(ctx, batch[i].ShortID)
		must(t, err)
		for wid := int64(1); wid <= 2; wid++ {
			rs = append(rs, stockroom.Receipt{PartNo: it.PartNo, ReceiveRequest: stockroom.ReceiveRequest{WID: wid, Spot: "B", Units: u(int64(i + 1))}})
		}
	}
	n, err := s.ReceiveMany(ctx, rs, s.entry())
	must(t, err)
	if n != len(rs) {
		t.Fatalf("stored %d of %d", n, len(rs))
	}
	if l := s.level(rs[1].PartNo, 2); l.InStock != u(1) {
		t.Fatalf("level of the first item %+v", l)
	}
	s.audit()
}

func (h *harness) testInventoryDrawsFromMoreLotsThanOneBatchHolds(t *testing.T) {
	// An issue and a move each touching 1,700 lots: more statements than
	// one PostgreSQL statement can carry.
	s := h.openStock(t)
	skipSizeUnderRace(t, s)
	const lots = 1700
	rs := make([]stockroom.Receipt, lots*2)
	for i := range rs {
		rs[i] = stockroom.Receipt{PartNo: s.a.PartNo, ReceiveRequest: stockroom.ReceiveRequest{WID: 1, Spot: "S", Units: u(1)}}
	}
	_, err := s.ReceiveMany(ctx, rs, s.entry())
	must(t, err)
	draws, err := s.withdraw(stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: s.a.PartNo, WID: 1, Units: u(lots)})
	must(t, err)
	if len(draws) != lots {
		t.Fatalf("issue drew from %d lots, want %d", len(draws), lots)
	}
	draws, err = s.withdraw(stockroom.Withdrawal{Type: stockroom.TxMove, PartNo: s.a.PartNo, WID: 1, ToWID: 2, ToSpot: "T", Units: u(lots)})
	must(t, err)
	if len(draws) != lots {
		t.Fatalf("move drew from %d lots, want %d", len(draws), lots)
	}
	if l := s.level(s.a.PartNo, 2); l.InStock != u(lots) {
		t.Fatalf("destination level %+v", l)
	}
	s.audit()
}

func (h *harness) testInventoryShortStockChangesNothing(t *testing.T) {
	s := h.openStock(t)
	s.receive(s.a.PartNo, 1, "X", u(5))
	s.receive(s.a.PartNo, 1, "Y", u(2))
	before, err := s.ListLots(ctx, stockroom.Scope{All: true}, stockroom.LotFilter{IncludeShipped: true}, stockroom.PageRequest{Page: 1, PageSize: 250})
	must(t, err)
	for _, w := range []stockroom.Withdrawal{
		{Type: stockroom.TxIssue, PartNo: s.a.PartNo, WID: 1, Units: u(7).Add(stockroom.FromMicros(1))},
		{Type: stockroom.TxMove, PartNo: s.a.PartNo, WID: 1, Units: u(8), ToWID: 2},
		{Type: stockroom.TxIssue, PartNo: s.a.PartNo, WID: 1, Units: u(3), Spot: "Y"},
		{Type: stockroom.TxIssue, PartNo: s.b.PartNo, WID: 1, Units: stockroom.FromMicros(1)},
	} {
		_, err := s.withdraw(w)
		wantCode(t, err, stockroom.ECONFLICT)
	}
	after, err := s.ListLots(ctx, stockroom.Scope{All: true}, stockroom.LotFilter{IncludeShipped: true}, stockroom.PageRequest{Page: 1, PageSize: 250})
	must(t, err)
	if !slices.EqualFunc(before.Items, after.Items, func(a, b stockroom.Lot) bool {
		return a.RecNo == b.RecNo && a.Units == b.Units && a.Modified.Equal(b.Modified)
	}) {
		t.Fatalf("a refused withdrawal changed lots:\n%+v\n%+v", before.Items, after.Items)
	}
	txs, err := s.ListTransactions(ctx, stockroom.Scope{All: true}, stockroom.TransactionFilter{}, stockroom.PageRequest{Page: 1, PageSize: 250})
	must(t, err)
	if txs.Total != 2 {
		t.Fatalf("ledger has %d entries after two receipts and four refusals", txs.Total)
	}
	s.audit()
}

func (h *harness) testInventoryMoveWholeLotInPlaceAndSplit(t *testing.T) {
	s := h.openStock(t)
	l1 := s.receive(s.a.PartNo, 1, "X", u(4))
	l2 := s.receive(s.a.PartNo, 1, "X", u(6))
	// 4 + 2: the first lot moves whole (same recNo), the second splits.
	draws, err := s.withdraw(stockroom.Withdrawal{Type: stockroom.TxMove, PartNo: s.a.PartNo, WID: 1, Units: u(6), ToWID: 2, ToSpot: "R"})
	must(t, err)
	if len(draws) != 2 || draws[0].RecNo != l1.RecNo || newRec(draws[0]) != 0 || draws[1].RecNo != l2.RecNo || newRec(draws[1]) == 0 || draws[1].Remaining != u(4) {
		t.Fatalf("draws %+v", draws)
	}
	moved, split, rest := s.lot(l1.RecNo), s.lot(newRec(draws[1])), s.lot(l2.RecNo)
	if moved.WID != 2 || moved.Spot != "R" || moved.Units != u(4) ||
		split.WID != 2 || split.Spot != "R" || split.Units != u(2) || !split.Received.Equal(l2.Received) || split.PartNo != s.a.PartNo ||
		rest.WID != 1 || rest.Units != u(4) {
		t.Fatalf("after move: moved %+v split %+v rest %+v", moved, split, rest)
	}
	if a, b := s.level(s.a.PartNo, 1), s.level(s.a.PartNo, 2); a.InStock != u(4) || b.InStock != u(6) {
		t.Fatalf("levels %+v %+v", a, b)
	}
	// Within a warehouse: levels stay, lots at the destination are not candidates.
	_, err = s.withdraw(stockroom.Withdrawal{Type: stockroom.TxMove, PartNo: s.a.PartNo, WID: 2, Units: u(1), ToWID: 2, ToSpot: "R"})
	wantCode(t, err, stockroom.ECONFLICT)
	draws, err = s.withdraw(stockroom.Withdrawal{Type: stockroom.TxMove, PartNo: s.a.PartNo, WID: 2, Units: u(1), ToWID: 2, ToSpot: "S"})
	must(t, err)
	if moved := s.lot(draws[0].RecNo); newRec(draws[0]) == 0 || s.lot(newRec(draws[0])).Spot != "S" || moved.Spot != "R" {
		t.Fatalf("move within warehouse 2: %+v", draws)
	}
	if b := s.level(s.a.PartNo, 2); b.InStock != u(6) {
		t.Fatalf("level after a move within warehouse 2: %+v", b)
	}
	s.audit()
}

func (h *harness) testInventoryHoldsExcludeLotsAndFollowLevels(t *testing.T) {
	s := h.openStock(t)
	l1 := s.receive(s.a.PartNo, 1, "X", u(5))
	s.receive(s.a.PartNo, 1, "X", u(3))
	res, err := s.SetHold(ctx, nil, stockroom.HoldChange{RecNo: l1.RecNo, Hold: true}, s.entry(), func(stockroom.Lot) error { return nil })
	must(t, err)
	if !res.Lot.Hold || res.TransactionID == nil {
		t.Fatalf("hold: %+v", res)
	}
	if again, err := s.SetHold(ctx, nil, stockroom.HoldChange{RecNo: l1.RecNo, Hold: true}, s.entry(), func(stockroom.Lot) error { return nil }); err != nil || again.TransactionID != nil {
		t.Fatalf("second hold: %+v %v", again, err)
	}
	if l := s.level(s.a.PartNo, 1); l.OnHold != u(5) || l.Available != u(3) || l.InStock != u(8) {
		t.Fatalf("level with a held lot %+v", l)
	}
	_, err = s.withdraw(stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: s.a.PartNo, WID: 1, Units: u(4)})
	wantCode(t, err, stockroom.ECONFLICT) // only 3 are not held
	// A held lot moves when named by recNo, and stays held.
	draws, err := s.withdraw(stockroom.Withdrawal{Type: stockroom.TxMove, PartNo: s.a.PartNo, WID: 1, Units: u(2), RecNo: l1.RecNo, ToWID: 2})
	must(t, err)
	if split := s.lot(newRec(draws[0])); !split.Hold {
		t.Fatalf("split of a held lot is not held: %+v", split)
	}
	if a, b := s.level(s.a.PartNo, 1), s.level(s.a.PartNo, 2); a.OnHold != u(3) || b.OnHold != u(2) {
		t.Fatalf("onHold after moving held units: %+v %+v", a, b)
	}
	_, err = s.SetHold(ctx, nil, stockroom.HoldChange{RecNo: l1.RecNo, Hold: false}, s.entry(), func(stockroom.Lot) error { return nil })
	must(t, err)
	refused := stockroom.Errorf(stockroom.EFORBIDDEN, "no")
	_, err = s.SetHold(ctx, nil, stockroom.HoldChange{RecNo: l1.RecNo, Hold: true}, s.entry(), func(stockroom.Lot) error { return refused })
	wantCode(t, err, stockroom.EFORBIDDEN)
	_, err = s.SetHold(ctx, nil, stockroom.HoldChange{RecNo: 999999, Hold: true}, s.entry(), func(stockroom.Lot) error { return nil })
	wantCode(t, err, stockroom.ENOTFOUND)
	s.audit()
}

func (h *harness) testInventoryFilters(t *testing.T) {
	s := h.openStock(t)
	s.receive(s.a.PartNo, 1, "X", u(5))
	res, err := s.Receive(ctx, nil, stockroom.Receipt{PartNo: s.a.PartNo, ReceiveRequest: stockroom.ReceiveRequest{WID: 1, Spot: "Y", Units: u(5), Serial: "SN-2"}}, s.entry())
	must(t, err)
	l2 := res.Lot
	for _, tc := range []struct {
		w    stockroom.Withdrawal
		want int64
	}{
		{stockroom.Withdrawal{Spot: "Y"}, l2.RecNo},
		{stockroom.Withdrawal{Serial: "SN-2"}, l2.RecNo},
		{stockroom.Withdrawal{RecNo: l2.RecNo}, l2.RecNo},
		{stockroom.Withdrawal{Received: l2.Received}, 0}, // both received on that day: FIFO
	} {
		w := tc.w
		w.Type, w.PartNo, w.WID, w.Units = stockroom.TxIssue, s.a.PartNo, 1, stockroom.FromMicros(1)
		d, err := s.withdraw(w)
		must(t, err)
		if tc.want != 0 && d[0].RecNo != tc.want {
			t.Errorf("filter %+v drew from %d, want %d", tc.w, d[0].RecNo, tc.want)
		}
	}
	_, err = s.withdraw(stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: s.a.PartNo, WID: 1, Units: stockroom.FromMicros(1), Received: t0.Add(48 * time.Hour)})
	wantCode(t, err, stockroom.ECONFLICT)
	s.audit()
}

func (h *harness) testInventoryModifiedSince(t *testing.T) {
	s := h.openStock(t)
	l1 := s.receive(s.a.PartNo, 1, "X", u(5)) // at t0+1s
	s.receive(s.b.PartNo, 2, "X", u(5))       // at t0+2s
	since := t0.Add(3 * time.Second)
	_, err := s.withdraw(stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: s.a.PartNo, WID: 1, Units: u(1)}) // t0+3s
	must(t, err)
	req := stockroom.PageRequest{Page: 1, PageSize: 250, ModifiedSince: since}
	lots, err := s.ListLots(ctx, stockroom.Scope{All: true}, stockroom.LotFilter{}, req)
	must(t, err)
	if lots.Total != 1 || lots.Items[0].RecNo != l1.RecNo {
		t.Fatalf("lots modified since: %+v", lots)
	}
	levels, err := s.ListStockLevels(ctx, stockroom.Scope{All: true}, stockroom.StockFilter{}, req)
	must(t, err)
	if levels.Total != 1 || levels.Items[0].PartNo != s.a.PartNo {
		t.Fatalf("levels modified since: %+v", levels)
	}
	perWarehouse, err := s.ListStockLevels(ctx, stockroom.Scope{All: true}, stockroom.StockFilter{WID: 2}, req)
	must(t, err)
	if perWarehouse.Total != 0 {
		t.Fatalf("warehouse 2 levels modified since: %+v", perWarehouse)
	}
	txs, err := s.ListTransactions(ctx, stockroom.Scope{All: true}, stockroom.TransactionFilter{}, req)
	must(t, err)
	if txs.Total != 1 || txs.Items[0].Type != stockroom.TxIssue {
		t.Fatalf("transactions since: %+v", txs)
	}
}

func (h *harness) testInventoryLedgerIsAppendOnly(t *testing.T) {
	s := h.openStock(t)
	res, err := s.Receive(ctx, nil, stockroom.Receipt{PartNo: s.a.PartNo, ReceiveRequest: stockroom.ReceiveRequest{WID: 1, Units: u(1)}}, s.entry())
	must(t, err)
	txID := res.TransactionID
	for _, q := range []string{"UPDATE transactions SET units = 0", "DELETE FROM transaction_lines", "DELETE FROM transactions"} {
		if err := s.ExecForTest(ctx, q); err == nil {
			t.Errorf("%q succeeded on the ledger", q)
		}
	}
	tx, err := s.FindTransaction(ctx, stockroom.Scope{All: true}, nil, txID)
	must(t, err)
	if tx.Units != u(1) || len(tx.Lines) != 1 {
		t.Fatalf("ledger entry changed: %+v", tx)
	}
}

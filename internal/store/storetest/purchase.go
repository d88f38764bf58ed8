package storetest

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

// purchaseDB is a stockDB with a vendor to order from.
type purchaseDB struct {
	*stockDB
	vendor stockroom.Party
}

func (h *harness) openPurchase(t *testing.T) *purchaseDB {
	s := &purchaseDB{stockDB: h.openStock(t), vendor: newParty(stockroom.Vendor, "BOLTCO", t0)}
	must(t, s.CreateParty(ctx, nil, &s.vendor))
	return s
}

// line is a new order line of units of an item for a warehouse, at a price.
func line(part, wid int64, units, price stockroom.Units) stockroom.PurchaseLine {
	return stockroom.PurchaseLine{OrderLine: stockroom.OrderLine{PartNo: part, Warehouse: wid, Units: units}, UnitPrice: price}
}

// place places an order numbered no ("" for the next number).
func (s *purchaseDB) place(no string, lines ...stockroom.PurchaseLine) (stockroom.PurchaseOrder, error) {
	o := stockroom.PurchaseOrder{PONo: no, VendorID: s.vendor.ID, OrderHead: stockroom.OrderHead{OrderDate: t0, Reference: "ref"}, Lines: lines}
	return s.CreatePurchaseOrder(ctx, nil, o, s.entry())
}

func (s *purchaseDB) mustPlace(no string, lines ...stockroom.PurchaseLine) stockroom.PurchaseOrder {
	s.t.Helper()
	o, err := s.place(no, lines...)
	must(s.t, err)
	return o
}

// receiveOn receives units against line n of order o, at the line's price
// as o has it.
func (s *purchaseDB) receiveOn(o stockroom.PurchaseOrder, n int64, units stockroom.Units) (stockroom.ReceiveResult, error) {
	return s.receiveAt(o, n, units, o.Lines[n-1].UnitPrice)
}

// receiveAt receives units against line n of order o at price (0: the
// line's, as it is when received).
func (s *purchaseDB) receiveAt(o stockroom.PurchaseOrder, n int64, units, price stockroom.Units) (stockroom.ReceiveResult, error) {
	l := o.Lines[n-1]
	r := stockroom.Receipt{PartNo: l.PartNo, Owner: l.Owner,
		ReceiveRequest: stockroom.ReceiveRequest{WID: l.Warehouse, Units: units, Line: n, PONo: o.PONo, Price: price},
		Order:          &stockroom.ReceiptOrder{PONo: o.PONo, Line: n}}
	e := s.entry()
	e.Details = map[string]any{"poNo": o.PONo, "line": n} // as the service gives them
	return s.Receive(ctx, nil, r, e)
}

// change changes order no with fn.
func (s *purchaseDB) change(no string, fn func(*stockroom.PurchaseOrder) (bool, error)) (stockroom.PurchaseOrder, error) {
	return s.ChangePurchaseOrder(ctx, nil, no, s.entry(), fn)
}

// ledgerOf returns the ledger entries of a type, oldest first.
func (s *stockDB) ledgerOf(typ stockroom.TxType) []stockroom.Transaction {
	s.t.Helper()
	var out []stockroom.Transaction
	for page := int64(1); ; page++ {
		p, err := s.ListTransactions(ctx, stockroom.Scope{All: true}, stockroom.TransactionFilter{Type: typ}, stockroom.PageRequest{Page: page, PageSize: 250, Sort: "id", Direction: "ASC"})
		must(s.t, err)
		out = append(out, p.Items...)
		if !p.HasMore() {
			return out
		}
	}
}

// onOrderFigure is the sum of the on_order changes of a transaction.
func onOrderFigure(tx stockroom.Transaction) stockroom.Units {
	var sum stockroom.Units
	for _, f := range tx.Figures {
		sum = sum.Add(f.OnOrder)
	}
	return sum
}

func (h *harness) testPurchaseOrders(t *testing.T) {
	t.Run("PlaceNumbersLinesAndCountsOnOrder", h.testPurchasePlace)
	t.Run("NumbersAreUniqueAndSkipTaken", h.testPurchaseNumbers)
	t.Run("ChangeKeepsOnOrder", h.testPurchaseChange)
	t.Run("ReceiveAgainstLine", h.testPurchaseReceive)
	t.Run("CloseAndCancel", h.testPurchaseEnd)
	t.Run("RefusesInactiveLines", h.testPurchaseRefusals)
	t.Run("Lists", h.testPurchaseLists)
	t.Run("ConcurrentReceiptsAgainstLines", h.testPurchaseConcurrency)
}

func (h *harness) testPurchasePlace(t *testing.T) {
	s := h.openPurchase(t)
	exp := t0.Add(7 * 24 * time.Hour)
	o := stockroom.PurchaseOrder{VendorID: s.vendor.ID, OrderHead: stockroom.OrderHead{OrderDate: t0, Reference: "R1", Remark: "rush"}, ExpectedDate: &exp,
		Lines: []stockroom.PurchaseLine{line(s.a.PartNo, 1, u(10), stockroom.MustParseUnits("0.25")), line(s.b.PartNo, 2, u(3), u(2)),
			line(s.a.PartNo, 1, stockroom.MustParseUnits("0.5"), u(0))}}
	got, err := s.CreatePurchaseOrder(ctx, nil, o, s.entry())
	must(t, err)
	if got.ID < 1 || got.PONo != "PO-000001" || got.Vendor != "Name BOLTCO" || got.VendorID != s.vendor.ID || got.Status != stockroom.OrderOpen ||
		!got.OrderDate.Equal(t0) || got.ExpectedDate == nil || !got.ExpectedDate.Equal(exp) || got.Reference != "R1" || got.Remark != "rush" ||
		got.TotalLines != 3 || got.TotalValue != stockroom.MustParseUnits("8.5") || got.Created.IsZero() || !got.Created.Equal(got.Modified) {
		t.Fatalf("placed %+v", got)
	}
	l := got.Lines[1]
	if len(got.Lines) != 3 || l.LineNo != 2 || l.ShortID != "B" || l.Warehouse != 2 || l.WarehouseName != "W2" || l.Units != u(3) ||
		l.UnitsDue != u(3) || !l.UnitsReceived.IsZero() || l.UnitPrice != u(2) {
		t.Fatalf("lines %+v", got.Lines)
	}
	if found, err := s.FindPurchaseOrder(ctx, "po-000001"); err != nil || !slices.Equal(found.Lines, got.Lines) || found.TotalValue != got.TotalValue {
		t.Fatalf("found %+v, %v; placed %+v", found, err, got)
	}
	if lv := s.level(s.a.PartNo, 1); lv.OnOrder != stockroom.MustParseUnits("10.5") || !lv.InStock.IsZero() {
		t.Fatalf("level of A in 1: %+v", lv)
	}
	if lv := s.level(s.b.PartNo, 2); lv.OnOrder != u(3) {
		t.Fatalf("level of B in 2: %+v", lv)
	}
	txs := s.ledgerOf(stockroom.TxOrder)
	if len(txs) != 3 || txs[0].Units != u(10) || onOrderFigure(txs[0]) != u(10) || txs[0].Reference != "PO-000001" ||
		txs[0].Details["poNo"] != "PO-000001" || txs[2].Units != stockroom.MustParseUnits("0.5") || len(txs[1].Figures) != 1 || txs[1].Figures[0].WID != 2 {
		t.Fatalf("ledger %+v", txs)
	}
	s.audit()
	// The audit holds onOrder to the orders and the ledger.
	must(t, s.ExecForTest(ctx, "UPDATE order_lines SET received = 1000000 WHERE line_no = 2"))
	found, err := s.Audit(ctx)
	must(t, err)
	if len(found) == 0 || !strings.Contains(found[0].What, "on_order 3, open purchase lines due 2,") {
		t.Fatalf("after a line's receipt changed behind the ledger's back, the audit found %v", found)
	}
}

func (h *harness) testPurchaseNumbers(t *testing.T) {
	s := h.openPurchase(t)
	s.mustPlace("PO-000002", line(s.a.PartNo, 1, u(1), u(0)))
	if o := s.mustPlace("", line(s.a.PartNo, 1, u(1), u(0))); o.PONo != "PO-000001" {
		t.Fatalf("first assigned %q", o.PONo)
	}
	if o := s.mustPlace("", line(s.a.PartNo, 1, u(1), u(0))); o.PONo != "PO-000003" {
		t.Fatalf("assigned %q past a number taken, want PO-000003", o.PONo)
	}
	_, err := s.place("po-000003", line(s.a.PartNo, 1, u(1), u(0)))
	if !errors.Is(err, stockroom.ErrDuplicate) {
		t.Fatalf("a number taken in another case: %v", err)
	}
	if lv := s.level(s.a.PartNo, 1); lv.OnOrder != u(3) {
		t.Fatalf("onOrder %s after three orders of 1 and a refused one", lv.OnOrder)
	}
	s.audit()
}

func (h *harness) testPurchaseChange(t *testing.T) {
	s := h.openPurchase(t)
	o := s.mustPlace("CH-1", line(s.a.PartNo, 1, u(10), u(1)), line(s.b.PartNo, 1, u(5), u(1)))
	_, err := s.receiveOn(o, 1, u(4))
	must(t, err)
	cut := stockroom.PurchaseOrderChange{Remark: new("changed"), Lines: []stockroom.OrderLineChange{
		{OrderLineRequest: stockroom.OrderLineRequest{LineNo: 1, Units: new(u(6)), UnitPrice: new(u(3))}},
		{OrderLineRequest: stockroom.OrderLineRequest{Units: new(u(2))}, PartNo: s.b.PartNo, Owner: 0},
	}}
	cut.Lines[1].Warehouse = 2
	got, err := s.change("ch-1", cut.Apply)
	must(t, err)
	if got.Remark != "changed" || len(got.Lines) != 3 || got.Lines[0].Units != u(6) || got.Lines[0].UnitsDue != u(2) ||
		got.Lines[2].LineNo != 3 || got.Lines[2].Warehouse != 2 || got.Status != stockroom.OrderPartial || !got.Modified.After(o.Modified) {
		t.Fatalf("changed %+v", got)
	}
	if lv := s.level(s.a.PartNo, 1); lv.OnOrder != u(2) || lv.InStock != u(4) {
		t.Fatalf("level of A: %+v", lv)
	}
	if lv := s.level(s.b.PartNo, 2); lv.OnOrder != u(2) {
		t.Fatalf("level of B in 2: %+v", lv)
	}
	txs := s.ledgerOf(stockroom.TxOrder)
	if len(txs) != 4 || txs[2].Units != u(4) || onOrderFigure(txs[2]) != u(-4) || txs[3].Units != u(2) || txs[3].Details["line"] == nil {
		t.Fatalf("ledger %+v", txs)
	}
	// A refused change changes nothing; units below what arrived are refused.
	_, err = s.change("CH-1", stockroom.PurchaseOrderChange{Lines: []stockroom.OrderLineChange{
		{OrderLineRequest: stockroom.OrderLineRequest{LineNo: 1, Units: new(u(3))}}}}.Apply)
	wantCode(t, err, stockroom.ECONFLICT)
	// No change at all writes nothing.
	same, err := s.change("CH-1", stockroom.PurchaseOrderChange{Remark: new("changed")}.Apply)
	must(t, err)
	if !same.Modified.Equal(got.Modified) || len(s.ledgerOf(stockroom.TxOrder)) != 4 {
		t.Fatalf("an empty change wrote: %+v", same)
	}
	// Cutting every line to what arrived completes the order.
	done, err := s.change("CH-1", stockroom.PurchaseOrderChange{Lines: []stockroom.OrderLineChange{
		{OrderLineRequest: stockroom.OrderLineRequest{LineNo: 1, Units: new(u(4))}}}}.Apply)
	must(t, err)
	if done.Status != stockroom.OrderPartial {
		t.Fatalf("status %s with lines 2 and 3 still due", done.Status)
	}
	_, err = s.change("nope", cut.Apply)
	wantCode(t, err, stockroom.ENOTFOUND)
	s.audit()
}

func (h *harness) testPurchaseReceive(t *testing.T) {
	s := h.openPurchase(t)
	o := s.mustPlace("RC-1", line(s.a.PartNo, 1, u(10), stockroom.MustParseUnits("1.5")), line(s.b.PartNo, 2, u(2), u(7)))
	res, err := s.receiveOn(o, 1, u(4))
	must(t, err)
	if res.Lot.Price != stockroom.MustParseUnits("1.5") || res.Lot.Units != u(4) {
		t.Fatalf("lot %+v", res.Lot)
	}
	tx, err := s.FindTransaction(ctx, stockroom.Scope{All: true}, nil, res.TransactionID)
	must(t, err)
	if onOrderFigure(tx) != u(-4) || len(tx.Lines) != 1 {
		t.Fatalf("receipt's ledger entry %+v", tx)
	}
	got, err := s.FindPurchaseOrder(ctx, "RC-1")
	must(t, err)
	if got.Status != stockroom.OrderPartial || got.Lines[0].UnitsReceived != u(4) || got.Lines[0].UnitsDue != u(6) {
		t.Fatalf("after a part %+v", got)
	}
	// A receipt without a price takes the line's, as it is in the
	// receipt's transaction.
	_, err = s.change("RC-1", stockroom.PurchaseOrderChange{Lines: []stockroom.OrderLineChange{
		{OrderLineRequest: stockroom.OrderLineRequest{LineNo: 1, UnitPrice: new(u(2))}}}}.Apply)
	must(t, err)
	res, err = s.receiveAt(o, 1, u(8), stockroom.Units{}) // 2 more than due: allowed and recorded
	must(t, err)
	if res.Lot.Price != u(2) || s.lot(res.RecNo).Price != u(2) {
		t.Fatalf("lot price %s, stored %s, want the line's 2", res.Lot.Price, s.lot(res.RecNo).Price)
	}
	if res.Lot.Supplier != o.VendorID || s.lot(res.RecNo).Supplier != o.VendorID {
		t.Fatalf("lot supplier %d, want the order's vendor %d", res.Lot.Supplier, o.VendorID)
	}
	if lv := s.level(s.a.PartNo, 1); lv.OnOrder.Sign() != 0 || lv.InStock != u(12) {
		t.Fatalf("level after over-receipt %+v", lv)
	}
	_, err = s.receiveOn(o, 2, u(2))
	must(t, err)
	got, err = s.FindPurchaseOrder(ctx, "RC-1")
	must(t, err)
	if got.Status != stockroom.OrderClosed || got.Lines[0].UnitsReceived != u(12) || got.Lines[1].UnitsDue.Sign() != 0 {
		t.Fatalf("after everything %+v", got)
	}
	_, err = s.receiveOn(o, 2, u(1))
	if !errors.Is(err, stockroom.ErrOrderEnded) {
		t.Fatalf("a receipt on a closed order: %v", err)
	}
	s.audit()
}

func (h *harness) testPurchaseEnd(t *testing.T) {
	s := h.openPurchase(t)
	o := s.mustPlace("END-1", line(s.a.PartNo, 1, u(10), u(1)), line(s.b.PartNo, 1, u(5), u(1)))
	_, err := s.receiveOn(o, 1, u(3))
	must(t, err)
	_, err = s.change("END-1", func(o *stockroom.PurchaseOrder) (bool, error) { return true, o.End(true) })
	wantCode(t, err, stockroom.ECONFLICT)
	closed, err := s.change("END-1", func(o *stockroom.PurchaseOrder) (bool, error) { return true, o.End(false) })
	must(t, err)
	if closed.Status != stockroom.OrderClosed || closed.Lines[0].UnitsDue.Sign() != 0 || closed.TotalLines != 2 {
		t.Fatalf("closed %+v", closed)
	}
	if a, b := s.level(s.a.PartNo, 1), s.level(s.b.PartNo, 1); a.OnOrder.Sign() != 0 || b.OnOrder.Sign() != 0 || a.InStock != u(3) {
		t.Fatalf("levels after close %+v %+v", a, b)
	}
	txs := s.ledgerOf(stockroom.TxOrderClose)
	if len(txs) != 2 || txs[0].Units != u(7) || onOrderFigure(txs[0]) != u(-7) || onOrderFigure(txs[1]) != u(-5) {
		t.Fatalf("close ledger %+v", txs)
	}
	_, err = s.change("END-1", func(o *stockroom.PurchaseOrder) (bool, error) { return true, o.End(false) })
	wantCode(t, err, stockroom.ECONFLICT)

	c := s.mustPlace("END-2", line(s.a.PartNo, 2, u(4), u(1)))
	canceled, err := s.change("end-2", func(o *stockroom.PurchaseOrder) (bool, error) { return true, o.End(true) })
	must(t, err)
	if canceled.Status != stockroom.OrderCanceled || s.level(s.a.PartNo, 2).OnOrder.Sign() != 0 {
		t.Fatalf("canceled %+v", canceled)
	}
	if txs := s.ledgerOf(stockroom.TxOrderCancel); len(txs) != 1 || onOrderFigure(txs[0]) != u(-4) {
		t.Fatalf("cancel ledger %+v", txs)
	}
	_, err = s.receiveOn(c, 1, u(1))
	if !errors.Is(err, stockroom.ErrOrderEnded) {
		t.Fatalf("a receipt on a canceled order: %v", err)
	}
	s.audit()
}

func (h *harness) testPurchaseRefusals(t *testing.T) {
	s := h.openPurchase(t)
	c := newParty(stockroom.Customer, "GONE", t0)
	c.Active = false
	must(t, s.CreateParty(ctx, nil, &c))
	must(t, s.CreateWarehouse(ctx, stockroom.Warehouse{ID: 3, Name: "Shut", Active: false, Created: t0, Modified: t0}))
	gone := newItem("OLD", t0)
	gone.Discontinued = true
	must(t, s.CreateItem(ctx, nil, &gone))
	owned := line(s.a.PartNo, 1, u(1), u(0))
	owned.Owner = c.ID
	for _, tc := range []struct {
		bad  stockroom.PurchaseLine
		want error
		name string
	}{
		{line(gone.PartNo, 1, u(1), u(0)), stockroom.ErrDiscontinued, "OLD"},
		{line(s.a.PartNo, 3, u(1), u(0)), stockroom.ErrWarehouseInactive, "3"},
		{owned, stockroom.ErrOwnerInactive, "owner"},
	} {
		_, err := s.place("", line(s.b.PartNo, 1, u(1), u(0)), tc.bad)
		var lr *stockroom.OrderLineRefusal
		if !errors.As(err, &lr) || lr.Line != 2 || !errors.Is(err, tc.want) || (tc.name != "owner" && lr.Name != tc.name) {
			t.Errorf("line of %+v: %v", tc.bad, err)
		}
	}
	if lv := s.level(s.b.PartNo, 1); !lv.OnOrder.IsZero() {
		t.Fatalf("refused orders left onOrder %s", lv.OnOrder)
	}
	s.audit()
}

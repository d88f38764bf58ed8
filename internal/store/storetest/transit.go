package storetest

import (
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

// Transits: transfers between warehouses and vendors' advance ship
// notices, received (in part, with rejections) or canceled; the levels,
// the ledger and the audit agree after every step.

func allowTransit(stockroom.Transit) error { return nil }

// transfer ships units of the item from warehouse 1 to 2 under a slip.
func (s *stockDB) transfer(part int64, units stockroom.Units, toSpot string) stockroom.DrawResult {
	s.t.Helper()
	res, err := s.Withdraw(ctx, nil, stockroom.Withdrawal{Type: stockroom.TxTransfer, PartNo: part, WID: 1, Units: units,
		ToWID: 2, ToSpot: toSpot, Slip: "TS-1"}, s.entry())
	must(s.t, err)
	return res
}

func (s *stockDB) transit(id int64) stockroom.Transit {
	s.t.Helper()
	tr, err := s.FindTransit(ctx, stockroom.Scope{All: true}, nil, id)
	must(s.t, err)
	return tr
}

func (s *stockDB) receiveTransit(id int64, lines ...stockroom.TransitReceiveLine) (stockroom.TransitReceiveResult, error) {
	return s.ReceiveTransit(ctx, nil, stockroom.TransitAction{ID: id, Entry: s.entry()}, stockroom.TransitReceiveRequest{Lines: lines}, allowTransit)
}

// wantFigures checks an item's inStock and aSN in a warehouse.
func (s *stockDB) wantFigures(part, wid int64, inStock, asn stockroom.Units) {
	s.t.Helper()
	if l := s.level(part, wid); l.InStock != inStock || l.ASN != asn {
		s.t.Fatalf("item %d in warehouse %d: inStock %s, aSN %s; want %s and %s", part, wid, l.InStock, l.ASN, inStock, asn)
	}
}

// recv is a receipt line of units accepted and rejected (reason 20).
func recv(line int64, units, rejected stockroom.Units) stockroom.TransitReceiveLine {
	r := stockroom.TransitReceiveLine{Line: line, Units: &units, Rejected: rejected}
	if rejected.Sign() > 0 {
		r.ReasonCode = 20
	}
	return r
}

func (h *harness) testTransits(t *testing.T) {
	t.Run("TransferReceiveInPartAndCancel", h.testTransferStory)
	t.Run("ReceiveEverythingDue", func(t *testing.T) {
		s := h.openStock(t)
		s.receive(s.a.PartNo, 1, "A", u(8))
		res := s.transfer(s.a.PartNo, u(8), "")
		got, err := s.receiveTransit(*res.TransitID)
		must(t, err)
		if got.Transit.Status != stockroom.TransitReceived || len(got.Lines) != 1 || got.Lines[0].Units != u(8) || got.Lines[0].RecNo == nil {
			t.Fatalf("received %+v", got)
		}
		s.wantFigures(s.a.PartNo, 2, u(8), u(0))
		s.wantFigures(s.a.PartNo, 1, u(0), u(0))
		s.audit()
	})
	t.Run("Refusals", h.testTransitRefusals)
	t.Run("AdvanceShipNotice", h.testNoticeStory)
	t.Run("NoticeRefusals", h.testNoticeRefusals)
	t.Run("ConcurrentReceiptsKeepInvariants", h.testTransitConcurrency)
}

// testTransferStory: 30 of two lots leave warehouse 1 at once and wait in
// 2's aSN; a receipt takes part of one line (with a rejection), the cancel
// returns the rest to warehouse 1.
func (h *harness) testTransferStory(t *testing.T) {
	s := h.openStock(t)
	exp := t0.Add(400 * 24 * time.Hour)
	first, err := s.Receive(ctx, nil, stockroom.Receipt{PartNo: s.a.PartNo, ReceiveRequest: stockroom.ReceiveRequest{WID: 1, Spot: "A-01",
		Units: u(20), Serial: "S1", Price: stockroom.MustParseUnits("2.5"), Expires: &exp, Supplier: 9}}, s.entry())
	must(t, err)
	second := s.receive(s.a.PartNo, 1, "A-02", u(20))
	res := s.transfer(s.a.PartNo, u(30), "R-1")
	if res.Type != stockroom.TxTransfer || res.TransitID == nil || *res.ToWID != 2 || len(res.Lines) != 2 ||
		res.Lines[0].RecNo != first.RecNo || res.Lines[0].Units != u(20) || res.Lines[1].Remaining != u(10) || res.Lines[0].NewRecNo != nil {
		t.Fatalf("transfer %+v", res)
	}
	s.wantFigures(s.a.PartNo, 1, u(10), u(0))
	s.wantFigures(s.a.PartNo, 2, u(0), u(30))
	if l := s.lot(first.RecNo); l.Active || l.Shipped == nil || !l.Units.IsZero() {
		t.Fatalf("the emptied source lot %+v", l)
	}
	tr := s.transit(*res.TransitID)
	if tr.Kind != stockroom.TransitTransfer || tr.TransitSlip != "TS-1" || *tr.FromWID != 1 || tr.ToWID != 2 || tr.ToSpot != "R-1" ||
		tr.Status != stockroom.TransitInTransit || len(tr.Lines) != 2 || *tr.Lines[0].RecNo != first.RecNo || tr.Lines[0].Serial != "S1" ||
		tr.Lines[1].Units != u(10) || tr.Lines[1].UnitsDue != u(10) || tr.Lines[0].ShortID != "A" {
		t.Fatalf("transit %+v", tr)
	}
	s.audit()

	got, err := s.receiveTransit(tr.ID, recv(1, u(15), u(5)))
	must(t, err)
	if got.Transit.Status != stockroom.TransitPartial || got.Lines[0].RecNo == nil || got.Lines[0].RejectTransactionID == nil ||
		got.Transit.Lines[0].UnitsReceived != u(15) || got.Transit.Lines[0].UnitsRejected != u(5) || !got.Transit.Lines[0].UnitsDue.IsZero() {
		t.Fatalf("partial receipt %+v", got)
	}
	lot := s.lot(*got.Lines[0].RecNo)
	if lot.WID != 2 || lot.Spot != "R-1" || lot.Units != u(15) || lot.Serial != "S1" || !lot.Received.Equal(first.Lot.Received) ||
		lot.Price != first.Lot.Price || lot.Supplier != 9 || lot.Expires == nil || !lot.Expires.Equal(exp) || !lot.Active {
		t.Fatalf("received lot %+v, from %+v", lot, first.Lot)
	}
	s.wantFigures(s.a.PartNo, 2, u(15), u(10))
	rej, err := s.FindTransaction(ctx, stockroom.Scope{All: true}, nil, *got.Lines[0].RejectTransactionID)
	must(t, err)
	if rej.Type != stockroom.TxTransitReject || rej.Units != u(5) || rej.ReasonCode == nil || *rej.ReasonCode != 20 || len(rej.Lines) != 0 ||
		len(rej.Figures) != 1 || rej.Figures[0].ASN != u(-5) || rej.Figures[0].WID != 2 {
		t.Fatalf("rejection entry %+v", rej)
	}
	s.audit()

	canceled, err := s.CancelTransit(ctx, nil, stockroom.TransitAction{ID: tr.ID, Entry: s.entry()}, allowTransit)
	must(t, err)
	if canceled.Status != stockroom.TransitCanceled || !canceled.Lines[1].UnitsDue.IsZero() {
		t.Fatalf("canceled %+v", canceled)
	}
	s.wantFigures(s.a.PartNo, 1, u(20), u(0))
	s.wantFigures(s.a.PartNo, 2, u(15), u(0))
	var back stockroom.Lot
	for _, l := range s.lots() {
		if l.WID == 1 && l.Units == u(10) && l.RecNo > second.RecNo && l.Spot == "A-02" {
			back = l
		}
	}
	if back.RecNo == 0 || !back.Received.Equal(second.Received) {
		t.Fatalf("no lot of 10 returned to A-02 in warehouse 1: %+v", s.lots())
	}
	s.audit()
	ledger, err := s.ListTransactions(ctx, stockroom.Scope{All: true}, stockroom.TransactionFilter{}, stockroom.PageRequest{Page: 1, PageSize: 10})
	must(t, err)
	var types []string
	for _, e := range ledger.Items {
		types = append(types, string(e.Type))
	}
	if got := strings.Join(types, " "); got != "transit-cancel transit-reject transit-receive transfer receive receive" {
		t.Fatalf("ledger types %s", got)
	}
}

// testTransitRefusals: each refusal changes nothing.
func (h *harness) testTransitRefusals(t *testing.T) {
	s := h.openStock(t)
	s.receive(s.a.PartNo, 1, "A", u(10))
	held := s.receive(s.a.PartNo, 1, "A", u(5))
	_, err := s.SetHold(ctx, nil, stockroom.HoldChange{RecNo: held.RecNo, Hold: true}, s.entry(), allowAll)
	must(t, err)
	res := s.transfer(s.a.PartNo, u(6), "")
	id := *res.TransitID
	lots, ledger := s.lots(), s.ledgerSize()
	unchanged := func(t *testing.T) {
		t.Helper()
		if !sameLots(lots, s.lots()) || s.ledgerSize() != ledger {
			t.Fatal("a refusal changed lots or the ledger")
		}
		s.audit()
	}
	s.receiptRefusals(t, id, unchanged)
	t.Run("CheckRefuses", func(t *testing.T) {
		_, err := s.ReceiveTransit(ctx, nil, stockroom.TransitAction{ID: id, Entry: s.entry()}, stockroom.TransitReceiveRequest{}, func(stockroom.Transit) error { return stockroom.ErrFigureTooLarge })
		wantCode(t, err, stockroom.ECONFLICT)
		unchanged(t)
	})
	t.Run("NoSuchTransit", func(t *testing.T) {
		_, err := s.receiveTransit(id + 100)
		wantCode(t, err, stockroom.ENOTFOUND)
		_, err = s.CancelTransit(ctx, nil, stockroom.TransitAction{ID: id + 100, Entry: s.entry()}, allowTransit)
		wantCode(t, err, stockroom.ENOTFOUND)
		unchanged(t)
	})
	t.Run("ShortStockShipsNothing", func(t *testing.T) {
		_, err := s.Withdraw(ctx, nil, stockroom.Withdrawal{Type: stockroom.TxTransfer, PartNo: s.a.PartNo, WID: 1, Units: u(5), ToWID: 2, Slip: "X"}, s.entry())
		wantCode(t, err, stockroom.ECONFLICT)
		_, err = s.Withdraw(ctx, nil, stockroom.Withdrawal{Type: stockroom.TxTransfer, PartNo: s.a.PartNo, WID: 1, Units: u(1), RecNo: held.RecNo, ToWID: 2, Slip: "X"}, s.entry())
		if !strings.Contains(stockroom.ErrorMessage(err), "on hold; release it before it can be shipped") {
			t.Fatalf("transfer of a held lot: %v", err)
		}
		all, err := s.ListTransits(ctx, stockroom.Scope{All: true}, stockroom.TransitFilter{}, stockroom.PageRequest{Page: 1, PageSize: 10})
		must(t, err)
		if all.Total != 1 {
			t.Fatalf("%d transits, want only the first", all.Total)
		}
		unchanged(t)
	})
	t.Run("InactiveDestination", func(t *testing.T) {
		setActive := func(active bool) {
			_, err := s.UpdateWarehouse(ctx, 2, func(w *stockroom.Warehouse) (bool, error) { w.Active = active; return true, nil })
			must(t, err)
		}
		setActive(false)
		_, err := s.receiveTransit(id)
		wantCode(t, err, stockroom.ECONFLICT)
		_, err = s.Withdraw(ctx, nil, stockroom.Withdrawal{Type: stockroom.TxTransfer, PartNo: s.a.PartNo, WID: 1, Units: u(1), ToWID: 2, Slip: "X"}, s.entry())
		wantCode(t, err, stockroom.ECONFLICT)
		setActive(true)
		unchanged(t)
	})
	_, err = s.receiveTransit(id)
	must(t, err)
	lots, ledger = s.lots(), s.ledgerSize()
	t.Run("EndedTransit", func(t *testing.T) {
		_, err := s.receiveTransit(id)
		wantCode(t, err, stockroom.ECONFLICT)
		_, err = s.CancelTransit(ctx, nil, stockroom.TransitAction{ID: id, Entry: s.entry()}, allowTransit)
		wantCode(t, err, stockroom.ECONFLICT)
		if !strings.Contains(stockroom.ErrorMessage(err), "is Received; only a transit on its way can be canceled") {
			t.Fatalf("message %q", stockroom.ErrorMessage(err))
		}
		unchanged(t)
	})
}

// receiptRefusals: receipts of transit id (6 units due on its line 1) that
// ask for too much or name lines wrongly, each refused changing nothing.
func (s *stockDB) receiptRefusals(t *testing.T, id int64, unchanged func(*testing.T)) {
	for _, tc := range []struct {
		name  string
		lines []stockroom.TransitReceiveLine
		code  string
		msg   string
	}{
		{"MoreThanDue", []stockroom.TransitReceiveLine{recv(1, u(5), u(2))}, stockroom.ECONFLICT, "line 1 has 6 units due; 7 units given (5 received, 2 rejected)"},
		{"RejectedBeyondDue", []stockroom.TransitReceiveLine{{Line: 1, Rejected: u(7), ReasonCode: 20}}, stockroom.ECONFLICT, "7 units given (0 received, 7 rejected)"},
		{"NoSuchLine", []stockroom.TransitReceiveLine{recv(2, u(1), u(0))}, stockroom.EINVALID, ""},
		{"LineTwice", []stockroom.TransitReceiveLine{recv(1, u(1), u(0)), recv(1, u(1), u(0))}, stockroom.EINVALID, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.receiveTransit(id, tc.lines...)
			wantCode(t, err, tc.code)
			if !strings.Contains(stockroom.ErrorMessage(err), tc.msg) {
				t.Fatalf("message %q, want it to hold %q", stockroom.ErrorMessage(err), tc.msg)
			}
			unchanged(t)
		})
	}
}

// placeOrder places purchase order PO-1 from a new vendor: line 1 of 100
// of item a at 2.5, line 2 of 10 of item b, both for warehouse 2, and line
// 3 of 5 of item a for warehouse 1.
func (s *stockDB) placeOrder() stockroom.Party {
	s.t.Helper()
	v := newParty(stockroom.Vendor, "VEND", t0)
	must(s.t, s.CreateParty(ctx, nil, &v))
	_, err := s.CreatePurchaseOrder(ctx, nil, stockroom.PurchaseOrder{PONo: "PO-1", VendorID: v.ID, OrderHead: stockroom.OrderHead{OrderDate: t0}, Lines: []stockroom.PurchaseLine{
		line(s.a.PartNo, 2, u(100), stockroom.MustParseUnits("2.5")),
		line(s.b.PartNo, 2, u(10), u(0)),
		line(s.a.PartNo, 1, u(5), u(0)),
	}}, s.entry())
	must(s.t, err)
	s.audit()
	return v
}

func (s *stockDB) ship(asn string, lines ...stockroom.ShipNoticeLine) (stockroom.Transit, error) {
	return s.ShipNotice(ctx, nil, s.act(stockroom.OrderKindPurchase, "po-1", everyone), stockroom.ShipNoticeRequest{ASN: asn, Lines: lines})
}

func (s *stockDB) wantOnOrder(part, wid int64, onOrder, asn stockroom.Units) {
	s.t.Helper()
	if l := s.level(part, wid); l.OnOrder != onOrder || l.ASN != asn {
		s.t.Fatalf("item %d in warehouse %d: onOrder %s, aSN %s; want %s and %s", part, wid, l.OnOrder, l.ASN, onOrder, asn)
	}
}

// testNoticeStory: 60 of 100 ordered are shipped; 55 arrive and 5 are
// rejected; a second notice ships more than is due and is canceled.
func (h *harness) testNoticeStory(t *testing.T) {
	s := h.openStock(t)
	vendor := s.placeOrder()
	s.wantOnOrder(s.a.PartNo, 2, u(100), u(0))
	tr, err := s.ship("ASN-1", stockroom.ShipNoticeLine{Line: 1, Units: u(60), Serial: "LOT-7"}, stockroom.ShipNoticeLine{Line: 2, Units: u(4)})
	must(t, err)
	if tr.Kind != stockroom.TransitASN || tr.ASN != "ASN-1" || tr.PONo != "PO-1" || tr.ToWID != 2 || tr.FromWID != nil ||
		len(tr.Lines) != 2 || *tr.Lines[0].POLine != 1 || tr.Lines[0].Serial != "LOT-7" || tr.Lines[1].PartNo != s.b.PartNo {
		t.Fatalf("notice %+v", tr)
	}
	s.wantOnOrder(s.a.PartNo, 2, u(40), u(60))
	s.wantOnOrder(s.b.PartNo, 2, u(6), u(4))
	s.audit()

	got, err := s.receiveTransit(tr.ID, recv(1, u(55), u(5)))
	must(t, err)
	if got.Transit.Status != stockroom.TransitPartial || got.Lines[0].Units != u(55) {
		t.Fatalf("receipt %+v", got)
	}
	lot := s.lot(*got.Lines[0].RecNo)
	if lot.WID != 2 || lot.Units != u(55) || lot.Price != stockroom.MustParseUnits("2.5") || lot.Supplier != vendor.ID || lot.Line != 1 ||
		lot.Reference != "PO-1" || lot.Serial != "LOT-7" || !lot.Received.After(t0) {
		t.Fatalf("lot %+v", lot)
	}
	s.wantFigures(s.a.PartNo, 2, u(55), u(0))
	s.wantOnOrder(s.a.PartNo, 2, u(40), u(0))
	po, err := s.FindPurchaseOrder(ctx, "PO-1")
	must(t, err)
	if l := po.Lines[0]; po.Status != stockroom.OrderPartial || l.UnitsReceived != u(55) || l.UnitsRejected != u(5) || l.UnitsInTransit.Sign() != 0 || l.UnitsDue != u(40) {
		t.Fatalf("order after the receipt: %s %+v", po.Status, l)
	}
	s.audit()

	more, err := s.ship("ASN-2", stockroom.ShipNoticeLine{Line: 1, Units: u(50)})
	must(t, err)
	s.wantOnOrder(s.a.PartNo, 2, u(0), u(50)) // shipping more than is due is recorded
	s.audit()
	_, err = s.CancelTransit(ctx, nil, stockroom.TransitAction{ID: more.ID, Entry: s.entry()}, allowTransit)
	must(t, err)
	s.wantOnOrder(s.a.PartNo, 2, u(40), u(0))
	s.audit()

	_, err = s.receiveTransit(tr.ID)
	must(t, err)
	s.wantFigures(s.b.PartNo, 2, u(4), u(0))
	s.wantOnOrder(s.b.PartNo, 2, u(6), u(0))
	s.audit()
}

// testNoticeRefusals: a notice is refused, changing nothing, for an order
// that does not exist or has ended, a line it does not have, lines for two
// warehouses, and by its check.
func (h *harness) testNoticeRefusals(t *testing.T) {
	s := h.openStock(t)
	s.placeOrder()
	ledger := s.ledgerSize()
	l := func(line, units int64) stockroom.ShipNoticeLine {
		return stockroom.ShipNoticeLine{Line: line, Units: u(units)}
	}
	_, err := s.ShipNotice(ctx, nil, s.act(stockroom.OrderKindPurchase, "PO-2", everyone), stockroom.ShipNoticeRequest{ASN: "A", Lines: []stockroom.ShipNoticeLine{l(1, 1)}})
	wantCode(t, err, stockroom.ENOTFOUND)
	_, err = s.ship("A", l(1, 1), l(9, 1))
	wantCode(t, err, stockroom.EINVALID)
	if d := err.(*stockroom.Error).Details; len(d["lines[1].line"]) != 1 {
		t.Fatalf("details %v", d)
	}
	_, err = s.ship("A", l(1, 1), l(3, 1))
	wantCode(t, err, stockroom.EINVALID)
	// A line the client does not see is as one the order lacks; an order
	// none of whose lines it sees is not found, whatever the lines named.
	inOne, none := inWarehouses(1), inWarehouses()
	for _, tc := range []struct {
		by   *stockroom.Principal
		line int64
		code string
	}{{inOne, 1, stockroom.EINVALID}, {inOne, 9, stockroom.EINVALID}, {none, 3, stockroom.ENOTFOUND}, {none, 9, stockroom.ENOTFOUND}} {
		_, err = s.ShipNotice(ctx, nil, s.act(stockroom.OrderKindPurchase, "PO-1", tc.by), stockroom.ShipNoticeRequest{ASN: "A", Lines: []stockroom.ShipNoticeLine{l(tc.line, 1)}})
		wantCode(t, err, tc.code)
	}
	if s.ledgerSize() != ledger {
		t.Fatal("a refused notice changed the ledger")
	}
	s.audit()
	_, err = s.ChangePurchaseOrder(ctx, nil, "PO-1", s.entry(), func(o *stockroom.PurchaseOrder) (bool, error) { return true, o.End(false) })
	must(t, err)
	ledger = s.ledgerSize()
	_, err = s.ship("A", l(1, 1))
	wantCode(t, err, stockroom.ECONFLICT)
	if s.ledgerSize() != ledger {
		t.Fatal("a notice for a closed order changed the ledger")
	}
	s.audit()
}

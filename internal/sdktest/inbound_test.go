package sdktest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
	"github.com/stockroom/stockroom/internal/testdb"
)

// TestInboundStory is the whole inbound story through the SDK, on each
// engine: 100 of an item are ordered for warehouse 1; the vendor ships 60
// under an advance ship notice; 55 arrive and 5 are rejected; the remaining
// 40 are received directly against the order, which closes. After every step
// the stock level, the order's line, the ledger and the audit agree with
// what a person would expect.
func TestInboundStory(t *testing.T) {
	t.Parallel()
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) { inboundStory(t, newServer(t, serverConfig{engine: engine})) })
	}
}

// inbound is the story's state: the client, the order, and the ledger
// entries of the item expected so far, oldest first.
type inbound struct {
	t      *testing.T
	s      *testServer
	c      *client.Client
	poNo   string
	ledger []ledgerWant
}

// ledgerWant is one expected ledger entry of the item: its type, the units
// its lots gained (signed, summed over its lines), and its figures' changes
// of onOrder and aSN in warehouse 1.
type ledgerWant struct {
	typ                            stockroom.TxType
	lots, onOrder, aSN, reasonCode int64 // reasonCode 0: none
}

// inboundWant is what a person expects after a step: warehouse 1's level of
// the item, and the order's status and its one line.
type inboundWant struct {
	inStock, onOrder, aSN              int64
	status                             stockroom.OrderStatus
	received, inTransit, rejected, due int64
}

func inboundStory(t *testing.T, s *testServer) {
	ctx := context.Background()
	c := s.admin(t)
	mustCreateItem(t, c, "BEAM")
	if _, err := c.CreateVendor(ctx, client.PartyInput{ShortID: "STEELCO", Name: new("Steel Co")}); err != nil {
		t.Fatal(err)
	}
	po, err := c.CreatePurchaseOrder(ctx, client.PurchaseOrderRequest{VendorID: &stockroom.OwnerRef{ShortID: "STEELCO"},
		Lines: []client.PurchaseLineRequest{{ItemID: "BEAM", Units: new(units(t, "100")), UnitPrice: new(units(t, "12.5")), Warehouse: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	st := &inbound{t: t, s: s, c: c, poNo: po.PONo}
	st.expect("ordered", inboundWant{onOrder: 100, status: stockroom.OrderOpen, due: 100},
		ledgerWant{typ: stockroom.TxOrder, onOrder: 100})

	notice, err := c.ShipPurchaseOrder(ctx, po.PONo, client.ShipNoticeRequest{ASN: "ASN-60", Lines: []client.ShipNoticeLine{{Line: 1, Units: units(t, "60")}}})
	if err != nil || notice.Status != stockroom.TransitInTransit || notice.ToWID != 1 || len(notice.Lines) != 1 || notice.Lines[0].UnitsDue != units(t, "60") {
		t.Fatalf("ship 60: %+v %v", notice, err)
	}
	st.expect("shipped 60", inboundWant{onOrder: 40, aSN: 60, status: stockroom.OrderOpen, inTransit: 60, due: 40},
		ledgerWant{typ: stockroom.TxASN, onOrder: -60, aSN: 60})

	got, err := c.ReceiveTransit(ctx, notice.ID, client.TransitReceiveRequest{Spot: new("DOCK"), Lines: []client.TransitReceiveLine{
		{Line: 1, Units: new(units(t, "55")), Rejected: units(t, "5"), ReasonCode: 23}}})
	if err != nil || got.Transit.Status != stockroom.TransitReceived || len(got.Lines) != 1 ||
		got.Lines[0].Units != units(t, "55") || got.Lines[0].Rejected != units(t, "5") || got.Lines[0].RecNo == nil {
		t.Fatalf("receive 55, reject 5: %+v %v", got, err)
	}
	st.expect("55 received, 5 rejected", inboundWant{inStock: 55, onOrder: 40, status: stockroom.OrderPartial, received: 55, rejected: 5, due: 40},
		ledgerWant{typ: stockroom.TxTransitReceive, lots: 55, aSN: -55},
		ledgerWant{typ: stockroom.TxTransitReject, aSN: -5, reasonCode: 23})

	res, err := c.ReceivePurchaseLine(ctx, po.PONo, 1, "A-1")
	if err != nil || res.Lot.Units != units(t, "40") || res.Lot.Price != units(t, "12.5") || res.Lot.Reference != po.PONo {
		t.Fatalf("receive the rest: %+v %v", res, err)
	}
	st.expect("the rest received", inboundWant{inStock: 95, status: stockroom.OrderClosed, received: 95, rejected: 5},
		ledgerWant{typ: stockroom.TxReceive, lots: 40, onOrder: -40, reasonCode: 1})
	if _, err := c.ReceivePurchaseLine(ctx, po.PONo, 1); !errors.Is(err, client.ErrNothingDue) {
		t.Fatalf("a closed order's line again: %v", err)
	}
}

// expect adds the entries a step wrote to the ledger expected and checks
// the level, the order, the ledger and the audit against want.
func (st *inbound) expect(step string, want inboundWant, entries ...ledgerWant) {
	t := st.t
	t.Helper()
	st.ledger = append(st.ledger, entries...)
	if l := level(t, st.c, "BEAM", 1); l.InStock != stockroom.Whole(want.inStock) || l.OnOrder != stockroom.Whole(want.onOrder) ||
		l.ASN != stockroom.Whole(want.aSN) || l.Available != stockroom.Whole(want.inStock) {
		t.Fatalf("%s: level %+v, want inStock %d, onOrder %d, aSN %d", step, l, want.inStock, want.onOrder, want.aSN)
	}
	po, err := st.c.GetPurchaseOrder(context.Background(), st.poNo)
	if err != nil || len(po.Lines) != 1 {
		t.Fatalf("%s: order %+v %v", step, po, err)
	}
	l := po.Lines[0]
	if po.Status != want.status || l.UnitsReceived != stockroom.Whole(want.received) || l.UnitsInTransit != stockroom.Whole(want.inTransit) ||
		l.UnitsRejected != stockroom.Whole(want.rejected) || l.UnitsDue != stockroom.Whole(want.due) {
		t.Fatalf("%s: order %s, line %+v; want %+v", step, po.Status, l, want)
	}
	st.checkLedger(step, want)
	if found, err := st.s.svc.Audit(context.Background()); err != nil || len(found) > 0 {
		t.Fatalf("%s: audit %v %v", step, found, err)
	}
}

// checkLedger reads the item's ledger through the SDK, oldest first, holds
// each entry to the one expected, and their sums to the level want.
func (st *inbound) checkLedger(step string, want inboundWant) {
	t := st.t
	t.Helper()
	var lots, onOrder, asn stockroom.Units
	i := 0
	for tx, err := range st.c.Transactions(context.Background(), client.TransactionListOptions{ItemID: "BEAM",
		ListOptions: client.ListOptions{Sort: "id", Direction: stockroom.DirectionAsc}}) {
		if err != nil {
			t.Fatalf("%s: ledger: %v", step, err)
		}
		if i >= len(st.ledger) {
			t.Fatalf("%s: unexpected ledger entry %d %+v", step, i, tx)
		}
		w := st.ledger[i]
		var txLots, txOnOrder, txASN stockroom.Units
		for _, l := range tx.Lines {
			txLots = txLots.Add(l.Units)
		}
		for _, f := range tx.Figures {
			if f.WID != 1 || f.Committed.Sign() != 0 || f.Packed.Sign() != 0 {
				t.Fatalf("%s: entry %d (%s) figure %+v", step, i, tx.Type, f)
			}
			txOnOrder, txASN = txOnOrder.Add(f.OnOrder), txASN.Add(f.ASN)
		}
		if tx.Type != w.typ || !namesOrder(tx, st.poNo) || tx.WID != 1 || reasonOf(tx) != w.reasonCode || (len(tx.Lines) == 0) != (w.lots == 0) ||
			txLots != stockroom.Whole(w.lots) || txOnOrder != stockroom.Whole(w.onOrder) || txASN != stockroom.Whole(w.aSN) {
			t.Fatalf("%s: entry %d %+v; want %+v", step, i, tx, w)
		}
		lots, onOrder, asn = lots.Add(txLots), onOrder.Add(txOnOrder), asn.Add(txASN)
		i++
	}
	if i != len(st.ledger) {
		t.Fatalf("%s: %d ledger entries, want %d", step, i, len(st.ledger))
	}
	if lots != stockroom.Whole(want.inStock) || onOrder != stockroom.Whole(want.onOrder) || asn != stockroom.Whole(want.aSN) {
		t.Fatalf("%s: the ledger sums to inStock %s, onOrder %s, aSN %s; want %d, %d, %d", step, lots, onOrder, asn, want.inStock, want.onOrder, want.aSN)
	}
}

// namesOrder reports whether a ledger entry names the order: in its
// reference (a receipt, an order's own entries) or its details' poNo (a
// notice's entries).
func namesOrder(tx stockroom.Transaction, poNo string) bool {
	return tx.Reference == poNo || tx.Details["poNo"] == poNo
}

// reasonOf is a ledger entry's reason code, 0 when it has none.
func reasonOf(tx stockroom.Transaction) int64 {
	if tx.ReasonCode == nil {
		return 0
	}
	return *tx.ReasonCode
}

package storetest

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store"
)

// testRoundTrips holds each stock transaction on PostgreSQL to its number of
// round trips (pipelines sent, BEGIN and COMMIT riding in the first and the
// last), with an Idempotency-Key as the API sends one. Issue 11 allows 5.
func (h *harness) testRoundTrips(t *testing.T) {
	s := h.openStock(t)
	if s.Engine() != store.Postgres {
		t.Skip("SQLite runs in the process: it has no round trips")
	}
	var last atomic.Int64
	s.ObserveRoundTripsForTest(func(n int) { last.Store(int64(n)) })
	keys := 0
	key := func() *stockroom.IdempotencyKey {
		keys++
		return &stockroom.IdempotencyKey{ClientID: "c", Key: fmt.Sprint("rt-", keys), RequestHash: "h", Time: t0, Status: 200}
	}
	var (
		recNo int64
		held  bool
	)
	vendor := newParty(stockroom.Vendor, "V", t0)
	must(t, s.CreateParty(ctx, nil, &vendor))
	po, err := s.CreatePurchaseOrder(ctx, nil, stockroom.PurchaseOrder{VendorID: vendor.ID, OrderHead: stockroom.OrderHead{OrderDate: t0},
		Lines: []stockroom.PurchaseLine{{OrderLine: stockroom.OrderLine{PartNo: s.a.PartNo, Warehouse: 1, Units: u(100)}}}}, s.entry())
	must(t, err)
	for _, op := range []struct {
		name string
		want int64
		run  func() error
	}{
		{"receive", 2, func() error {
			res, err := s.Receive(ctx, key(), stockroom.Receipt{PartNo: s.a.PartNo, ReceiveRequest: stockroom.ReceiveRequest{WID: 1, Units: u(10)}}, s.entry())
			recNo = res.RecNo
			return err
		}},
		// A run of receipts (an atomic batch's) in the two of one receipt:
		// each kind of row one statement however many receipts.
		{"batch of three receipts", 2, func() error {
			r := stockroom.Receipt{PartNo: s.a.PartNo, ReceiveRequest: stockroom.ReceiveRequest{WID: 1, Units: u(1)}}
			c := stockroom.StockChange{Receipt: &r, Entry: s.entry(), Status: 201}
			_, _, err := s.ApplyStock(ctx, key(), []stockroom.StockChange{c, c, c}, nil)
			return err
		}},
		// One more than a plain receipt: the purchase order is read back,
		// after its line changed, for its purchaseorder.received event
		// (issue 40); building that event from the rows the receipt
		// already holds would take the round trip off again.
		{"receive against an order line", 3, func() error {
			_, err := s.Receive(ctx, key(), stockroom.Receipt{PartNo: s.a.PartNo, ReceiveRequest: stockroom.ReceiveRequest{WID: 1, Units: u(1)},
				Order: &stockroom.ReceiptOrder{PONo: po.PONo, Line: 1}}, s.entry())
			return err
		}},
		{"issue", 3, func() error {
			_, err := s.Withdraw(ctx, key(), stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: s.a.PartNo, WID: 1, Units: u(1)}, s.entry())
			return err
		}},
		{"move", 3, func() error {
			_, err := s.Withdraw(ctx, key(), stockroom.Withdrawal{Type: stockroom.TxMove, PartNo: s.a.PartNo, WID: 1, ToWID: 2, ToSpot: "B", Units: u(1)}, s.entry())
			return err
		}},
		{"hold or release", 3, func() error {
			held = !held
			_, err := s.SetHold(ctx, key(), stockroom.HoldChange{RecNo: recNo, Hold: held}, s.entry(), func(stockroom.Lot) error { return nil })
			return err
		}},
	} {
		// Runs after the first on a connection find its statements
		// prepared; what is counted is the steady state.
		for range 3 {
			last.Store(0)
			if err := op.run(); err != nil {
				t.Fatalf("%s: %v", op.name, err)
			}
		}
		if got := last.Load(); got != op.want {
			t.Errorf("%s took %d round trips, want %d", op.name, got, op.want)
		}
	}
}

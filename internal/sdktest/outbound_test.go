package sdktest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
	"github.com/stockroom/stockroom/internal/testdb"
)

// TestOutboundStory is pick, pack and ship through the SDK, on each
// engine: an order of three lines, one of which the stock cannot cover, is
// refused whole; committed with allowPartial it says what is short; part of
// a line is packed, then shipped with more of it; the order is closed and
// what it still held is released. After every step each item's level, the
// ledger and the audit agree with what a person would expect.
func TestOutboundStory(t *testing.T) {
	t.Parallel()
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) { outboundStory(t, newServer(t, serverConfig{engine: engine})) })
	}
}

// outWant is an item's level in warehouse 1 after a step, and the ledger
// entry types of the item so far.
type outWant struct {
	inStock, committed, packed, available int64
	ledger                                []stockroom.TxType
}

func outboundStory(t *testing.T, s *testServer) {
	ctx := context.Background()
	c := s.admin(t)
	for _, it := range []string{"PUMP", "HOSE", "SEAL"} {
		mustCreateItem(t, c, it)
	}
	first := mustReceive(t, c, "PUMP", stockroom.Whole(6), 1, "A")
	mustReceive(t, c, "PUMP", stockroom.Whole(4), 1, "B")
	mustReceive(t, c, "HOSE", stockroom.Whole(5), 1, "A")
	mustReceive(t, c, "SEAL", stockroom.Whole(2), 1, "A")
	cust, err := c.CreateCustomer(ctx, client.PartyInput{ShortID: "BUYER", Name: new("Buyer Ltd")})
	if err != nil {
		t.Fatal(err)
	}
	so, err := c.CreateShippingOrder(ctx, client.ShippingOrderRequest{CustomerID: &stockroom.OwnerRef{ID: cust.ID}, Lines: []client.ShippingLineRequest{
		{ItemID: "PUMP", Units: new(stockroom.Whole(8)), Warehouse: 1},
		{ItemID: "HOSE", Units: new(stockroom.Whole(5)), Warehouse: 1},
		{ItemID: "SEAL", Units: new(stockroom.Whole(3)), Warehouse: 1},
	}})
	if err != nil {
		t.Fatal(err)
	}
	check := func(step string, wants map[string]outWant) {
		t.Helper()
		for item, w := range wants {
			l := level(t, c, item, 1)
			if l.InStock != stockroom.Whole(w.inStock) || l.Committed != stockroom.Whole(w.committed) || l.Packed != stockroom.Whole(w.packed) ||
				l.Available != stockroom.Whole(w.available) {
				t.Fatalf("%s: %s level %+v; want %+v", step, item, l, w)
			}
			checkOutLedger(t, c, step, item, w)
		}
		if found, err := s.svc.Audit(ctx); err != nil || len(found) > 0 {
			t.Fatalf("%s: audit %v %v", step, found, err)
		}
	}
	pump := pickPackShip(t, c, so.SONo, first.RecNo, check)
	commitAndShipOnce(t, c, cust.ID, check, append(pump, stockroom.TxOrderRelease))
}

// outCheck holds levels and ledgers to what is wanted after a step.
type outCheck func(step string, wants map[string]outWant)

// pickPackShip takes order soNo (8 PUMP, 5 HOSE, 3 SEAL; the oldest PUMP lot
// firstLot) through a refused commit, a partial one, a pack, a ship and a
// close, and returns PUMP's ledger types before the close's entry.
func pickPackShip(t *testing.T, c *client.Client, soNo string, firstLot int64, check outCheck) []stockroom.TxType {
	ctx := context.Background()
	rcv := []stockroom.TxType{stockroom.TxReceive}
	_, err := c.CommitShippingOrder(ctx, soNo, client.CommitRequest{})
	if !isCode(err, stockroom.ECONFLICT) || !strings.Contains(err.Error(), "commit line 3: 3 units wanted, 2 available") {
		t.Fatalf("commit with line 3 short: %v", err)
	}
	check("refused", map[string]outWant{"PUMP": {10, 0, 0, 10, append(rcv, rcv...)}, "SEAL": {2, 0, 0, 2, rcv}})

	res, err := c.CommitShippingOrder(ctx, soNo, client.CommitRequest{AllowPartial: true})
	if err != nil || len(res.Lines) != 3 || res.Lines[0].Units != stockroom.Whole(8) || len(res.Lines[0].Lots) != 2 ||
		res.Lines[2].Units != stockroom.Whole(2) || res.Lines[2].Short != stockroom.Whole(1) || !res.Lines[1].Short.IsZero() {
		t.Fatalf("commit allowing partial: %+v %v", res, err)
	}
	pump := []stockroom.TxType{stockroom.TxReceive, stockroom.TxReceive, stockroom.TxCommit}
	check("committed", map[string]outWant{"PUMP": {10, 8, 0, 2, pump}, "HOSE": {5, 5, 0, 0, append(rcv, stockroom.TxCommit)},
		"SEAL": {2, 2, 0, 0, append(rcv, stockroom.TxCommit)}})

	if _, err := c.PackShippingOrder(ctx, soNo, client.PackRequest{Lines: []client.AllocLine{{Line: 1, Units: new(stockroom.Whole(5))}}}); err != nil {
		t.Fatal(err)
	}
	pump = append(pump, stockroom.TxPack)
	check("packed", map[string]outWant{"PUMP": {10, 3, 5, 2, pump}})

	res, err = c.ShipShippingOrder(ctx, soNo, client.ShipRequest{Lines: []client.AllocLine{{Line: 1, Units: new(stockroom.Whole(6))}, {Line: 2}}, Remark: "dock 3"})
	if err != nil || res.Status != stockroom.OrderPartial || len(res.Lines) != 2 || res.Lines[0].UnitsShipped != stockroom.Whole(6) ||
		res.Lines[0].Lots[0].RecNo != firstLot || res.Lines[0].Lots[0].Remaining == nil || !res.Lines[0].Lots[0].Remaining.IsZero() {
		t.Fatalf("ship: %+v %v", res, err)
	}
	pump = append(pump, stockroom.TxShip)
	check("shipped", map[string]outWant{"PUMP": {4, 2, 0, 2, pump}, "HOSE": {0, 0, 0, 0, append(rcv, stockroom.TxCommit, stockroom.TxShip)}})
	if _, err := c.Issue(ctx, client.IssueRequest{ItemID: "PUMP", Units: stockroom.Whole(3), WID: 1, ReasonCode: 20}); !isCode(err, stockroom.ECONFLICT) {
		t.Fatalf("an issue of 3 with 2 unallocated: %v", err)
	}
	if _, err := c.CancelShippingOrder(ctx, soNo); !isCode(err, stockroom.ECONFLICT) {
		t.Fatalf("cancel after a ship: %v", err)
	}

	res, err = c.CloseShippingOrder(ctx, soNo)
	if err != nil || res.Status != stockroom.OrderClosed || len(res.Lines) != 2 {
		t.Fatalf("close: %+v %v", res, err)
	}
	check("closed", map[string]outWant{"PUMP": {4, 0, 0, 4, append(pump, stockroom.TxOrderRelease)},
		"SEAL": {2, 0, 0, 2, append(rcv, stockroom.TxCommit, stockroom.TxOrderRelease)}})
	if o, err := c.GetShippingOrder(ctx, soNo); err != nil || o.Status != stockroom.OrderClosed || o.Lines[0].UnitsShipped != stockroom.Whole(6) ||
		!o.Lines[0].UnitsCommitted.IsZero() {
		t.Fatalf("the order closed: %+v %v", o, err)
	}
	return pump
}

// commitAndShipOnce places an order of 2 PUMP to customer and commits and
// ships it in one call, twice under one key: applied once. pump is PUMP's
// ledger types so far.
func commitAndShipOnce(t *testing.T, c *client.Client, customer int64, check outCheck, pump []stockroom.TxType) {
	ctx := context.Background()
	so2, err := c.CreateShippingOrder(ctx, client.ShippingOrderRequest{CustomerID: &stockroom.OwnerRef{ID: customer},
		Lines: []client.ShippingLineRequest{{ItemID: "PUMP", Units: new(stockroom.Whole(2)), Warehouse: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	kctx := client.WithIdempotencyKey(ctx, "pick-"+so2.SONo)
	shipped, err := c.CommitAndShip(kctx, so2.SONo)
	if err != nil || shipped.Status != stockroom.OrderClosed || len(shipped.Lines) != 1 || shipped.Lines[0].UnitsShipped != stockroom.Whole(2) {
		t.Fatalf("commit and ship: %+v %v", shipped, err)
	}
	again, err := c.CommitAndShip(kctx, so2.SONo)
	if err != nil || *again.Lines[0].TransactionID != *shipped.Lines[0].TransactionID {
		t.Fatalf("commit and ship again under the key: %+v %v", again, err)
	}
	check("committed and shipped", map[string]outWant{"PUMP": {2, 0, 0, 2, append(pump, stockroom.TxCommit, stockroom.TxShip)}})
}

// checkOutLedger holds an item's ledger entries, oldest first, to the types
// wanted, and their lots' and figures' sums to the level wanted.
func checkOutLedger(t *testing.T, c *client.Client, step, item string, w outWant) {
	t.Helper()
	var (
		types                   []stockroom.TxType
		lots, committed, packed stockroom.Units
	)
	for tx, err := range c.Transactions(context.Background(), client.TransactionListOptions{ItemID: item,
		ListOptions: client.ListOptions{Sort: "id", Direction: stockroom.DirectionAsc}}) {
		if err != nil {
			t.Fatalf("%s: ledger: %v", step, err)
		}
		types = append(types, tx.Type)
		for _, l := range tx.Lines {
			lots = lots.Add(l.Units)
		}
		for _, f := range tx.Figures {
			committed, packed = committed.Add(f.Committed), packed.Add(f.Packed)
		}
	}
	if !equalTypes(types, w.ledger) || lots != stockroom.Whole(w.inStock) || committed != stockroom.Whole(w.committed) || packed != stockroom.Whole(w.packed) {
		t.Fatalf("%s: %s ledger %v sums to %s in stock, %s committed, %s packed; want %+v", step, item, types, lots, committed, packed, w)
	}
}

func equalTypes(a, b []stockroom.TxType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

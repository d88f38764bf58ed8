package sdktest_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
)

// TestStockWorkflow proves that a program using only the SDK can run a
// warehouse: receive, move within and between warehouses, issue, hold and
// release, and read back the levels, the lots and the ledger, with exact
// quantities throughout.
func TestStockWorkflow(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	s.addWarehouse(t, 2, "North")
	c := s.admin(t)
	ctx := context.Background()
	mustCreateItem(t, c, "VALVE-1")

	lot1 := mustReceive(t, c, "VALVE-1", units(t, "100"), 1, "A-01")
	lot2 := mustReceive(t, c, "valve-1", units(t, "50.5"), 1, "A-01")
	if lot1.Type != stockroom.TxReceive || lot1.TransactionID == 0 || lot1.Lot.RecNo != lot1.RecNo ||
		lot1.Lot.Units != units(t, "100") || lot1.Lot.Spot != "A-01" || lot1.Lot.WID != 1 || !lot1.Lot.Active {
		t.Fatalf("receive result %+v", lot1)
	}
	if got := level(t, c, "VALVE-1", 1); got.InStock != units(t, "150.5") || got.Available != units(t, "150.5") {
		t.Fatalf("after receiving: %+v", got)
	}

	// 120 units to another bin: the oldest lot moves whole, the next is split.
	mv, err := c.Move(ctx, client.MoveRequest{ItemID: "VALVE-1", Units: units(t, "120"), WID: 1, FromSpot: "A-01", ToSpot: new("B-02")})
	if err != nil {
		t.Fatal(err)
	}
	if len(mv.Lines) != 2 || *mv.ToWID != 1 || *mv.ToSpot != "B-02" ||
		mv.Lines[0].RecNo != lot1.RecNo || mv.Lines[0].Units != units(t, "100") || !mv.Lines[0].Remaining.IsZero() ||
		mv.Lines[0].NewRecNo == nil || *mv.Lines[0].NewRecNo != 0 ||
		mv.Lines[1].RecNo != lot2.RecNo || mv.Lines[1].Units != units(t, "20") || mv.Lines[1].Remaining != units(t, "30.5") || mv.Lines[1].SplitRecNo() == 0 {
		t.Fatalf("move result %+v", mv)
	}
	split := mv.Lines[1].SplitRecNo()

	// The rest of the second lot to another warehouse.
	if _, err := c.Move(ctx, client.MoveRequest{ItemID: "VALVE-1", Units: units(t, "30.5"), WID: 1, FromSpot: "A-01", ShipToWID: 2, ToSpot: new("DOCK")}); err != nil {
		t.Fatal(err)
	}
	north, err := c.ListLots(ctx, client.LotListOptions{WID: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(north.Value) != 1 || north.Value[0].RecNo != lot2.RecNo || north.Value[0].Spot != "DOCK" || north.Value[0].Units != units(t, "30.5") {
		t.Fatalf("lots in warehouse 2: %+v", north.Value)
	}
	// A whole lot by its recNo alone: item, warehouse and units are the lot's.
	whole, err := c.Move(ctx, client.MoveRequest{RecNo: lot2.RecNo, ToSpot: new("SHELF")})
	if err != nil {
		t.Fatal(err)
	}
	if whole.ItemID != "VALVE-1" || whole.WID != 2 || whole.Units != units(t, "30.5") || len(whole.Lines) != 1 || whole.Lines[0].SplitRecNo() != 0 {
		t.Fatalf("whole-lot move by recno: %+v", whole)
	}

	// An issue draws from the oldest lot first.
	is, err := c.Issue(ctx, client.IssueRequest{ItemID: "VALVE-1", Units: units(t, "12.25"), WID: 1, ReasonCode: 20, Reference: "SO-1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(is.Lines) != 1 || is.Lines[0].RecNo != lot1.RecNo || is.Lines[0].Remaining != units(t, "87.75") || is.Type != stockroom.TxIssue {
		t.Fatalf("issue result %+v", is)
	}

	// A held lot counts as on hold and is not issued.
	held, err := c.Hold(ctx, lot1.RecNo)
	if err != nil {
		t.Fatal(err)
	}
	if !held.Lot.Hold || held.TransactionID == nil {
		t.Fatalf("hold result %+v", held)
	}
	if got := level(t, c, "VALVE-1", 1); got.InStock != units(t, "107.75") || got.OnHold != units(t, "87.75") || got.Available != units(t, "20") {
		t.Fatalf("with a lot on hold: %+v", got)
	}
	_, err = c.Issue(ctx, client.IssueRequest{ItemID: "VALVE-1", Units: units(t, "50"), WID: 1, ReasonCode: 20})
	if apiErr, ok := errors.AsType[*client.Error](err); !ok || apiErr.StatusCode != 409 || apiErr.Code != stockroom.ECONFLICT {
		t.Fatalf("issuing more than is available: %v, want 409 conflict", err)
	}
	if _, err := c.Issue(ctx, client.IssueRequest{ItemID: "VALVE-1", Units: units(t, "20"), WID: 1, ReasonCode: 20}); err != nil {
		t.Fatal(err)
	}
	if rel, err := c.Release(ctx, lot1.RecNo); err != nil || rel.Lot.Hold {
		t.Fatalf("release: %+v, %v", rel, err)
	}

	// The emptied split lot is gone from the lot list unless asked for.
	inStock := recNos(t, c.Lots(ctx, client.LotListOptions{WID: 1, ItemID: "VALVE-1"}))
	withShipped := recNos(t, c.Lots(ctx, client.LotListOptions{WID: 1, ItemID: "VALVE-1", IncludeShipped: true}))
	if !slices.Equal(inStock, []int64{lot1.RecNo}) || !slices.Contains(withShipped, split) || len(withShipped) != 2 {
		t.Fatalf("lots in warehouse 1: %v; with shipped: %v (split lot %d)", inStock, withShipped, split)
	}

	total := level(t, c, "VALVE-1", 0)
	if total.InStock != units(t, "118.25") || !total.OnHold.IsZero() || total.Available != units(t, "118.25") {
		t.Fatalf("total level %+v, want 87.75 + 30.5 in stock", total)
	}

	// The ledger, newest first, explains every change, and its signed units
	// add up to the stock.
	var types []stockroom.TxType
	var sum stockroom.Units
	for tx, err := range c.Transactions(ctx, client.TransactionListOptions{ItemID: "VALVE-1"}) {
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, tx.Type)
		for _, l := range tx.Lines {
			sum = sum.Add(l.Units)
		}
	}
	want := []stockroom.TxType{"release", "issue", "hold", "issue", "move", "move", "move", "receive", "receive"}
	if !slices.Equal(types, want) || sum != total.InStock {
		t.Fatalf("ledger %v summing to %s, want %v summing to %s", types, sum, want, total.InStock)
	}
	first, err := c.GetTransaction(ctx, lot1.TransactionID)
	if err != nil {
		t.Fatal(err)
	}
	if first.Type != stockroom.TxReceive || first.ShortID != "VALVE-1" || len(first.Lines) != 1 ||
		first.Lines[0].RecNo != lot1.RecNo || first.Lines[0].Units != units(t, "100") {
		t.Fatalf("receive transaction %+v", first)
	}
}

// TestQuantitiesAreExact proves that quantities with six decimals, which
// binary floating point cannot hold, arrive and return unchanged.
func TestQuantitiesAreExact(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	c := s.admin(t)
	mustCreateItem(t, c, "WIRE-1")
	for _, q := range []string{"0.1", "0.2", "1234567.000001"} {
		mustReceive(t, c, "WIRE-1", units(t, q), 1, "")
	}
	if got := level(t, c, "WIRE-1", 1).InStock; got != units(t, "1234567.300001") {
		t.Fatalf("in stock %s, want 1234567.300001", got)
	}
}

func recNos(t *testing.T, seq func(func(stockroom.Lot, error) bool)) []int64 {
	t.Helper()
	var out []int64
	for l, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, l.RecNo)
	}
	return out
}

// TestBatch: a batch through the SDK, atomic (a refusal changes nothing and
// names its operation) and not (each answer decoded as its call's).
func TestBatch(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	c := s.admin(t)
	ctx := context.Background()
	mustCreateItem(t, c, "BATCH-1")
	receive := client.ReceiveOp(client.ReceiveRequest{ItemID: "BATCH-1", Units: units(t, "2.5"), WID: 1, ReasonCode: 1})
	tooMany := client.IssueOp(client.IssueRequest{ItemID: "BATCH-1", Units: units(t, "3"), WID: 1, ReasonCode: 20})

	_, err := c.Batch(ctx, client.BatchRequest{Operations: []client.BatchOperation{receive, tooMany}})
	var apiErr *client.Error
	if !errors.As(err, &apiErr) || apiErr.Code != stockroom.ECONFLICT || len(apiErr.Details["operations[1]"]) != 1 {
		t.Fatalf("atomic batch with a refusal: %v", err)
	}
	if got := level(t, c, "BATCH-1", 1); !got.InStock.IsZero() {
		t.Fatalf("a refused batch left %+v", got)
	}

	res, err := c.Batch(ctx, client.BatchRequest{Atomic: new(false), Operations: []client.BatchOperation{receive, tooMany, client.HoldOp(1)}})
	if err != nil || res.Atomic || len(res.Results) != 3 {
		t.Fatalf("batch: %+v %v", res, err)
	}
	var got client.ReceiveResult
	if err := client.DecodeAnswer(res.Results[0], &got); err != nil || got.Lot.Units != units(t, "2.5") {
		t.Fatalf("receipt: %+v %v", got, err)
	}
	if err := client.DecodeAnswer(res.Results[1], &client.DrawResult{}); !errors.As(err, &apiErr) || apiErr.Code != stockroom.ECONFLICT {
		t.Fatalf("issue: %v", err)
	}
	var held client.HoldResult
	if err := client.DecodeAnswer(res.Results[2], &held); err != nil || !held.Lot.Hold {
		t.Fatalf("hold: %+v %v", held, err)
	}
}

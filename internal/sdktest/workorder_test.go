package sdktest_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
	"github.com/stockroom/stockroom/internal/testdb"
)

// TestWorkOrderStory builds kits through the SDK, on each engine: 10 kits
// of 2 frames and 0.5 litre of glue each; the frames are committed, 4 kits
// completed, then the rest with CompleteAll. After each step the stock,
// the product's lots and price, the levels' committed, the ledger and the
// audit agree with what a person would expect.
func TestWorkOrderStory(t *testing.T) {
	t.Parallel()
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) { workOrderStory(t, newServer(t, serverConfig{engine: engine})) })
	}
}

func receivePriced(t *testing.T, c *client.Client, shortID, u, price string) *client.ReceiveResult {
	t.Helper()
	res, err := c.Receive(t.Context(), client.ReceiveRequest{ItemID: shortID, Units: units(t, u), WID: 1, ReasonCode: 1, Spot: "IN", Price: units(t, price)})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func workOrderStory(t *testing.T, s *testServer) {
	ctx := context.Background()
	c := s.admin(t)
	for _, id := range []string{"KIT", "FRAME", "GLUE"} {
		mustCreateItem(t, c, id)
	}
	old := receivePriced(t, c, "FRAME", "8", "3")
	s.advance(time.Second)
	receivePriced(t, c, "FRAME", "20", "4")
	receivePriced(t, c, "GLUE", "6", "10")
	due := time.Date(2030, 5, 1, 0, 0, 0, 0, time.UTC)
	wo, err := c.CreateWorkOrder(ctx, client.WorkOrderRequest{ItemID: "kit", Units: new(units(t, "10")), WID: 1, Spot: new("ASSEMBLY"), DueDate: &due,
		Assignee: new("Kim"), Components: []client.ComponentRequest{{ItemID: "FRAME", Units: new(units(t, "2"))}, {ItemID: "GLUE", Units: new(units(t, "0.5"))}}})
	if err != nil {
		t.Fatal(err)
	}
	if wo.WONo != "WO-000001" || wo.ItemID != "KIT" || wo.Status != stockroom.OrderOpen || len(wo.Lines) != 2 || wo.Lines[0].Units != units(t, "20") ||
		wo.Lines[1].Units != units(t, "5") || wo.Lines[1].PerUnit != units(t, "0.5") || !wo.DueDate.Equal(due) {
		t.Fatalf("placed %+v", wo)
	}
	res, err := c.CommitWorkOrder(ctx, "wo-000001", stockroom.CommitRequest{Lines: []stockroom.AllocLine{{Line: 1}}})
	if err != nil || res.Status != stockroom.OrderInProgress || res.Lines[0].Units != units(t, "20") {
		t.Fatalf("commit %+v, %v", res, err)
	}
	if lv := level(t, c, "FRAME", 1); lv.Committed != units(t, "20") || lv.Available != units(t, "8") {
		t.Fatalf("frames after the commit %+v", lv)
	}
	done, err := c.CompleteWorkOrder(ctx, "WO-000001", units(t, "4"))
	if err != nil {
		t.Fatal(err)
	}
	// 8 frames at 3 from the oldest lot; 2 litres of glue at 10: (24 + 20) / 4.
	if done.Lot.Units != units(t, "4") || done.Lot.Price != units(t, "11") || done.Lot.Spot != "ASSEMBLY" || done.WorkOrder.UnitsCompleted != units(t, "4") ||
		done.Components[0].Lots[0].RecNo != old.RecNo || done.WorkOrder.Lines[0].UnitsCompleted != units(t, "8") {
		t.Fatalf("first completion %+v", done)
	}
	rest, err := c.CompleteAll(ctx, "WO-000001")
	if err != nil {
		t.Fatal(err)
	}
	// 12 frames at 4, 3 litres of glue at 10: (48 + 30) / 6 = 13.
	if rest.Lot.Units != units(t, "6") || rest.Lot.Price != units(t, "13") || rest.WorkOrder.Status != stockroom.OrderClosed {
		t.Fatalf("the rest %+v", rest)
	}
	if _, err := c.CompleteAll(ctx, "WO-000001"); err == nil {
		t.Fatal("CompleteAll of a closed order")
	}
	for id, want := range map[string][2]string{"FRAME": {"8", "0"}, "GLUE": {"1", "0"}, "KIT": {"10", "0"}} {
		if lv := level(t, c, id, 1); lv.InStock != units(t, want[0]) || lv.Committed != units(t, want[1]) {
			t.Errorf("%s: %+v", id, lv)
		}
	}
	// One assemble entry per completion, found by the product and by each
	// component: the product's lot and every consumed lot, each of its item.
	for _, item := range []string{"KIT", "FRAME", "glue"} {
		var entries []stockroom.Transaction
		for tx, err := range c.Transactions(ctx, client.TransactionListOptions{ItemID: item, Type: string(stockroom.TxAssemble)}) {
			if err != nil {
				t.Fatal(err)
			}
			entries = append(entries, tx)
		}
		if len(entries) != 2 || entries[0].ID != rest.TransactionID || entries[1].ID != done.TransactionID || entries[1].ShortID != "KIT" {
			t.Fatalf("%s's assemble entries %+v, want the two completions'", item, entries)
		}
		if l := entries[1].Lines; len(l) != 3 || l[0].ShortID != "KIT" || l[0].Units != units(t, "4") || l[1].ShortID != "FRAME" ||
			l[1].Units != units(t, "-8") || l[2].ShortID != "GLUE" || l[2].Units != units(t, "-2") {
			t.Fatalf("the first completion's lines %+v", l)
		}
	}
	var listed []string
	for o, err := range c.WorkOrders(ctx, client.WorkOrderListOptions{All: true, ItemID: "GLUE"}) {
		if err != nil {
			t.Fatal(err)
		}
		listed = append(listed, o.WONo)
	}
	if !slices.Equal(listed, []string{"WO-000001"}) {
		t.Fatalf("listed %v", listed)
	}
	if found, err := s.svc.Audit(ctx); err != nil || len(found) > 0 {
		t.Fatalf("audit: %+v, %v", found, err)
	}
}

package httpapi_test

import (
	"context"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// TestFiguresPastTheLargestAreRefused: a request whose quantity is within
// the per-request limit can still push a kept figure past what is kept, by
// adding to it. Such a request is refused with 409 before anything changes,
// never answered 500 (it was: bigint out of range on PostgreSQL, a float
// scan error on SQLite), whether the figure is a warehouse's level or an
// item's total over warehouses.
func TestFiguresPastTheLargestAreRefused(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		if err := a.svc.AddWarehouse(context.Background(), service.Operator, stockroom.Warehouse{ID: 3, Name: "Third"}); err != nil {
			t.Fatal(err)
		}
		const trillion = 1_000_000_000_000 // the largest quantity of one request
		receive := func(item string, wid int) response {
			return a.send(t, "POST", "/api/v1/Inventory/Receive", tok, map[string]any{"itemID": item, "units": trillion, "wid": wid, "reasonCode": 1})
		}
		for i := range 8 {
			if r := receive("ITEM-A", 1); r.status != 201 {
				t.Fatalf("receipt %d of a trillion: %d %s", i+1, r.status, r.body)
			}
		}
		before := a.ledgerSize(t, tok)
		for range 2 { // the ninth and tenth
			v := wantError(t, receive("ITEM-A", 1), 409, stockroom.ECONFLICT)
			if v["message"] != stockroom.ErrFigureTooLarge.Message {
				t.Fatalf("refusal says %q", v["message"])
			}
		}
		// The total over warehouses is a kept figure too: 4 trillion in each
		// of two warehouses is the most, whatever warehouse the next one
		// goes to, even one that holds none of the item.
		for _, wid := range []int{2, 3, 2, 3, 2, 3, 2, 3} {
			if r := receive("ITEM-B", wid); r.status != 201 {
				t.Fatalf("ITEM-B into %d: %d %s", wid, r.status, r.body)
			}
		}
		for _, wid := range []int{2, 1} {
			wantError(t, receive("ITEM-B", wid), 409, stockroom.ECONFLICT)
		}
		if n := a.ledgerSize(t, tok); n != before+8 {
			t.Fatalf("the ledger grew by %d, want the 8 receipts that fit", n-before)
		}
		// Each is at the largest figure kept: 8 trillion.
		for _, path := range []string{"/api/v1/Inventory/StockLevels/1?itemID=ITEM-A", "/api/v1/Inventory/StockLevels?itemID=ITEM-B"} {
			p := decode[struct{ Value []stockroom.StockLevel }](t, a.get(t, path, tok))
			if len(p.Value) != 1 || p.Value[0].InStock != stockroom.MaxFigure() {
				t.Fatalf("%s: %+v, want %s in stock", path, p.Value, stockroom.MaxFigure())
			}
		}
		a.auditClean(t)
	})
}

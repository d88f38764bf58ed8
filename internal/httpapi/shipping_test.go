package httpapi_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
)

// shipAPI is purchaseAPI (vendor BOLTCO, customers C-7 and C-8) with
// shipping order SO-1: 5 of ITEM-A from warehouse 1 and 2 of ITEM-B from
// warehouse 2, to customer C-7.
func shipAPI(t *testing.T, a *api) (tok string, so stockroom.ShippingOrder) {
	t.Helper()
	tok = purchaseAPI(t, a)
	so = decode[stockroom.ShippingOrder](t, a.mustSend(t, "POST", "/api/v1/ShippingOrder", tok, shipment("SO-1", 7, 1, 2), 201))
	return tok, so
}

// shipment is a shipping order body to customer (a customerID) of one line
// of ITEM-A per warehouse given, 5 units each; no ("") is left out.
func shipment(no string, customer int64, wids ...int64) map[string]any {
	body := map[string]any{"customerID": customer}
	if no != "" {
		body["soNo"] = no
	}
	var lines []any
	for _, wid := range wids {
		lines = append(lines, map[string]any{"itemID": "ITEM-A", "units": 5, "wid": wid})
	}
	body["lines"] = lines
	return body
}

// setLine sets columns of line n of order no behind the API's back (what
// the allocations of a commit, pack or ship would have done), or the
// order's status when n is 0.
func (a *api) setLine(t *testing.T, no string, n int64, set string) {
	t.Helper()
	table, where := "order_lines", "line_no = "+strconv.FormatInt(n, 10)+" AND order_id"
	if n == 0 {
		table, where = "orders", "id"
	}
	err := a.db.ExecForTest(context.Background(), `UPDATE `+table+` SET `+set+` WHERE `+where+` IN (SELECT id FROM orders WHERE order_no = '`+no+`')`)
	if err != nil {
		t.Fatal(err)
	}
}

func TestShippingOrders(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := purchaseAPI(t, a)
		ledger := decode[page[stockroom.Transaction]](t, a.get(t, "/api/v1/Inventory/Transactions", tok)).TotalCount
		r := a.mustSend(t, "POST", "/api/v1/ShippingOrder", tok, `{"CUSTOMERID":"c-7","shipDate":"2030-02-01","reference":"CUST-1","owner":"C-8",
			"lines":[{"itemID":"item-a","units":5,"wid":1,"lineNo":7},{"ItemID":"ITEM-B","units":2.5,"warehouse":2,"owner":0,"unitPrice":3}]}`, 201)
		so := decode[stockroom.ShippingOrder](t, r)
		l := so.Lines
		if so.SONo != "SO-000001" || r.header.Get("Location") != "/api/v1/ShippingOrder/SO-000001" || so.Customer != "Customer 7" ||
			so.CustomerID != ownerA || so.Status != stockroom.OrderOpen || so.TotalLines != 2 || so.ShipDate == nil || so.Reference != "CUST-1" ||
			len(l) != 2 || l[0].LineNo != 1 || l[1].LineNo != 2 || l[0].Owner != ownerB || l[1].Owner != 0 || l[0].ShortID != "ITEM-A" || l[0].WarehouseName != "Main" ||
			l[1].Units != stockroom.MustParseUnits("2.5") || !l[0].UnitsCommitted.IsZero() || strings.Contains(string(r.body), "unitPrice") {
			t.Fatalf("placed %s", r.body)
		}
		if got := decode[stockroom.ShippingOrder](t, a.get(t, "/api/v1/ShippingOrder/so-000001", tok)); got.Modified != so.Modified || len(got.Lines) != 2 {
			t.Fatalf("GET in another case: %+v", got)
		}
		// A shipping order moves no figure and writes no ledger entry.
		p := decode[page[stockroom.StockLevel]](t, a.get(t, "/api/v1/Inventory/StockLevels?includeZero=true", tok))
		for _, lv := range p.Value {
			if !lv.Committed.IsZero() || !lv.Packed.IsZero() || !lv.OnOrder.IsZero() {
				t.Errorf("level %+v after a shipping order", lv)
			}
		}
		if n := decode[page[stockroom.Transaction]](t, a.get(t, "/api/v1/Inventory/Transactions", tok)).TotalCount; n != ledger {
			t.Errorf("%d ledger entries after a shipping order, %d before", n, ledger)
		}
		t.Run("Update", func(t *testing.T) { testShippingUpdate(t, a, tok) })
		t.Run("Lists", func(t *testing.T) { testShippingLists(t, a, tok) })
		t.Run("Idempotent", func(t *testing.T) {
			keyed := []string{"Authorization", "Bearer " + tok, "Content-Type", "application/json", "Idempotency-Key", "so-key-1"}
			body := `{"customerID":8,"lines":[{"itemID":"ITEM-B","units":1,"warehouse":1}]}`
			first, again := a.doBody(t, "POST", "/api/v1/ShippingOrder", body, keyed...), a.doBody(t, "POST", "/api/v1/ShippingOrder", body, keyed...)
			if first.status != 201 || string(again.body) != string(first.body) || again.header.Get("Idempotent-Replayed") != "true" ||
				again.header.Get("Location") != first.header.Get("Location") {
				t.Fatalf("first %d %s, again %d %s", first.status, first.body, again.status, again.body)
			}
		})
		a.auditClean(t)
	})
}

func testShippingUpdate(t *testing.T, a *api, tok string) {
	r := a.mustSend(t, "PUT", "/api/v1/ShippingOrder", tok, map[string]any{"soNo": "so-000001", "remark": "dock 3", "shipDate": "2030-02-03",
		"lines": []any{map[string]any{"lineNo": 1, "units": 8, "itemID": "item-a", "wid": 1}, map[string]any{"itemID": "ITEM-A", "units": 3, "wid": 2}}}, 200)
	so := decode[stockroom.ShippingOrder](t, r)
	if so.Remark != "dock 3" || len(so.Lines) != 3 || so.Lines[0].Units != stockroom.Whole(8) || so.Lines[2].LineNo != 3 ||
		so.Lines[2].Warehouse != 2 || so.Lines[2].Owner != 0 || so.ShipDate.Day() != 3 || so.Reference != "CUST-1" {
		t.Fatalf("updated %s", r.body)
	}
	same := decode[stockroom.ShippingOrder](t, a.mustSend(t, "PUT", "/api/v1/ShippingOrder", tok, map[string]any{"soNo": "SO-000001", "remark": "dock 3"}, 200))
	if !same.Modified.Equal(so.Modified) {
		t.Errorf("a change that changes nothing moved modified from %s to %s", so.Modified, same.Modified)
	}
	// Units already committed, packed or shipped are a floor.
	a.setLine(t, "SO-000001", 1, "committed = 3000000, packed = 2000000, shipped = 1000000")
	defer a.setLine(t, "SO-000001", 1, "committed = 0, packed = 0, shipped = 0")
	v := wantError(t, a.send(t, "PUT", "/api/v1/ShippingOrder", tok, map[string]any{"soNo": "SO-000001",
		"lines": []any{map[string]any{"lineNo": 1, "units": 5}}}), 409, stockroom.ECONFLICT)
	if msg := v["message"].(string); !strings.Contains(msg, "Line 1 cannot be cut to 5 units: 6 are committed, packed or shipped.") {
		t.Errorf("message %q", msg)
	}
	got := decode[stockroom.ShippingOrder](t, a.mustSend(t, "PUT", "/api/v1/ShippingOrder", tok, map[string]any{"soNo": "SO-000001",
		"lines": []any{map[string]any{"lineNo": 1, "units": 6}}}, 200))
	if l := got.Lines[0]; l.Units != stockroom.Whole(6) || l.UnitsCommitted != stockroom.Whole(3) || l.UnitsPacked != stockroom.Whole(2) ||
		l.UnitsShipped != stockroom.Whole(1) {
		t.Fatalf("line 1 %+v", l)
	}
}

func testShippingLists(t *testing.T, a *api, tok string) {
	a.mustSend(t, "POST", "/api/v1/ShippingOrder", tok, map[string]any{"soNo": "L-2", "customerID": "C-8", "orderDate": "2030-01-05",
		"lines": []any{map[string]any{"itemID": "ITEM-B", "units": 1, "warehouse": 2, "owner": ownerA}}}, 201)
	a.mustSend(t, "POST", "/api/v1/ShippingOrder", tok, map[string]any{"soNo": "L-3", "customerID": 8, "orderDate": "2030-01-07",
		"lines": []any{map[string]any{"itemID": "ITEM-A", "units": 1, "warehouse": 1}}}, 201)
	a.setLine(t, "L-3", 0, "status = 'Closed'")
	r := a.get(t, "/api/v1/ShippingOrder/All?PageSize=1000&sort=SONO&direction=desc", tok)
	all := decode[page[stockroom.ShippingOrder]](t, r)
	if r.header.Get("X-Page-Size") != "50" || all.TotalCount != 3 || all.Value[0].SONo != "SO-000001" || all.Value[2].SONo != "L-2" ||
		all.Value[0].Lines != nil || all.Value[0].TotalLines != 3 {
		t.Fatalf("all orders %s", r.body)
	}
	for query, want := range map[string][]string{
		"":                         {"SO-000001", "L-2"},
		"/All?status=closed":       {"L-3"},
		"/All?itemID=item-b":       {"SO-000001", "L-2"},
		"/All?wid=1&sort=shipDate": {"SO-000001", "L-3"},
		"/All?owner=C-7":           {"L-2"},
		"/All?owner=8":             {"SO-000001"},
		"/All?startDate=2030-01-05&endDate=2030-01-06": {"L-2"},
		"/All?endDate=2030-01-07&sort=orderDate":       {"SO-000001", "L-2", "L-3"},
		"/All?modifiedSince=2999-01-01":                nil,
		"/All?sort=customer&direction=DESC&pageSize=1": {"L-3"},
	} {
		p := decode[page[stockroom.ShippingOrder]](t, a.get(t, "/api/v1/ShippingOrder"+query, tok))
		var got []string
		for _, o := range p.Value {
			got = append(got, o.SONo)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: %v, want %v", query, got, want)
		}
	}
	if p := decode[page[stockroom.ShippingOrder]](t, a.get(t, "/api/v1/ShippingOrder/All?owner=0", tok)); p.TotalCount != 2 || p.Value[0].TotalLines != 2 {
		t.Errorf("the house's lines: %+v", p)
	}
}

package httpapi_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// purchaseAPI is stockAPI with vendor BOLTCO and customers 7 and 8; it
// returns the administrator's token.
func purchaseAPI(t *testing.T, a *api) string {
	t.Helper()
	tok := stockAPI(t, a)
	a.mustPost(t, tok, "/api/v1/Vendor", map[string]any{"shortID": "BOLTCO", "name": "Boltco Supplies"}, 201)
	a.addCustomer(t, ownerA)
	a.addCustomer(t, ownerB)
	return tok
}

// order is a purchase order body of one line of ITEM-A per warehouse
// given, 10 units at 2 each.
func order(no string, wids ...int64) map[string]any {
	var lines []any
	for _, wid := range wids {
		lines = append(lines, map[string]any{"itemID": "ITEM-A", "units": 10, "unitPrice": 2, "warehouse": wid})
	}
	o := map[string]any{"vendorID": "BOLTCO", "lines": lines}
	if no != "" {
		o["poNo"] = no
	}
	return o
}

// onOrder is the onOrder of an item in a warehouse, summed over owners.
func (a *api) onOrder(t *testing.T, tok, itemID string, wid int64) any {
	t.Helper()
	p := decode[page[stockroom.StockLevel]](t, a.get(t, fmt.Sprintf("/api/v1/Inventory/StockLevels/%d?itemID=%s", wid, itemID), tok))
	if len(p.Value) == 0 {
		return "0"
	}
	return p.Value[0].OnOrder.String()
}

func TestPurchaseOrders(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := purchaseAPI(t, a)
		r := a.mustSend(t, "POST", "/api/v1/PurchaseOrder", tok, `{"VENDORID":"boltco","expectedDate":"2025-01-22","reference":"REQ-1","remark":"Dock 3",
			"lines":[{"itemID":"item-a","units":10,"unitPrice":0.25,"wid":1},{"ItemID":"ITEM-B","units":4.5,"warehouse":2,"owner":"C-7"}]}`, 201)
		po := decode[stockroom.PurchaseOrder](t, r)
		if po.PONo != "PO-000001" || r.header.Get("Location") != "/api/v1/PurchaseOrder/PO-000001" || po.Vendor != "Boltco Supplies" ||
			po.Status != stockroom.OrderOpen || po.TotalLines != 2 || po.TotalValue != stockroom.MustParseUnits("2.5") ||
			po.ExpectedDate == nil || po.Reference != "REQ-1" || po.Remark != "Dock 3" || len(po.Lines) != 2 || po.Lines[1].Owner != ownerA ||
			po.Lines[0].ShortID != "ITEM-A" || po.Lines[0].WarehouseName != "Main" || po.Lines[1].UnitsDue != stockroom.MustParseUnits("4.5") {
			t.Fatalf("created %s", r.body)
		}
		if got := decode[stockroom.PurchaseOrder](t, a.get(t, "/api/v1/PurchaseOrder/po-000001", tok)); got.Modified != po.Modified || got.Remark != "Dock 3" || len(got.Lines) != 2 {
			t.Fatalf("GET in another case: %+v", got)
		}
		if a.onOrder(t, tok, "ITEM-A", 1) != "10" || a.onOrder(t, tok, "ITEM-B", 2) != "4.5" {
			t.Fatal("onOrder did not count the order")
		}
		t.Run("ReceiveAgainstLine", func(t *testing.T) { testReceiveAgainstLine(t, a, tok) })
		t.Run("Update", func(t *testing.T) { testPurchaseUpdate(t, a, tok) })
		t.Run("CloseAndCancel", func(t *testing.T) { testPurchaseEnd(t, a, tok) })
		t.Run("Lists", func(t *testing.T) { testPurchaseLists(t, a, tok) })
		t.Run("Idempotent", func(t *testing.T) {
			key := []string{"Authorization", "Bearer " + tok, "Content-Type", "application/json", "Idempotency-Key", "po-key-1"}
			body := `{"vendorID":"BOLTCO","lines":[{"itemID":"ITEM-A","units":1,"warehouse":1}]}`
			first := a.doBody(t, "POST", "/api/v1/PurchaseOrder", body, key...)
			again := a.doBody(t, "POST", "/api/v1/PurchaseOrder", body, key...)
			if first.status != 201 || again.status != 201 || string(first.body) != string(again.body) || again.header.Get("Idempotent-Replayed") != "true" ||
				again.header.Get("Location") != first.header.Get("Location") {
				t.Fatalf("first %d %s, again %d %s", first.status, first.body, again.status, again.body)
			}
		})
		a.auditClean(t)
	})
}

func testReceiveAgainstLine(t *testing.T, a *api, tok string) {
	v := a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 4, "wid": 1, "reasonCode": 1,
		"poNo": "po-000001", "line": 1}, 201)
	lot := v["lot"].(map[string]any)
	if lot["price"] != 0.25 || lot["supplier"] == 0.0 || lot["reference"] != "PO-000001" || lot["line"] != 1.0 || lot["owner"] != 0.0 {
		t.Fatalf("lot %v", lot)
	}
	tx := decode[stockroom.Transaction](t, a.get(t, fmt.Sprintf("/api/v1/Inventory/Transactions/%v", v["transactionID"]), tok))
	if tx.Details["poNo"] != "PO-000001" || tx.Details["line"] != 1.0 || tx.Details["price"] != nil || len(tx.Figures) != 1 ||
		tx.Figures[0].OnOrder != stockroom.Whole(-4) || tx.Reference != "PO-000001" {
		t.Fatalf("ledger %+v", tx)
	}
	// The order's number as reference, with a line: the same. The line's
	// owner is the stock's, not the item's default.
	v = a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-B", "units": 1, "wid": 2, "reasonCode": 1,
		"reference": "PO-000001", "line": 2, "price": 9}, 201)
	if lot := v["lot"].(map[string]any); lot["owner"] != float64(ownerA) || lot["price"] != 9.0 {
		t.Fatalf("lot against line 2: %v", lot)
	}
	// A reference that names no order is only a reference.
	a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "reasonCode": 1,
		"reference": "PO-4711", "line": 1}, 201)
	po := decode[stockroom.PurchaseOrder](t, a.get(t, "/api/v1/PurchaseOrder/PO-000001", tok))
	if po.Status != stockroom.OrderPartial || po.Lines[0].UnitsReceived != stockroom.Whole(4) || po.Lines[1].UnitsReceived != stockroom.Whole(1) {
		t.Fatalf("order after receipts %+v", po)
	}
	if a.onOrder(t, tok, "ITEM-A", 1) != "6" || a.onOrder(t, tok, "ITEM-B", 2) != "3.5" {
		t.Fatal("onOrder did not follow the receipts")
	}
	for _, tc := range []struct {
		body   map[string]any
		status int
		fields []string
	}{
		{map[string]any{"poNo": "PO-000001"}, 400, []string{"line"}},
		{map[string]any{"poNo": "PO-9", "line": 1}, 404, nil},
		{map[string]any{"poNo": "PO-000001", "line": 9}, 404, nil},
		{map[string]any{"poNo": "PO-000001", "line": 2}, 400, []string{"itemID", "wid"}},
		{map[string]any{"poNo": "PO-000001", "line": 1, "owner": ownerA}, 400, []string{"owner"}},
		{map[string]any{"poNo": strings.Repeat("P", 51), "line": 1}, 400, []string{"poNo"}},
	} {
		body := map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "reasonCode": 1}
		for k, v := range tc.body {
			body[k] = v
		}
		r := a.send(t, "POST", "/api/v1/Inventory/Receive", tok, body)
		if tc.status == 404 {
			wantError(t, r, 404, stockroom.ENOTFOUND)
			continue
		}
		if got := detailFields(wantError(t, r, 400, stockroom.EINVALID)); !slices.Equal(got, tc.fields) {
			t.Errorf("%v: details %v, want %v", tc.body, got, tc.fields)
		}
	}
}

func testPurchaseUpdate(t *testing.T, a *api, tok string) {
	r := a.mustSend(t, "PUT", "/api/v1/PurchaseOrder", tok, map[string]any{"poNo": "po-000001", "reference": "REQ-2", "remark": "urgent",
		"lines": []any{map[string]any{"lineNo": 1, "units": 12, "unitPrice": 0.5}, map[string]any{"itemID": "ITEM-A", "units": 3, "wid": 2}}}, 200)
	po := decode[stockroom.PurchaseOrder](t, r)
	if po.Reference != "REQ-2" || po.Remark != "urgent" || len(po.Lines) != 3 || po.Lines[0].Units != stockroom.Whole(12) || po.Lines[0].UnitsDue != stockroom.Whole(8) ||
		po.Lines[2].LineNo != 3 || po.Lines[2].Warehouse != 2 || po.Status != stockroom.OrderPartial {
		t.Fatalf("updated %s", r.body)
	}
	if a.onOrder(t, tok, "ITEM-A", 1) != "8" || a.onOrder(t, tok, "ITEM-A", 2) != "3" {
		t.Fatal("onOrder did not follow the change")
	}
	txs := decode[page[stockroom.Transaction]](t, a.get(t, "/api/v1/Inventory/Transactions?type=ORDER&pageSize=2", tok))
	if len(txs.Value) != 2 || txs.Value[0].Units != stockroom.Whole(3) || txs.Value[1].Units != stockroom.Whole(2) || txs.Value[0].Details["line"] != 3.0 {
		t.Fatalf("order ledger %+v", txs.Value)
	}
	for _, tc := range []struct {
		lines  []any
		status int
		fields []string
	}{
		{[]any{map[string]any{"lineNo": 1, "units": 3}}, 409, nil}, // 4 received
		{[]any{map[string]any{"lineNo": 9, "units": 3}}, 400, []string{"lines[0].lineNo"}},
		{[]any{map[string]any{"lineNo": 1, "itemID": "ITEM-B", "warehouse": 2, "owner": ownerA}}, 400,
			[]string{"lines[0].itemID", "lines[0].owner", "lines[0].warehouse"}},
		{[]any{map[string]any{"lineNo": 1, "units": 20}, map[string]any{"lineNo": 1, "units": 30}}, 400, []string{"lines[1].lineNo"}},
		{[]any{map[string]any{"units": 0}}, 400, []string{"lines[0].itemID", "lines[0].units", "lines[0].warehouse"}},
	} {
		r := a.send(t, "PUT", "/api/v1/PurchaseOrder", tok, map[string]any{"poNo": "PO-000001", "lines": tc.lines})
		if tc.status == 409 {
			wantError(t, r, 409, stockroom.ECONFLICT)
			continue
		}
		if got := detailFields(wantError(t, r, 400, stockroom.EINVALID)); !slices.Equal(got, tc.fields) {
			t.Errorf("%v: details %v, want %v", tc.lines, got, tc.fields)
		}
	}
	if got := detailFields(wantError(t, a.send(t, "PUT", "/api/v1/PurchaseOrder", tok, `{"remark":1}`), 400, stockroom.EINVALID)); !slices.Equal(got, []string{"poNo", "remark"}) {
		t.Errorf("PUT without poNo: %v", got)
	}
	wantError(t, a.send(t, "PUT", "/api/v1/PurchaseOrder", tok, map[string]any{"poNo": "NOPE", "remark": "x"}), 404, stockroom.ENOTFOUND)
	wantError(t, a.send(t, "PUT", "/api/v1/PurchaseOrder", tok, map[string]any{"poNo": "PO-000001", "vendorID": ownerA}), 400, stockroom.EINVALID)
}

func testPurchaseEnd(t *testing.T, a *api, tok string) {
	wantError(t, a.send(t, "POST", "/api/v1/PurchaseOrder/PO-000001/Cancel", tok, nil), 409, stockroom.ECONFLICT)
	po := decode[stockroom.PurchaseOrder](t, a.mustSend(t, "POST", "/api/v1/PurchaseOrder/PO-000001/Close", tok, nil, 200))
	if po.Status != stockroom.OrderClosed || po.Lines[0].UnitsDue.Sign() != 0 || a.onOrder(t, tok, "ITEM-A", 1) != "0" || a.onOrder(t, tok, "ITEM-B", 2) != "0" {
		t.Fatalf("closed %+v", po)
	}
	txs := decode[page[stockroom.Transaction]](t, a.get(t, "/api/v1/Inventory/Transactions?type=order-close", tok))
	if txs.TotalCount != 3 || txs.Value[2].Figures[0].OnOrder != stockroom.Whole(-8) {
		t.Fatalf("close ledger %+v", txs.Value)
	}
	wantError(t, a.send(t, "POST", "/api/v1/PurchaseOrder/PO-000001/Close", tok, nil), 409, stockroom.ECONFLICT)
	wantError(t, a.send(t, "PUT", "/api/v1/PurchaseOrder", tok, map[string]any{"poNo": "PO-000001", "remark": "x"}), 409, stockroom.ECONFLICT)
	wantError(t, a.send(t, "POST", "/api/v1/Inventory/Receive", tok, map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1,
		"reasonCode": 1, "poNo": "PO-000001", "line": 1}), 409, stockroom.ECONFLICT)
	wantError(t, a.send(t, "POST", "/api/v1/PurchaseOrder/NOPE/Close", tok, nil), 404, stockroom.ENOTFOUND)
	a.mustSend(t, "POST", "/api/v1/PurchaseOrder", tok, order("C-1", 1), 201)
	if po := decode[stockroom.PurchaseOrder](t, a.mustSend(t, "POST", "/api/v1/PurchaseOrder/c-1/Cancel", tok, nil, 200)); po.Status != stockroom.OrderCanceled {
		t.Fatalf("canceled %+v", po)
	}
	wantError(t, a.send(t, "POST", "/api/v1/PurchaseOrder/C-1/Cancel", tok, nil), 409, stockroom.ECONFLICT)
	if a.onOrder(t, tok, "ITEM-A", 1) != "0" {
		t.Fatal("a canceled order still counts")
	}
}

func testPurchaseLists(t *testing.T, a *api, tok string) {
	a.mustSend(t, "POST", "/api/v1/PurchaseOrder", tok, map[string]any{"poNo": "L-1", "vendorID": "BOLTCO", "orderDate": "2030-01-05",
		"lines": []any{map[string]any{"itemID": "ITEM-B", "units": 1, "warehouse": 2}}}, 201)
	open := decode[page[stockroom.PurchaseOrder]](t, a.get(t, "/api/v1/PurchaseOrder?pageSize=1000", tok))
	if open.TotalCount != 1 || open.Value[0].PONo != "L-1" || open.Value[0].Lines != nil {
		t.Fatalf("open orders %+v", open)
	}
	r := a.get(t, "/api/v1/PurchaseOrder/All?PageSize=1000&sort=poNo&direction=desc", tok)
	all := decode[page[stockroom.PurchaseOrder]](t, r)
	if r.header.Get("X-Page-Size") != "50" || all.TotalCount != 3 || all.Value[0].PONo != "PO-000001" || all.Value[2].PONo != "C-1" {
		t.Fatalf("all orders %d %s", all.TotalCount, r.body)
	}
	for query, want := range map[string]int64{
		"status=closed":                   1,
		"itemID=item-b":                   2,
		"wid=2&status=Open":               1,
		"owner=C-7":                       1,
		"startDate=2030-01-05":            1,
		"endDate=2030-01-04":              all.TotalCount - 1,
		"endDate=2030-01-05":              all.TotalCount,
		"startDate=2030-01-06":            0,
		"modifiedSince=2999-01-01":        0,
		"startDate=2030-01-05T00:00:01Z":  0,
		"itemID=nothing":                  0,
		"status=Canceled&sort=expectedDa": 1,
	} {
		if p := decode[page[stockroom.PurchaseOrder]](t, a.get(t, "/api/v1/PurchaseOrder/All?"+query, tok)); p.TotalCount != want {
			t.Errorf("?%s: %d orders, want %d", query, p.TotalCount, want)
		}
	}
	for query, fields := range map[string][]string{
		"pageSize=0":                  {"pageSize"},
		"status=shipped&startDate=no": {"startDate", "status"},
		"endDate=x&wid=x":             {"endDate", "wid"},
		"owner=99":                    {"owner"},
	} {
		if got := detailFields(wantError(t, a.get(t, "/api/v1/PurchaseOrder?"+query, tok), 400, stockroom.EINVALID)); !slices.Equal(got, fields) {
			t.Errorf("?%s: details %v, want %v", query, got, fields)
		}
	}
	wantError(t, a.get(t, "/api/v1/PurchaseOrder?wid=99", tok), 404, stockroom.ENOTFOUND)
	wantError(t, a.get(t, "/api/v1/PurchaseOrder/NOPE", tok), 404, stockroom.ENOTFOUND)
}

// TestPurchaseOrderRefusals covers the 4xx answers of the order endpoints.
func TestPurchaseOrderRefusals(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := purchaseAPI(t, a)
		a.mustSend(t, "POST", "/api/v1/PurchaseOrder", tok, order("BOTH", 1, 2), 201)
		a.mustSend(t, "POST", "/api/v1/PurchaseOrder", tok, order("TWO", 2), 201)
		t.Run("Authentication", func(t *testing.T) {
			for _, r := range []response{a.do(t, "GET", "/api/v1/PurchaseOrder", nil), a.do(t, "GET", "/api/v1/PurchaseOrder/BOTH", nil),
				a.doBody(t, "POST", "/api/v1/PurchaseOrder", "{}", "Content-Type", "application/json"),
				a.do(t, "POST", "/api/v1/PurchaseOrder/BOTH/Close", nil)} {
				wantError(t, r, 401, stockroom.EUNAUTHORIZED)
			}
		})
		t.Run("Permissions", func(t *testing.T) { testPurchasePermissions(t, a) })
		t.Run("Body", func(t *testing.T) {
			wantError(t, a.send(t, "POST", "/api/v1/PurchaseOrder", tok, `[1]`), 400, stockroom.EBADREQUEST)
			wantError(t, a.send(t, "PUT", "/api/v1/PurchaseOrder", tok, `{"poNo":`), 400, stockroom.EBADREQUEST)
		})
		t.Run("Validation", func(t *testing.T) { testPurchaseValidation(t, a, tok) })
		t.Run("Scope", func(t *testing.T) { testPurchaseScope(t, a, tok) })
		t.Run("Existence", func(t *testing.T) {
			body := order("", 1)
			body["lines"].([]any)[0].(map[string]any)["itemID"] = "NO-SUCH"
			wantError(t, a.send(t, "POST", "/api/v1/PurchaseOrder", tok, body), 404, stockroom.ENOTFOUND)
			body = order("", 1)
			body["lines"].([]any)[0].(map[string]any)["warehouse"] = 99
			wantError(t, a.send(t, "POST", "/api/v1/PurchaseOrder", tok, body), 404, stockroom.ENOTFOUND)
		})
		t.Run("State", func(t *testing.T) {
			v := wantError(t, a.send(t, "POST", "/api/v1/PurchaseOrder", tok, order("both", 1)), 409, stockroom.ECONFLICT)
			if !strings.Contains(v["message"].(string), "exists already") {
				t.Errorf("duplicate: %v", v)
			}
			a.mustSend(t, "DELETE", "/api/v1/Item/ITEM-B", tok, nil, 200)
			body := order("", 1)
			body["lines"] = append(body["lines"].([]any), map[string]any{"itemID": "ITEM-B", "units": 1, "warehouse": 1})
			v = wantError(t, a.send(t, "POST", "/api/v1/PurchaseOrder", tok, body), 409, stockroom.ECONFLICT)
			if !strings.Contains(v["message"].(string), `Line 2: item "ITEM-B" is discontinued`) {
				t.Errorf("discontinued item: %v", v)
			}
			a.setCustomerActive(t, ownerB, false)
			body = order("", 1)
			body["lines"].([]any)[0].(map[string]any)["owner"] = ownerB
			wantError(t, a.send(t, "POST", "/api/v1/PurchaseOrder", tok, body), 409, stockroom.ECONFLICT)
		})
		a.auditClean(t)
	})
}

func testPurchasePermissions(t *testing.T, a *api) {
	readOnly := a.clientToken(t, true, stockroom.AllPermissions...)
	reader := a.clientToken(t, false, 11)
	writer := a.clientToken(t, false, 301)
	for _, tc := range []struct {
		tok, method, path string
		body              any
		msg               string
	}{
		{readOnly, "POST", "/api/v1/PurchaseOrder", order("", 1), stockroom.MsgReadOnly},
		{readOnly, "PUT", "/api/v1/PurchaseOrder", `{}`, stockroom.MsgReadOnly},
		{readOnly, "POST", "/api/v1/PurchaseOrder/BOTH/Close", nil, stockroom.MsgReadOnly},
		{reader, "POST", "/api/v1/PurchaseOrder", `not json`, stockroom.MsgNoPermission},
		{reader, "PUT", "/api/v1/PurchaseOrder", order("BOTH", 1), stockroom.MsgNoPermission},
		{reader, "POST", "/api/v1/PurchaseOrder/BOTH/Cancel", nil, stockroom.MsgNoPermission},
		{writer, "GET", "/api/v1/PurchaseOrder", nil, stockroom.MsgNoPermission},
		{writer, "GET", "/api/v1/PurchaseOrder/All?pageSize=0", nil, stockroom.MsgNoPermission},
		{writer, "GET", "/api/v1/PurchaseOrder/BOTH", nil, stockroom.MsgNoPermission},
	} {
		if v := wantError(t, a.send(t, tc.method, tc.path, tc.tok, tc.body), 403, stockroom.EFORBIDDEN); v["message"] != tc.msg {
			t.Errorf("%s %s: %v, want %q", tc.method, tc.path, v["message"], tc.msg)
		}
	}
}

func testPurchaseValidation(t *testing.T, a *api, tok string) {
	for body, want := range map[string][]string{
		`{}`: {"lines", "vendorID"},
		`{"vendorID":"NOPE","lines":[{"itemID":"ITEM-A","units":1,"warehouse":1}]}`:                             {"vendorID"},
		`{"vendorID":7,"lines":[{"itemID":"ITEM-A","units":1,"warehouse":1}]}`:                                  {"vendorID"},
		`{"vendorID":"","poNo":"all","lines":[{"itemID":"ITEM-A","units":1,"warehouse":1}]}`:                    {"poNo", "vendorID"},
		`{"vendorID":"BOLTCO","lines":[{"units":0,"unitPrice":-1,"owner":"NOBODY"},7]}`:                         {"lines[0].itemID", "lines[0].owner", "lines[0].unitPrice", "lines[0].units", "lines[0].warehouse", "lines[1]", "lines[1].itemID", "lines[1].units", "lines[1].warehouse"},
		`{"vendorID":"BOLTCO","lines":{}}`:                                                                      {"lines"},
		`{"vendorID":"BOLTCO","lines":[{"itemID":"ITEM-A","units":"1","warehouse":1,"wid":2}]}`:                 {"lines[0].units", "lines[0].wid"},
		`{"vendorID":"BOLTCO","lines":[{"itemID":"ITEM-A","units":1,"Units":2,"warehouse":1}]}`:                 {"lines[0].Units", "lines[0].units"},
		`{"vendorID":"BOLTCO","orderDate":"soon","lines":[{"itemID":"ITEM-A","units":1,"warehouse":1}]}`:        {"orderDate"},
		`{"vendorID":"BOLTCO","lines":[{"itemID":"ITEM-A","units":1000000000000,"unitPrice":9,"warehouse":1}]}`: {"lines"},
	} {
		got := detailFields(wantError(t, a.send(t, "POST", "/api/v1/PurchaseOrder", tok, body), 400, stockroom.EINVALID))
		if !slices.Equal(got, want) {
			t.Errorf("%s: details %v, want %v", body, got, want)
		}
	}
	a.mustSend(t, "DELETE", "/api/v1/Vendor/BOLTCO", tok, nil, 200)
	defer a.mustSend(t, "PUT", "/api/v1/Vendor", tok, map[string]any{"shortID": "BOLTCO", "active": true}, 200)
	if got := detailFields(wantError(t, a.send(t, "POST", "/api/v1/PurchaseOrder", tok, order("", 1)), 400, stockroom.EINVALID)); !slices.Equal(got, []string{"vendorID"}) {
		t.Errorf("inactive vendor: %v", got)
	}
}

func testPurchaseScope(t *testing.T, a *api, tok string) {
	id, secret := a.addClient(t, service.NewClient{Permissions: stockroom.AllPermissions, Scope: stockroom.Scope{IDs: []int64{1}}})
	scoped := a.token(t, id, secret)
	id, secret = a.addClient(t, service.NewClient{Permissions: stockroom.AllPermissions, Scope: stockroom.Scope{All: true},
		Owners: &stockroom.Scope{IDs: []int64{ownerA}}})
	limited := a.token(t, id, secret)
	forbidden := func(r response, msg string) {
		t.Helper()
		if v := wantError(t, r, 403, stockroom.EFORBIDDEN); v["message"] != msg {
			t.Errorf("message %v, want %q", v["message"], msg)
		}
	}
	forbidden(a.send(t, "POST", "/api/v1/PurchaseOrder", scoped, order("", 1, 2)), stockroom.MsgOutOfScope)
	forbidden(a.send(t, "POST", "/api/v1/PurchaseOrder", scoped, order("", 99)), stockroom.MsgOutOfScope)
	forbidden(a.send(t, "POST", "/api/v1/PurchaseOrder/BOTH/Close", scoped, nil), stockroom.MsgOutOfScope)
	forbidden(a.send(t, "PUT", "/api/v1/PurchaseOrder", scoped, map[string]any{"poNo": "BOTH", "remark": "x"}), stockroom.MsgOutOfScope)
	forbidden(a.get(t, "/api/v1/PurchaseOrder?wid=2", scoped), stockroom.MsgOutOfScope)
	// A scoped client sees the lines in its scope only, and not at all an
	// order without one.
	both := decode[stockroom.PurchaseOrder](t, a.get(t, "/api/v1/PurchaseOrder/BOTH", scoped))
	if len(both.Lines) != 1 || both.TotalLines != 1 || both.TotalValue != stockroom.Whole(20) {
		t.Fatalf("BOTH as warehouse 1 sees it: %+v", both)
	}
	wantError(t, a.get(t, "/api/v1/PurchaseOrder/TWO", scoped), 404, stockroom.ENOTFOUND)
	wantError(t, a.send(t, "POST", "/api/v1/PurchaseOrder/TWO/Close", scoped, nil), 404, stockroom.ENOTFOUND)
	wantError(t, a.send(t, "POST", "/api/v1/Inventory/Receive", scoped, map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1,
		"reasonCode": 1, "poNo": "TWO", "line": 1}), 404, stockroom.ENOTFOUND)
	for _, p := range []string{"/api/v1/PurchaseOrder/All", "/api/v1/PurchaseOrder/All?itemID=ITEM-A"} {
		if list := decode[page[stockroom.PurchaseOrder]](t, a.get(t, p, scoped)); slices.ContainsFunc(list.Value, func(o stockroom.PurchaseOrder) bool { return o.PONo == "TWO" }) {
			t.Errorf("%s lists TWO to a client of warehouse 1", p)
		}
	}
	// A client of owner A: other owners' lines are invisible, naming one is
	// 403, and so is ordering for the house; a line naming no owner is
	// owner A's (below).
	body := order("", 1)
	for _, other := range []any{ownerB, stockroom.HouseOwner} {
		body["lines"].([]any)[0].(map[string]any)["owner"] = other
		forbidden(a.send(t, "POST", "/api/v1/PurchaseOrder", limited, body), stockroom.MsgOwnerOutOfScope)
	}
	forbidden(a.get(t, "/api/v1/PurchaseOrder?owner=C-8", limited), stockroom.MsgOwnerOutOfScope)
	wantError(t, a.get(t, "/api/v1/PurchaseOrder/BOTH", limited), 404, stockroom.ENOTFOUND)
	body["lines"].([]any)[0].(map[string]any)["owner"] = "c-7"
	mine := decode[stockroom.PurchaseOrder](t, a.mustSend(t, "POST", "/api/v1/PurchaseOrder", limited, body, 201))
	if mine.Lines[0].Owner != ownerA {
		t.Fatalf("owned order %+v", mine)
	}
	if list := decode[page[stockroom.PurchaseOrder]](t, a.get(t, "/api/v1/PurchaseOrder/All", limited)); list.TotalCount != 1 || list.Value[0].PONo != mine.PONo {
		t.Fatalf("orders owner A sees: %+v", list)
	}
	a.mustSend(t, "POST", "/api/v1/PurchaseOrder/"+mine.PONo+"/Close", limited, nil, 200)
	if dflt := decode[stockroom.PurchaseOrder](t, a.mustSend(t, "POST", "/api/v1/PurchaseOrder", limited, order("", 1), 201)); dflt.Lines[0].Owner != ownerA {
		t.Errorf("a line naming no owner by a client of owner A only: %+v", dflt.Lines[0])
	}
}

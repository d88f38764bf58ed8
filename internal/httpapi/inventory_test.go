package httpapi_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// stockAPI is an API with warehouses 1 (Main) and 2, items ITEM-A and
// ITEM-B, and an administrator token.
func stockAPI(t *testing.T, a *api) string {
	t.Helper()
	if err := a.svc.AddWarehouse(context.Background(), service.Operator, stockroom.Warehouse{ID: 2, Name: "Second"}); err != nil {
		t.Fatal(err)
	}
	tok := a.token(t, a.adminID, a.adminSecret)
	a.createItem(t, tok, map[string]any{"shortID": "ITEM-A"})
	a.createItem(t, tok, map[string]any{"shortID": "ITEM-B"})
	return tok
}

func (a *api) post(t *testing.T, tok, path string, body any) (response, map[string]any) {
	t.Helper()
	r := a.send(t, "POST", path, tok, body)
	var v map[string]any
	if r.status < 300 {
		v = decode[map[string]any](t, r)
	}
	return r, v
}

func (a *api) mustPost(t *testing.T, tok, path string, body any, status int) map[string]any {
	t.Helper()
	r, v := a.post(t, tok, path, body)
	if r.status != status {
		t.Fatalf("POST %s %v: %d %s", path, body, r.status, r.body)
	}
	return v
}

// auditClean fails the test if the inventory's invariants are broken.
func (a *api) auditClean(t *testing.T) {
	t.Helper()
	found, err := a.svc.Audit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range found {
		t.Error("audit:", d.What)
	}
}

func TestStockTransactions(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		vendor := a.mustPost(t, tok, "/api/v1/Vendor", map[string]any{"shortID": "V-STOCK", "name": "Stock Vendor"}, 201)["vendorID"].(float64)
		customer := a.mustPost(t, tok, "/api/v1/Customer", map[string]any{"shortID": "C-STOCK", "name": "Stock Customer"}, 201)["customerID"].(float64)
		t.Run("SupplierAndShipToNameParties", func(t *testing.T) {
			for _, tc := range []struct {
				path, field string
				id          float64
				want        string
			}{
				{"/api/v1/Inventory/Receive", "supplier", customer, "is not a vendor (see GET /Vendor)"},
				{"/api/v1/Inventory/Receive", "supplier", 9999, "is not a vendor (see GET /Vendor)"},
				{"/api/v1/Inventory/Issue", "shipto", vendor, "is not a customer (see GET /Customer)"},
				{"/api/v1/Inventory/Issue", "shipto", 9999, "is not a customer (see GET /Customer)"},
			} {
				body := map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "reasonCode": 20, tc.field: tc.id}
				if tc.field == "supplier" {
					body["reasonCode"] = 1
				}
				r, _ := a.post(t, tok, tc.path, body)
				if r.status != 400 || !strings.Contains(string(r.body), tc.want) {
					t.Errorf("%s with %s %v: %d %s", tc.path, tc.field, tc.id, r.status, r.body)
				}
			}
		})
		t.Run("ReceiveStoresEveryField", func(t *testing.T) {
			v := a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{
				"itemID": "item-a", "units": 10.5, "wid": 1, "reasonCode": 1, "spot": "A-01", "serial": "SN1", "serial2": "SN1b",
				"rfidTag": "RF1", "reference": "PO-42", "remark": "first", "netWeight": 1.25, "grossWeight": 1.5, "price": 3.333333,
				"expires": "2027-01-31", "supplier": vendor, "line": 3, "jobid": 9,
			}, 201)
			lot := v["lot"].(map[string]any)
			if v["type"] != "receive" || v["transactionID"].(float64) < 1 || v["recNo"] != lot["recNo"] || lot["units"] != 10.5 ||
				lot["shortID"] != "ITEM-A" || lot["warehouse"] != "Main" || lot["spot"] != "A-01" || lot["serial"] != "SN1" ||
				lot["rFIDTag"] != "RF1" || lot["reference"] != "PO-42" || lot["price"] != 3.333333 || lot["expires"] != "2027-01-31T00:00:00Z" ||
				lot["active"] != true || lot["shipped"] != nil || lot["hold"] != false || lot["jobID"] != 9.0 {
				t.Fatalf("receive response %v", v)
			}
			tx := decode[stockroom.Transaction](t, a.get(t, fmt.Sprintf("/api/v1/Inventory/Transactions/%d", int64(v["transactionID"].(float64))), tok))
			if tx.Type != "receive" || tx.ClientID != a.adminID || *tx.ReasonCode != 1 || tx.Reference != "PO-42" || tx.Remark != "first" ||
				tx.Details["serial2"] != "SN1b" || tx.Details["supplier"] != vendor || tx.Details["grossWeight"] != 1.5 || len(tx.Lines) != 1 || tx.Lines[0].Units != stockroom.MustParseUnits("10.5") {
				t.Fatalf("ledger entry %+v", tx)
			}
		})
		t.Run("LedgerKeepsExactDecimals", func(t *testing.T) {
			// float64 would read this price back as 123456789012.34567.
			v := a.mustPost(t, tok, "/api/v1/Inventory/Receive",
				`{"itemID":"item-a","units":1,"wid":1,"reasonCode":1,"price":123456789012.345678,"netWeight":0.000001}`, 201)
			r := a.get(t, fmt.Sprintf("/api/v1/Inventory/Transactions/%d", int64(v["transactionID"].(float64))), tok)
			if !strings.Contains(string(r.body), `"price":123456789012.345678`) || !strings.Contains(string(r.body), `"netWeight":0.000001`) {
				t.Fatalf("ledger entry %s", r.body)
			}
		})
		t.Run("IssueAndMove", func(t *testing.T) {
			a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-B", "units": 4, "wid": 1, "reasonCode": 1, "spot": "B1"}, 201)
			second := a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-B", "units": 6, "wid": 1, "reasonCode": 1, "spot": "B1"}, 201)
			v := a.mustPost(t, tok, "/api/v1/Inventory/Issue", map[string]any{"itemID": "ITEM-B", "units": 5, "wid": 1, "reasonCode": 20, "shipto": customer, "prodID": "P-1"}, 200)
			lines := v["lines"].([]any)
			if v["type"] != "issue" || v["units"] != 5.0 || len(lines) != 2 || lines[0].(map[string]any)["remaining"] != 0.0 || lines[1].(map[string]any)["remaining"] != 5.0 {
				t.Fatalf("issue response %v", v)
			}
			v = a.mustPost(t, tok, "/api/v1/Inventory/Move", map[string]any{"itemID": "ITEM-B", "units": 2, "wid": 1, "fromSpot": "B1", "shipToWid": 2, "toSpot": "R9"}, 200)
			line := v["lines"].([]any)[0].(map[string]any)
			if v["type"] != "move" || v["toWid"] != 2.0 || v["toSpot"] != "R9" || line["recNo"] != second["recNo"] || line["newRecNo"].(float64) == 0 || line["remaining"] != 3.0 {
				t.Fatalf("move response %v", v)
			}
			r := a.send(t, "POST", "/api/v1/Inventory/Issue", tok, map[string]any{"itemID": "ITEM-B", "units": 3.5, "wid": 1, "reasonCode": 20})
			e := wantError(t, r, 409, stockroom.ECONFLICT)
			if !strings.Contains(e["message"].(string), "3.5 units requested, 3 available") {
				t.Fatalf("short-stock message %q", e["message"])
			}
			a.auditClean(t)
		})
		t.Run("Holds", func(t *testing.T) {
			v := a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 3, "wid": 2, "reasonCode": 2}, 201)
			rec := v["recNo"]
			h := a.mustPost(t, tok, "/api/v1/Inventory/Hold", map[string]any{"recno": rec}, 200)
			if h["type"] != "hold" || h["lot"].(map[string]any)["hold"] != true || h["transactionID"] == nil {
				t.Fatalf("hold response %v", h)
			}
			p := decode[struct{ Value []stockroom.StockLevel }](t, a.get(t, "/api/v1/Inventory/StockLevels/2?itemID=ITEM-A", tok))
			if len(p.Value) != 1 || p.Value[0].OnHold != stockroom.Whole(3) || !p.Value[0].Available.IsZero() {
				t.Fatalf("levels with a hold %+v", p.Value)
			}
			held := decode[struct{ TotalCount int }](t, a.get(t, "/api/v1/Inventory/2?hold=true", tok))
			if held.TotalCount != 1 {
				t.Fatalf("hold=true lists %d", held.TotalCount)
			}
			a.mustPost(t, tok, "/api/v1/Inventory/Release", map[string]any{"recno": rec}, 200)
			wantError(t, a.send(t, "POST", "/api/v1/Inventory/Hold", tok, map[string]any{"recno": 999999}), 404, stockroom.ENOTFOUND)
			a.auditClean(t)
		})
		t.Run("ValidationReportsEveryField", func(t *testing.T) {
			for _, tc := range []struct {
				path string
				body string
				want []string
			}{
				{"/api/v1/Inventory/Receive", `{}`, []string{"itemID", "reasonCode", "units", "wid"}},
				{"/api/v1/Inventory/Receive", `{"itemID":"ITEM-A","units":0,"wid":"1","reasonCode":20,"price":-1,"expires":"soon"}`, []string{"expires", "price", "reasonCode", "units", "wid"}},
				{"/api/v1/Inventory/Receive", `{"itemID":"ITEM-A","units":1.0000001,"wid":1,"reasonCode":999}`, []string{"reasonCode", "units"}},
				{"/api/v1/Inventory/Issue", `{"itemID":"ITEM-A","units":-2,"wid":1,"reasonCode":1}`, []string{"reasonCode", "units"}},
				{"/api/v1/Inventory/Move", `{"itemID":"ITEM-A","units":1,"wid":1}`, []string{"toSpot"}},
				{"/api/v1/Inventory/Move", `{"itemID":"ITEM-A","units":1,"wid":1,"fromSpot":"X","toSpot":"X"}`, []string{"toSpot"}},
				{"/api/v1/Inventory/Move", `{"itemID":"","units":1,"wid":1,"toSpot":7,"received":"x"}`, []string{"itemID", "received", "toSpot"}},
				{"/api/v1/Inventory/Hold", `{"recno":"1"}`, []string{"recno"}},
			} {
				v := wantError(t, a.send(t, "POST", tc.path, tok, tc.body), 400, stockroom.EINVALID)
				got := detailFields(v)
				slices.Sort(got)
				if !slices.Equal(got, tc.want) {
					t.Errorf("%s %s: %v, want %v", tc.path, tc.body, v["details"], tc.want)
				}
			}
			wantError(t, a.send(t, "POST", "/api/v1/Inventory/Receive", tok, "not json"), 400, stockroom.EBADREQUEST)
		})
		t.Run("ExistenceAndState", func(t *testing.T) {
			wantError(t, a.send(t, "POST", "/api/v1/Inventory/Receive", tok, map[string]any{"itemID": "NOPE", "units": 1, "wid": 1, "reasonCode": 1}), 404, stockroom.ENOTFOUND)
			wantError(t, a.send(t, "POST", "/api/v1/Inventory/Receive", tok, map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 77, "reasonCode": 1}), 404, stockroom.ENOTFOUND)
			a.createItem(t, tok, map[string]any{"shortID": "GONE"})
			a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "GONE", "units": 5, "wid": 1, "reasonCode": 1}, 201)
			a.mustSend(t, "DELETE", "/api/v1/Item/GONE", tok, nil, 200)
			wantError(t, a.send(t, "POST", "/api/v1/Inventory/Receive", tok, map[string]any{"itemID": "GONE", "units": 1, "wid": 1, "reasonCode": 1}), 409, stockroom.ECONFLICT)
			// A discontinued item's remaining stock can still be moved and issued.
			a.mustPost(t, tok, "/api/v1/Inventory/Move", map[string]any{"itemID": "GONE", "units": 2, "wid": 1, "toSpot": "Q"}, 200)
			a.mustPost(t, tok, "/api/v1/Inventory/Issue", map[string]any{"itemID": "GONE", "units": 5, "wid": 1, "reasonCode": 22}, 200)
			wantError(t, a.get(t, "/api/v1/Inventory/Transactions/999999", tok), 404, stockroom.ENOTFOUND)
			wantError(t, a.get(t, "/api/v1/Inventory/x", tok), 404, stockroom.ENOTFOUND)
			wantError(t, a.get(t, "/api/v1/Inventory/77", tok), 404, stockroom.ENOTFOUND)
			a.auditClean(t)
		})
		t.Run("Lists", func(t *testing.T) {
			lots := decode[struct {
				Value      []stockroom.Lot
				TotalCount int
			}](t, a.get(t, "/api/v1/Inventory?pageSize=250", tok))
			var sum stockroom.Units
			for i, l := range lots.Value {
				sum = sum.Add(l.Units)
				if l.Units.Sign() <= 0 || (i > 0 && l.Received.After(lots.Value[i-1].Received)) {
					t.Fatalf("lot list not in stock, newest first: %+v", lots.Value)
				}
			}
			levels := decode[struct{ Value []stockroom.StockLevel }](t, a.get(t, "/api/v1/Inventory/StockLevels?pageSize=250", tok))
			var lsum stockroom.Units
			for _, l := range levels.Value {
				lsum = lsum.Add(l.InStock)
			}
			if sum != lsum || lots.TotalCount != len(lots.Value) {
				t.Fatalf("lots sum %s, levels sum %s", sum, lsum)
			}
			txs := decode[struct {
				Value      []stockroom.Transaction
				TotalCount int
			}](t, a.get(t, "/api/v1/Inventory/Transactions?type=move&itemID=item-b", tok))
			if txs.TotalCount != 1 || txs.Value[0].Type != "move" || len(txs.Value[0].Lines) != 2 {
				t.Fatalf("move transactions of ITEM-B: %+v", txs)
			}
			v := wantError(t, a.get(t, "/api/v1/Inventory?hold=maybe&page=0", tok), 400, stockroom.EINVALID)
			got := detailFields(v)
			slices.Sort(got)
			if !slices.Equal(got, []string{"hold", "page"}) {
				t.Fatalf("bad list params: %v", v)
			}
			wantError(t, a.get(t, "/api/v1/Inventory/Transactions?type=steal", tok), 400, stockroom.EINVALID)
		})
	})
}

// TestInventoryForbidden walks every 403 of the inventory endpoints: the
// permission of each, read-only accounts on each write, and warehouse scope on
// every path, body and aggregate.
func TestInventoryForbidden(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := stockAPI(t, a)
		if err := a.svc.AddWarehouse(context.Background(), service.Operator, stockroom.Warehouse{ID: 3, Name: "Third"}); err != nil {
			t.Fatal(err)
		}
		lotIn2 := a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 5, "wid": 2, "reasonCode": 1}, 201)["recNo"]
		a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 7, "wid": 1, "reasonCode": 1}, 201)
		txIn2 := fmt.Sprint(a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-B", "units": 3, "wid": 2, "reasonCode": 1}, 201)["transactionID"])

		all := []stockroom.Permission{11, 116, 95, 15, 88}
		scoped := func(perms ...stockroom.Permission) string { // warehouse 1 only
			id, secret := a.addClient(t, service.NewClient{Permissions: perms, Scope: stockroom.Scope{IDs: []int64{1}}})
			return a.token(t, id, secret)
		}
		in1 := scoped(all...)
		readOnly := func() string {
			id, secret := a.addClient(t, service.NewClient{Permissions: all, Scope: stockroom.Scope{All: true}, ReadOnly: true})
			return a.token(t, id, secret)
		}()

		type call struct {
			method, path string
			body         any
			perm         stockroom.Permission
		}
		receive := map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "reasonCode": 1}
		calls := []call{
			{"GET", "/api/v1/Inventory", nil, 11},
			{"GET", "/api/v1/Inventory/1", nil, 11},
			{"GET", "/api/v1/Inventory/StockLevels", nil, 11},
			{"GET", "/api/v1/Inventory/StockLevels/1", nil, 11},
			{"GET", "/api/v1/Inventory/Transactions", nil, 11},
			{"GET", "/api/v1/Inventory/Transactions/1", nil, 11},
			{"POST", "/api/v1/Inventory/Receive", receive, 95},
			{"POST", "/api/v1/Inventory/Issue", map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "reasonCode": 20}, 88},
			{"POST", "/api/v1/Inventory/Move", map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "toSpot": "Z"}, 15},
			{"POST", "/api/v1/Inventory/Hold", map[string]any{"recno": 1}, 15},
			{"POST", "/api/v1/Inventory/Release", map[string]any{"recno": 1}, 15},
		}
		for _, c := range calls {
			t.Run("Permission"+strings.ReplaceAll(c.path, "/", "_"), func(t *testing.T) {
				var others []stockroom.Permission
				for _, p := range all {
					if p != c.perm {
						others = append(others, p)
					}
				}
				v := wantError(t, a.send(t, c.method, c.path, scoped(others...), c.body), 403, stockroom.EFORBIDDEN)
				if v["message"] != stockroom.MsgNoPermission {
					t.Fatalf("without %d: %v", c.perm, v["message"])
				}
				if c.method == "POST" {
					v := wantError(t, a.send(t, c.method, c.path, readOnly, c.body), 403, stockroom.EFORBIDDEN)
					if v["message"] != stockroom.MsgReadOnly {
						t.Fatalf("read-only: %v", v["message"])
					}
				}
			})
		}
		outOfScope := []call{
			{"GET", "/api/v1/Inventory/2", nil, 0},
			{"GET", "/api/v1/Inventory/3", nil, 0},
			{"GET", "/api/v1/Inventory/99", nil, 0}, // does not exist: 403 to a scoped client
			{"GET", "/api/v1/Inventory/StockLevels/2", nil, 0},
			{"GET", "/api/v1/Inventory/Transactions?wid=2", nil, 0},
			{"POST", "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 2, "reasonCode": 1}, 0},
			{"POST", "/api/v1/Inventory/Issue", map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 2, "reasonCode": 20}, 0},
			{"POST", "/api/v1/Inventory/Move", map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 2, "toSpot": "Z"}, 0},
			{"POST", "/api/v1/Inventory/Move", map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "shipToWid": 2}, 0},
		}
		for _, c := range outOfScope {
			v := wantError(t, a.send(t, c.method, c.path, in1, c.body), 403, stockroom.EFORBIDDEN)
			if v["message"] != stockroom.MsgOutOfScope {
				t.Errorf("%s %s %v: %v", c.method, c.path, c.body, v["message"])
			}
		}
		// A lot named by recNo outside the scope is not found, as if it did
		// not exist: the client learns nothing of other warehouses' lots.
		for _, path := range []string{"/api/v1/Inventory/Hold", "/api/v1/Inventory/Release"} {
			missing := wantError(t, a.send(t, "POST", path, in1, map[string]any{"recno": 999999}), 404, stockroom.ENOTFOUND)
			hidden := wantError(t, a.send(t, "POST", path, in1, map[string]any{"recno": lotIn2}), 404, stockroom.ENOTFOUND)
			if strings.Replace(hidden["message"].(string), fmt.Sprint(lotIn2), "N", 1) != strings.Replace(missing["message"].(string), "999999", "N", 1) {
				t.Errorf("%s: a lot outside the scope says %q, a missing one %q", path, hidden["message"], missing["message"])
			}
		}
		// Aggregates and lists without {wid} show nothing of warehouse 2.
		lots := decode[struct {
			Value      []stockroom.Lot
			TotalCount int
		}](t, a.get(t, "/api/v1/Inventory?pageSize=250&includeShipped=true", in1))
		for _, l := range lots.Value {
			if l.WID != 1 {
				t.Fatalf("scoped lot list shows warehouse %d", l.WID)
			}
		}
		levels := decode[struct {
			Value      []stockroom.StockLevel
			TotalCount int
		}](t, a.get(t, "/api/v1/Inventory/StockLevels?includeZero=true", in1))
		for _, l := range levels.Value {
			if (l.ShortID == "ITEM-A" && l.InStock != stockroom.Whole(7)) || (l.ShortID == "ITEM-B" && !l.InStock.IsZero()) {
				t.Fatalf("scoped levels include warehouse 2: %+v", levels.Value)
			}
		}
		txs := decode[struct {
			Value      []stockroom.Transaction
			TotalCount int
		}](t, a.get(t, "/api/v1/Inventory/Transactions?pageSize=250", in1))
		if lots.TotalCount != 1 || txs.TotalCount != 1 || txs.Value[0].WID != 1 {
			t.Fatalf("scoped totals: %d lots, %d transactions", lots.TotalCount, txs.TotalCount)
		}
		wantError(t, a.get(t, "/api/v1/Inventory/Transactions/"+txIn2, in1), 404, stockroom.ENOTFOUND)
		// Scope is checked before existence: an unknown item in an
		// out-of-scope warehouse is 403, not 404.
		wantError(t, a.send(t, "POST", "/api/v1/Inventory/Receive", in1, map[string]any{"itemID": "NOPE", "units": 1, "wid": 2, "reasonCode": 1}), 403, stockroom.EFORBIDDEN)
		a.auditClean(t)
	})
}

package httpapi_test

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// TestCSVExportOfOrderLists: the lists of purchase, shipping and work
// orders and of transits answer Accept: text/csv with every order the list
// shows (open ones, or all), as the list shows it, paging ignored.
func TestCSVExportOfOrderLists(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := purchaseAPI(t, a)
		a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 10, "wid": 1, "reasonCode": 1}, 201)
		for i := range 3 {
			a.mustSend(t, "POST", "/api/v1/PurchaseOrder", admin, `{"vendorID":"BOLTCO","dueDate":"2030-01-02","lines":[
				{"itemID":"ITEM-A","units":10.000001,"unitPrice":0.333333,"wid":1},
				{"itemID":"ITEM-B","units":`+strconv.Itoa(i+1)+`,"wid":2,"owner":"C-7"}]}`, 201)
		}
		a.mustSend(t, "POST", "/api/v1/PurchaseOrder/PO-000002/Close", admin, nil, 200)
		a.mustSend(t, "POST", "/api/v1/ShippingOrder", admin, shipment("SO-1", ownerA, 1, 2), 201)
		a.mustSend(t, "POST", "/api/v1/ShippingOrder", admin, shipment("SO-2", ownerA, 2), 201)
		a.mustSend(t, "POST", "/api/v1/WorkOrder", admin, work("WO-1", 1, 3, 0.5), 201)
		a.mustSend(t, "POST", "/api/v1/WorkOrder", admin, work("WO-2", 2, 1, 1), 201)
		a.mustPost(t, admin, "/api/v1/Inventory/Move", map[string]any{"itemID": "ITEM-A", "units": 2.5, "wid": 1, "shipToWid": 2, "toSpot": "R", "transitSlip": "TS-1"}, 200)

		limited := a.reportClient(t, stockroom.Scope{All: true}, &stockroom.Scope{IDs: []int64{ownerA}}, allReports)
		inSecond := a.reportClient(t, stockroom.Scope{IDs: []int64{2}}, nil, allReports)
		for _, list := range []struct{ path, file string }{
			{"/api/v1/PurchaseOrder", "purchaseorders.csv"},
			{"/api/v1/PurchaseOrder/All", "purchaseorders.csv"},
			{"/api/v1/PurchaseOrder/All?status=Closed", "purchaseorders.csv"},
			{"/api/v1/ShippingOrder", "shippingorders.csv"},
			{"/api/v1/ShippingOrder/All?sort=soNo&direction=desc", "shippingorders.csv"},
			{"/api/v1/WorkOrder", "workorders.csv"},
			{"/api/v1/WorkOrder/All?wid=2", "workorders.csv"},
			{"/api/v1/Transit", "transits.csv"},
			{"/api/v1/Transit/All", "transits.csv"},
		} {
			for _, tok := range []string{admin, limited, inSecond} {
				a.sameAsJSON(t, list.path, list.file, tok)
			}
		}

		// Paging ignored; totals exact; lines a JSON cell.
		rows := csvRows(t, a.getCSV(t, "/api/v1/PurchaseOrder/All?pageSize=1&page=2", admin), "purchaseorders.csv")
		if got := column(t, rows, "poNo"); len(got) != 3 {
			t.Errorf("purchase orders %q, want all 3", got)
		}
		rows = csvRows(t, a.getCSV(t, "/api/v1/PurchaseOrder", admin), "purchaseorders.csv")
		if got := column(t, rows, "totalValue"); !slices.Equal(got, []string{"3.33333", "3.33333"}) {
			t.Errorf("open purchase orders: totalValue %q", got)
		}
		rows = csvRows(t, a.getCSV(t, "/api/v1/PurchaseOrder", limited), "purchaseorders.csv")
		if got := column(t, rows, "totalLines"); !slices.Equal(got, []string{"1", "1"}) {
			t.Errorf("owner A's open purchase orders: totalLines %q, want its lines' only", got)
		}
		if got := column(t, rows, "totalValue"); !slices.Equal(got, []string{"0", "0"}) {
			t.Errorf("owner A's open purchase orders: totalValue %q, want its lines' only", got)
		}
		rows = csvRows(t, a.getCSV(t, "/api/v1/Transit", admin), "transits.csv")
		var lines []struct{ Units json.Number }
		if err := json.Unmarshal([]byte(column(t, rows, "lines")[0]), &lines); err != nil || len(lines) != 1 || lines[0].Units != "2.5" {
			t.Errorf("a transfer's lines cell %q: %v", column(t, rows, "lines"), err)
		}
	})
}

func TestCSVExportOfOrderListRefusals(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := purchaseAPI(t, a)
		noRead := a.clientToken(t, false, stockroom.PermItemWrite)
		id, secret := a.addClient(t, service.NewClient{Permissions: []stockroom.Permission{stockroom.PermItemRead}, Scope: stockroom.Scope{IDs: []int64{1}}})
		inMain := a.token(t, id, secret)
		for _, path := range []string{"/api/v1/PurchaseOrder", "/api/v1/ShippingOrder/All", "/api/v1/WorkOrder", "/api/v1/Transit/All"} {
			wantError(t, a.getCSV(t, path, noRead), 403, stockroom.EFORBIDDEN)
			wantError(t, a.getCSV(t, path+"?wid=2", inMain), 403, stockroom.EFORBIDDEN)
			wantError(t, a.getCSV(t, path+"?wid=99", admin), 404, stockroom.ENOTFOUND)
			wantError(t, a.getCSV(t, path+"?pageSize=0&status=x", admin), 400, stockroom.EINVALID)
			wantError(t, a.do(t, "GET", path, nil, "Accept", "text/csv"), 401, stockroom.EUNAUTHORIZED)
			if rows := csvRows(t, a.getCSV(t, path, inMain), filenameOf(path)); len(rows) != 1 {
				t.Errorf("%s with nothing to list: %q", path, rows)
			}
		}
	})
}

// filenameOf is the CSV file name of an order list.
func filenameOf(path string) string {
	for prefix, name := range map[string]string{"/api/v1/PurchaseOrder": "purchaseorders.csv", "/api/v1/ShippingOrder": "shippingorders.csv",
		"/api/v1/WorkOrder": "workorders.csv", "/api/v1/Transit": "transits.csv"} {
		if len(path) >= len(prefix) && path[:len(prefix)] == prefix {
			return name
		}
	}
	return ""
}

package httpapi_test

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

// reportCSV is the CSV path and file name of report id.
func reportCSV(id stockroom.ReportID) string {
	return "report-" + strconv.FormatInt(int64(id), 10) + ".csv"
}

func TestCSVExportOfReports(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := purchaseAPI(t, a)
		receive := func(item, units, price string, wid int, extra map[string]any) {
			body := map[string]any{"itemID": item, "units": json.RawMessage(units), "price": json.RawMessage(price), "wid": wid, "reasonCode": 1,
				"serial": "SN-" + item, "expires": "2030-01-01"}
			for k, v := range extra {
				body[k] = v
			}
			a.mustPost(t, admin, "/api/v1/Inventory/Receive", body, 201)
		}
		receive("ITEM-A", "10.000001", "2.5", 1, nil)
		receive("ITEM-A", "5", "0.333333", 1, map[string]any{"owner": ownerA})
		receive("ITEM-B", "1234567.654321", "0.000001", 2, nil)
		a.mustPost(t, admin, "/api/v1/Inventory/Issue", map[string]any{"itemID": "ITEM-A", "units": json.RawMessage("0.5"), "wid": 1, "reasonCode": 20}, 200)
		a.mustPost(t, admin, "/api/v1/Inventory/Move", map[string]any{"itemID": "ITEM-B", "units": 2, "wid": 2, "toSpot": "A-9"}, 200)
		a.mustSend(t, "POST", "/api/v1/PurchaseOrder", admin, `{"vendorID":"BOLTCO","dueDate":"2030-01-02",
			"lines":[{"itemID":"ITEM-A","units":10,"wid":1},{"itemID":"ITEM-B","units":4.25,"wid":2,"owner":"C-7"}]}`, 201)
		a.mustSend(t, "POST", "/api/v1/ShippingOrder", admin, shipment("SO-1", ownerA, 1, 1), 201)

		day := time.Now().UTC().Truncate(24 * time.Hour)
		period := url.Values{"from": {day.Add(-24 * time.Hour).Format(time.RFC3339)}, "to": {day.Add(48 * time.Hour).Format(time.RFC3339)}}
		queries := map[stockroom.ReportID]url.Values{
			stockroom.ReportInventoryActivity: period,
			stockroom.ReportStorageByOwner:    period,
			stockroom.ReportExpiringLots:      {"days": {"10000"}},
			stockroom.ReportLotTrace:          {"serial": {"SN-ITEM-B"}},
		}
		limited := a.reportClient(t, stockroom.Scope{All: true}, &stockroom.Scope{IDs: []int64{ownerA}}, allReports)
		inSecond := a.reportClient(t, stockroom.Scope{IDs: []int64{2}}, nil, allReports)
		for _, report := range stockroom.Reports {
			q := queries[report.ReportID]
			for _, tok := range []string{admin, limited, inSecond} {
				rows := a.sameAsJSON(t, reportPath(report.ReportID, q), reportCSV(report.ReportID), tok)
				if !slices.Equal(rows[0], report.Columns) {
					t.Errorf("report %d: header %q, want its columns %q", report.ReportID, rows[0], report.Columns)
				}
				if tok == admin && len(rows) < 2 {
					t.Errorf("report %d: no rows in the scenario", report.ReportID)
				}
			}
		}

		// Decimals exact; paging ignored: pageSize=1 still exports every row.
		pageOne := url.Values{"pageSize": {"1"}, "page": {"2"}}
		rows := csvRows(t, a.getCSV(t, reportPath(stockroom.ReportStockValuation, pageOne), admin), reportCSV(stockroom.ReportStockValuation))
		if got := column(t, rows, "units"); !slices.Equal(got, []string{"14.500001", "1234567.654321"}) {
			t.Errorf("valuation units %q", got)
		}
		if got := column(t, rows, "totalValue"); !slices.Equal(got, []string{"25.416668", "1.234568"}) {
			t.Errorf("valuation totalValue %q", got)
		}
		// Scope: a client of owner A sees its lot only.
		rows = csvRows(t, a.getCSV(t, reportPath(stockroom.ReportExpiringLots, queries[stockroom.ReportExpiringLots]), limited), reportCSV(stockroom.ReportExpiringLots))
		if got := column(t, rows, "owner"); !slices.Equal(got, []string{strconv.FormatInt(ownerA, 10)}) {
			t.Errorf("owner A's expiring lots: owners %q", got)
		}
	})
}

func TestCSVExportOfReportRefusals(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := stockAPI(t, a)
		valuation := stockroom.ReportStockValuation
		only15 := a.reportClient(t, stockroom.Scope{IDs: []int64{1}}, nil, stockroom.Scope{IDs: []int64{int64(valuation)}})
		// Refusals come before the first row: the JSON error object.
		v := wantError(t, a.getCSV(t, reportPath(stockroom.ReportInventoryActivity, nil), only15), 403, stockroom.EFORBIDDEN)
		if v["message"] != stockroom.MsgReportDenied {
			t.Errorf("403 message %v", v["message"])
		}
		wantError(t, a.getCSV(t, "/api/v1/Report/99", admin), 404, stockroom.ENOTFOUND)
		wantError(t, a.getCSV(t, "/api/v1/Report/x", admin), 404, stockroom.ENOTFOUND)
		v = wantError(t, a.getCSV(t, reportPath(stockroom.ReportInventoryActivity, nil), admin), 400, stockroom.EINVALID)
		if got := detailFields(v); !slices.Equal(got, []string{"from", "to"}) {
			t.Errorf("fields %v", got)
		}
		wantError(t, a.getCSV(t, reportPath(valuation, url.Values{"pageSize": {"0"}}), admin), 400, stockroom.EINVALID)
		wantError(t, a.getCSV(t, reportPath(valuation, url.Values{"wid": {"2"}}), only15), 403, stockroom.EFORBIDDEN)
		wantError(t, a.getCSV(t, reportPath(valuation, url.Values{"wid": {"9"}}), admin), 404, stockroom.ENOTFOUND)
		wantError(t, a.do(t, "GET", reportPath(valuation, nil), nil, "Accept", "text/csv"), 401, stockroom.EUNAUTHORIZED)
		// A report with no rows: the header alone.
		if rows := csvRows(t, a.getCSV(t, reportPath(valuation, nil), only15), reportCSV(valuation)); len(rows) != 1 {
			t.Errorf("an empty report: %q", rows)
		}
	})
}

// TestCSVExportOfValuationInWindows exports Stock Valuation over more item
// and warehouse pairs than one window of the export holds (1000): every
// pair once, in order, with its own lots' figures.
func TestCSVExportOfValuationInWindows(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := stockAPI(t, a)
		const n = 1203
		changes := make([]stockroom.ItemChange, n)
		ids := make([]string, n)
		for i := range changes {
			ids[i] = "BULK-" + strconv.Itoa(10000+i)
			changes[i] = stockroom.ItemChange{ShortID: ids[i]}
		}
		ctx := context.Background()
		if _, err := a.svc.ImportItems(ctx, "test", changes); err != nil {
			t.Fatal(err)
		}
		partNos, err := a.svc.PartNos(ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		rs := make([]stockroom.Receipt, n)
		for i := range rs {
			rs[i] = stockroom.Receipt{PartNo: partNos[i], ReceiveRequest: stockroom.ReceiveRequest{
				WID: 1, Units: stockroom.FromMicros(int64(i + 1)), Price: stockroom.MustParseUnits("2")}}
		}
		if _, err := a.svc.ImportLots(ctx, "test", rs); err != nil {
			t.Fatal(err)
		}
		rows := csvRows(t, a.getCSV(t, reportPath(stockroom.ReportStockValuation, nil), admin), reportCSV(stockroom.ReportStockValuation))
		if len(rows) != n+1 {
			t.Fatalf("%d rows, want %d", len(rows)-1, n)
		}
		for i, row := range rows[1:] {
			units := stockroom.FromMicros(int64(i + 1))
			want := []string{strconv.FormatInt(partNos[i], 10), ids[i], "1", units.String(), "2", units.Add(units).String()}
			if !slices.Equal(row, want) {
				t.Fatalf("row %d %q, want %q", i+1, row, want)
			}
		}
	})
}

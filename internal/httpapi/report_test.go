package httpapi_test

import (
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// reportPage is a page of a report's rows.
type reportPage[T any] struct {
	Value      []T   `json:"value"`
	TotalCount int64 `json:"totalCount"`
	PageSize   int64 `json:"pageSize"`
}

// runReport runs report id with the query's parameters and returns its page.
func runReport[T any](t *testing.T, a *api, tok string, id stockroom.ReportID, q url.Values) reportPage[T] {
	t.Helper()
	return decode[reportPage[T]](t, a.get(t, reportPath(id, q), tok))
}

func reportPath(id stockroom.ReportID, q url.Values) string {
	return "/api/v1/Report/" + strconv.FormatInt(int64(id), 10) + "?" + q.Encode()
}

// u reads an exact decimal.
func u(s string) stockroom.Units { return stockroom.MustParseUnits(s) }

// reportClient adds a client of every permission with the given warehouses,
// owners (nil: all) and reports, and returns a token.
func (a *api) reportClient(t *testing.T, wids stockroom.Scope, owners *stockroom.Scope, reports stockroom.Scope) string {
	t.Helper()
	id, secret := a.addClient(t, service.NewClient{Permissions: stockroom.AllPermissions, Scope: wids, Owners: owners, Reports: reports})
	return a.token(t, id, secret)
}

var allReports = stockroom.Scope{All: true}

func TestReportValuation(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := stockAPI(t, a)
		a.addCustomer(t, ownerA)
		receive := func(item string, units, price string, wid int, owner any) {
			a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": item, "units": json.RawMessage(units), "price": json.RawMessage(price),
				"wid": wid, "reasonCode": 1, "owner": owner}, 201)
		}
		receive("ITEM-A", "10", "2.5", 1, 0)
		receive("ITEM-A", "5", "4.1", 1, 0)
		// A partial issue takes the oldest lot's units first: 6 at 2.5 stay.
		a.mustPost(t, admin, "/api/v1/Inventory/Issue", map[string]any{"itemID": "ITEM-A", "units": 4, "wid": 1, "reasonCode": 20}, 200)
		receive("ITEM-A", "1", "1", 2, 0)
		receive("ITEM-B", "3", "0.333333", 2, 0)
		receive("ITEM-A", "2", "10", 1, ownerA)

		page := runReport[stockroom.ValuationRow](t, a, admin, stockroom.ReportStockValuation, nil)
		// A in 1: 6 × 2.5 + 5 × 4.1 + 2 × 10 = 55.5 over 13 units = 4.2692307… → 4.269231.
		want := []stockroom.ValuationRow{
			{ItemID: "ITEM-A", WID: 1, Units: u("13"), UnitCost: u("4.269231"), TotalValue: u("55.5")},
			{ItemID: "ITEM-A", WID: 2, Units: u("1"), UnitCost: u("1"), TotalValue: u("1")},
			{ItemID: "ITEM-B", WID: 2, Units: u("3"), UnitCost: u("0.333333"), TotalValue: u("0.999999")},
		}
		checkRows(t, page, want, func(r *stockroom.ValuationRow) { r.PartNo = 0 })

		t.Run("ScopedClientSeesItsWarehouseOnly", func(t *testing.T) {
			tok := a.reportClient(t, stockroom.Scope{IDs: []int64{2}}, nil, allReports)
			page := runReport[stockroom.ValuationRow](t, a, tok, stockroom.ReportStockValuation, nil)
			checkRows(t, page, want[1:], func(r *stockroom.ValuationRow) { r.PartNo = 0 })
			wantError(t, a.get(t, reportPath(stockroom.ReportStockValuation, url.Values{"wid": {"1"}}), tok), 403, stockroom.EFORBIDDEN)
		})
		t.Run("OwnerLimitedClientSeesItsOwnersLots", func(t *testing.T) {
			tok := a.reportClient(t, stockroom.Scope{All: true}, &stockroom.Scope{IDs: []int64{ownerA}}, allReports)
			page := runReport[stockroom.ValuationRow](t, a, tok, stockroom.ReportStockValuation, nil)
			checkRows(t, page, []stockroom.ValuationRow{{ItemID: "ITEM-A", WID: 1, Units: u("2"), UnitCost: u("10"), TotalValue: u("20")}},
				func(r *stockroom.ValuationRow) { r.PartNo = 0 })
		})
		t.Run("OneWarehouseAndPaging", func(t *testing.T) {
			page := runReport[stockroom.ValuationRow](t, a, admin, stockroom.ReportStockValuation, url.Values{"wid": {"2"}, "count": {"1"}, "page": {"2"}})
			checkRows(t, page, want[2:], func(r *stockroom.ValuationRow) { r.PartNo = 0 })
			if page.TotalCount != 2 || page.PageSize != 1 {
				t.Errorf("totalCount %d pageSize %d, want 2 and 1", page.TotalCount, page.PageSize)
			}
		})
	})
}

// checkRows holds a page to the rows wanted (its totalCount to their number),
// after blank clears what the test does not predict.
func checkRows[T any](t *testing.T, page reportPage[T], want []T, blank func(*T)) {
	t.Helper()
	got := slices.Clone(page.Value)
	for i := range got {
		blank(&got[i])
	}
	if !slices.EqualFunc(got, want, func(x, y T) bool { return equalJSON(t, x, y) }) {
		t.Errorf("rows\n%+v\nwant\n%+v", got, want)
	}
	if page.TotalCount < int64(len(want)) {
		t.Errorf("totalCount %d, want at least %d", page.TotalCount, len(want))
	}
}

func TestReportActivity(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := stockAPI(t, a)
		start := stockroom.Now()
		later := func(d time.Duration) { // tokens live an hour
			a.advance(d)
			admin = a.token(t, a.adminID, a.adminSecret)
		}
		a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 10, "wid": 1, "reasonCode": 1}, 201)
		later(2 * time.Hour) // the period opens at +1h
		a.mustPost(t, admin, "/api/v1/Inventory/Issue", map[string]any{"itemID": "ITEM-A", "units": 3, "wid": 1, "reasonCode": 20}, 200)
		later(time.Hour)
		a.mustPost(t, admin, "/api/v1/Inventory/Move", map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "toSpot": "X"}, 200)
		later(time.Hour)
		a.mustPost(t, admin, "/api/v1/Inventory/Move", map[string]any{"itemID": "ITEM-A", "units": 4, "wid": 1, "shipToWid": 2}, 200)
		later(2 * time.Hour) // the period closed at +5h
		a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 5, "wid": 1, "reasonCode": 1}, 201)
		a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-B", "units": 5, "wid": 1, "reasonCode": 1}, 201)

		period := url.Values{"from": {start.Add(time.Hour).Format(time.RFC3339Nano)}, "to": {start.Add(5 * time.Hour).Format(time.RFC3339Nano)}}
		page := runReport[stockroom.ActivityRow](t, a, admin, stockroom.ReportInventoryActivity, period)
		want := []stockroom.ActivityRow{
			{ItemID: "ITEM-A", WID: 1, Opening: u("10"), Issued: u("3"), MovedOut: u("4"), Closing: u("3")},
			{ItemID: "ITEM-A", WID: 2, MovedIn: u("4"), Closing: u("4")},
		}
		checkRows(t, page, want, func(r *stockroom.ActivityRow) { r.PartNo = 0 })
		if page.TotalCount != 2 {
			t.Errorf("totalCount %d, want 2", page.TotalCount)
		}
		tok := a.reportClient(t, stockroom.Scope{IDs: []int64{2}}, nil, stockroom.Scope{IDs: []int64{int64(stockroom.ReportInventoryActivity)}})
		checkRows(t, runReport[stockroom.ActivityRow](t, a, tok, stockroom.ReportInventoryActivity, period), want[1:],
			func(r *stockroom.ActivityRow) { r.PartNo = 0 })
	})
}

func TestReportRights(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := stockAPI(t, a)
		only15 := a.reportClient(t, stockroom.Scope{All: true}, nil, stockroom.Scope{IDs: []int64{15}})
		none := a.reportClient(t, stockroom.Scope{All: true}, nil, stockroom.Scope{})

		list := decode[reportPage[stockroom.Report]](t, a.get(t, "/api/v1/Report", admin))
		if len(list.Value) != len(stockroom.Reports) || list.TotalCount != int64(len(stockroom.Reports)) {
			t.Errorf("the administrator lists %d reports, want %d", len(list.Value), len(stockroom.Reports))
		}
		list = decode[reportPage[stockroom.Report]](t, a.get(t, "/api/v1/Report", only15))
		if len(list.Value) != 1 || list.Value[0].ReportID != 15 || list.Value[0].ReportName != "Stock Valuation" {
			t.Errorf("a client of report 15 lists %+v", list.Value)
		}
		list = decode[reportPage[stockroom.Report]](t, a.get(t, "/api/v1/Report", none))
		if len(list.Value) != 0 || list.TotalCount != 0 {
			t.Errorf("a client of no report lists %+v", list.Value)
		}
		for _, tok := range []string{only15, none} {
			v := wantError(t, a.get(t, reportPath(stockroom.ReportInventoryActivity, nil), tok), 403, stockroom.EFORBIDDEN)
			if v["message"] != stockroom.MsgReportDenied {
				t.Errorf("message %q, want %q", v["message"], stockroom.MsgReportDenied)
			}
		}
		// Permission comes before the parameters: a bad one is still 403.
		wantError(t, a.get(t, reportPath(stockroom.ReportExpiringLots, url.Values{"days": {"x"}}), only15), 403, stockroom.EFORBIDDEN)
		for _, path := range []string{"/api/v1/Report/16", "/api/v1/Report/x", "/api/v1/Report/-15"} {
			wantError(t, a.get(t, path, only15), 404, stockroom.ENOTFOUND)
		}
	})
}

func TestReportRefusals(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := stockAPI(t, a)
		for _, tc := range []struct {
			id     stockroom.ReportID
			query  url.Values
			fields []string
		}{
			{stockroom.ReportInventoryActivity, nil, []string{"from", "to"}},
			{stockroom.ReportInventoryActivity, url.Values{"from": {"soon"}, "to": {"2025-01-01"}}, []string{"from"}},
			{stockroom.ReportStorageByOwner, url.Values{"from": {"2025-02-01"}, "to": {"2025-01-01"}}, []string{"to"}},
			{stockroom.ReportExpiringLots, url.Values{"days": {"-1"}, "wid": {"0"}}, []string{"days", "wid"}},
			{stockroom.ReportExpiringLots, url.Values{"days": {"2.5"}}, []string{"days"}},
			{stockroom.ReportLotTrace, nil, []string{"serial"}},
			{stockroom.ReportLotTrace, url.Values{"serial": {"S"}, "recNo": {"1"}}, []string{"serial"}},
			{stockroom.ReportLotTrace, url.Values{"recNo": {"x"}}, []string{"recNo"}},
			{stockroom.ReportStockValuation, url.Values{"page": {"0"}, "pageSize": {"x"}}, []string{"page", "pageSize"}},
			{stockroom.ReportStockValuation, url.Values{"count": {"0"}}, []string{"count"}},
		} {
			v := wantError(t, a.get(t, reportPath(tc.id, tc.query), admin), 400, stockroom.EINVALID)
			if got := detailFields(v); !slices.Equal(got, tc.fields) {
				t.Errorf("report %d %v: fields %v, want %v", tc.id, tc.query, got, tc.fields)
			}
		}
		// A page size above 1000 is capped, as every list caps its own.
		r := a.get(t, reportPath(stockroom.ReportStockValuation, url.Values{"pageSize": {"5000"}}), admin)
		if p := decode[reportPage[stockroom.ValuationRow]](t, r); p.PageSize != 1000 || r.header.Get("X-Page-Size") != "1000" {
			t.Errorf("pageSize 5000 applied as %d", p.PageSize)
		}
		wantError(t, a.get(t, reportPath(stockroom.ReportStockValuation, url.Values{"wid": {"9"}}), admin), 404, stockroom.ENOTFOUND)
	})
}

// equalJSON reports whether two values write the same JSON.
func equalJSON(t *testing.T, x, y any) bool {
	t.Helper()
	bx, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	by, err := json.Marshal(y)
	if err != nil {
		t.Fatal(err)
	}
	return string(bx) == string(by)
}

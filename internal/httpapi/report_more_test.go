package httpapi_test

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

const day = 24 * time.Hour

// clockedAdmin returns the administrator's token and a function that moves
// the server's clock on and renews the token (tokens live an hour).
func clockedAdmin(t *testing.T, a *api, tok *string) func(time.Duration) {
	return func(d time.Duration) {
		a.advance(d)
		*tok = a.token(t, a.adminID, a.adminSecret)
	}
}

func TestReportAgeing(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := stockAPI(t, a)
		later := clockedAdmin(t, a, &admin)
		receive := func(units int) {
			a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": units, "wid": 1, "reasonCode": 1}, 201)
		}
		// The report runs at S+91d+1h; each lot's age there, in whole days,
		// is its bucket's edge (the moments between requests only add to
		// an age, never a whole day).
		receive(1)             // S: 91, over 90
		later(day + time.Hour) // S+1d+1h
		receive(2)             // 90: 61-90
		later(29 * day)        // S+30d+1h
		receive(4)             // 61: 61-90
		later(day)             // S+31d+1h
		receive(8)             // 60: 31-60
		later(29 * day)        // S+60d+1h
		receive(16)            // 31: 31-60
		later(day)             // S+61d+1h
		receive(32)            // 30: 0-30
		later(30 * day)        // S+91d+1h
		receive(64)            // 0: 0-30
		page := runReport[stockroom.AgeingRow](t, a, admin, stockroom.ReportStockAgeing, nil)
		checkRows(t, page, []stockroom.AgeingRow{{ItemID: "ITEM-A", WID: 1, Units: u("127"),
			Days0To30: u("96"), Days31To60: u("24"), Days61To90: u("6"), Over90: u("1")}}, func(r *stockroom.AgeingRow) { r.PartNo = 0 })
	})
}

func TestReportExpiringLots(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := stockAPI(t, a)
		now := stockroom.Now()
		var recNos []float64
		for _, expires := range []any{now.Add(2*day - time.Minute), now.Add(2*day + time.Minute), now.Add(-day + time.Hour), nil} {
			body := map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "reasonCode": 1, "serial": "E"}
			if expires != nil {
				body["expires"] = expires.(time.Time).Format(time.RFC3339Nano)
			}
			recNos = append(recNos, a.mustPost(t, admin, "/api/v1/Inventory/Receive", body, 201)["lot"].(map[string]any)["recNo"].(float64))
		}
		rows := func(days string) []int64 {
			page := runReport[stockroom.ExpiringLotRow](t, a, admin, stockroom.ReportExpiringLots, url.Values{"days": {days}})
			var out []int64
			for _, r := range page.Value {
				out = append(out, r.RecNo, r.DaysLeft)
			}
			return out
		}
		// Expired a day ago (less an hour): daysLeft -1; in two days less a
		// minute: 1; two days and a minute out is past the edge.
		if got, want := fmt.Sprint(rows("2")), fmt.Sprint([]int64{int64(recNos[2]), -1, int64(recNos[0]), 1}); got != want {
			t.Errorf("days=2: recNo, daysLeft %s, want %s", got, want)
		}
		if got, want := fmt.Sprint(rows("0")), fmt.Sprint([]int64{int64(recNos[2]), -1}); got != want {
			t.Errorf("days=0: %s, want %s", got, want)
		}
		if got := rows("3"); len(got) != 6 {
			t.Errorf("days=3: %v, want three lots", got)
		}
	})
}

func TestReportStorageByOwner(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := stockAPI(t, a)
		a.addCustomer(t, ownerA)
		later := clockedAdmin(t, a, &admin)
		start := stockroom.Now()
		recNo := a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 10, "wid": 1, "reasonCode": 1}, 201)["lot"].(map[string]any)["recNo"]
		a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 3, "wid": 1, "reasonCode": 1, "owner": ownerA}, 201)
		later(2 * day)
		a.mustPost(t, admin, "/api/v1/Inventory/Move", map[string]any{"recno": recNo, "units": 4, "shipToWid": 2}, 200)
		later(2 * day)
		a.mustPost(t, admin, "/api/v1/Inventory/Issue", map[string]any{"itemID": "ITEM-A", "units": 6, "wid": 1, "reasonCode": 20, "owner": 0}, 200)
		later(2 * day)
		a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 5, "wid": 1, "reasonCode": 1}, 201)

		// Over [S+1d, S+5d): the house's 10 in warehouse 1 for a day, 6 for
		// two more, none after the issue: 22 unit-days; the 4 moved to
		// warehouse 2 at S+2d stay three days there: 12; customer 7's 3
		// stay the four days: 12.
		period := url.Values{"from": {start.Add(day).Format(time.RFC3339Nano)}, "to": {start.Add(5 * day).Format(time.RFC3339Nano)}}
		want := []stockroom.StorageRow{
			{Owner: 0, WID: 1, Opening: u("10"), Closing: u("0"), UnitDays: u("22")},
			{Owner: 0, WID: 2, Opening: u("0"), Closing: u("4"), UnitDays: u("12")},
			{Owner: ownerA, WID: 1, Opening: u("3"), Closing: u("3"), UnitDays: u("12")},
		}
		checkStorage(t, runReport[stockroom.StorageRow](t, a, admin, stockroom.ReportStorageByOwner, period).Value, want)
		tok := a.reportClient(t, stockroom.Scope{All: true}, &stockroom.Scope{IDs: []int64{ownerA}}, allReports)
		checkStorage(t, runReport[stockroom.StorageRow](t, a, tok, stockroom.ReportStorageByOwner, period).Value, want[2:])
		tok = a.reportClient(t, stockroom.Scope{IDs: []int64{2}}, nil, allReports)
		checkStorage(t, runReport[stockroom.StorageRow](t, a, tok, stockroom.ReportStorageByOwner, period).Value, want[1:2])
	})
}

// checkStorage holds storage rows to those wanted: units exactly, unit-days
// within a thousandth (the requests' own moments, milliseconds apart, are
// part of each span).
func checkStorage(t *testing.T, got, want []stockroom.StorageRow) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("rows %+v, want %+v", got, want)
	}
	for i, g := range got {
		w := want[i]
		off := g.UnitDays.Sub(w.UnitDays)
		if g.Owner != w.Owner || g.WID != w.WID || g.Opening != w.Opening || g.Closing != w.Closing ||
			off.Cmp(u("0.001")) > 0 || off.Cmp(u("-0.001")) < 0 {
			t.Errorf("row %d: %+v, want %+v", i, g, w)
		}
	}
}

func TestReportOpenOrders(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := purchaseAPI(t, a)
		a.mustSend(t, "POST", "/api/v1/PurchaseOrder", admin, `{"vendorID":"BOLTCO","dueDate":"2030-01-02",
			"lines":[{"itemID":"ITEM-A","units":10,"wid":1},{"itemID":"ITEM-B","units":4,"wid":2,"owner":"C-7"}]}`, 201)
		a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 4, "wid": 1, "reasonCode": 1,
			"poNo": "PO-000001", "line": 1}, 201)
		a.mustSend(t, "POST", "/api/v1/PurchaseOrder", admin, `{"vendorID":"BOLTCO","lines":[{"itemID":"ITEM-A","units":2,"wid":1}]}`, 201)
		a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 2, "wid": 1, "reasonCode": 1,
			"poNo": "PO-000002", "line": 1}, 201)
		purchase := []stockroom.OpenPurchaseRow{
			{PONo: "PO-000001", Line: 1, VendorID: "BOLTCO", ItemID: "ITEM-A", WID: 1, Units: u("10"), Received: u("4"), Due: u("6")},
			{PONo: "PO-000001", Line: 2, VendorID: "BOLTCO", ItemID: "ITEM-B", WID: 2, Owner: ownerA, Units: u("4"), Due: u("4")},
		}
		blank := func(r *stockroom.OpenPurchaseRow) { r.PartNo, r.DueDate = 0, nil }
		checkRows(t, runReport[stockroom.OpenPurchaseRow](t, a, admin, stockroom.ReportOpenPurchaseOrders, nil), purchase, blank)
		limited := a.reportClient(t, stockroom.Scope{All: true}, &stockroom.Scope{IDs: []int64{ownerA}}, allReports)
		checkRows(t, runReport[stockroom.OpenPurchaseRow](t, a, limited, stockroom.ReportOpenPurchaseOrders, nil), purchase[1:], blank)

		// Shipping: 6 of ITEM-A in stock (4 received above, 2 more); line 1
		// commits 3 and ships 2 of them, line 2 nothing.
		a.mustSend(t, "POST", "/api/v1/ShippingOrder", admin, shipment("SO-1", ownerA, 1, 1), 201)
		a.mustSend(t, "POST", "/api/v1/ShippingOrder/SO-1/Commit", admin, map[string]any{"lines": []any{map[string]any{"line": 1, "units": 3}}}, 200)
		a.mustSend(t, "POST", "/api/v1/ShippingOrder/SO-1/Ship", admin, map[string]any{"lines": []any{map[string]any{"line": 1, "units": 2}}}, 200)
		// Available in warehouse 1: 6 - 2 shipped - 1 committed = 3; line 1
		// has 2 unallocated (3 open, 1 committed), covered; line 2 has 5,
		// short 2.
		shipping := []stockroom.OpenShippingRow{
			{SONo: "SO-1", Line: 1, ItemID: "ITEM-A", WID: 1, Units: u("5"), Committed: u("1"), Shipped: u("2"), Open: u("3"), Available: u("3")},
			{SONo: "SO-1", Line: 2, ItemID: "ITEM-A", WID: 1, Units: u("5"), Open: u("5"), Available: u("3"), Short: u("2")},
		}
		checkRows(t, runReport[stockroom.OpenShippingRow](t, a, admin, stockroom.ReportOpenShippingOrders, nil), shipping,
			func(r *stockroom.OpenShippingRow) { r.PartNo, r.DueDate = 0, nil })
		scoped := a.reportClient(t, stockroom.Scope{IDs: []int64{2}}, nil, allReports)
		if p := runReport[stockroom.OpenShippingRow](t, a, scoped, stockroom.ReportOpenShippingOrders, nil); len(p.Value) != 0 || p.TotalCount != 0 {
			t.Errorf("warehouse 2's client sees %+v", p)
		}
	})
}

func TestReportLotTrace(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := stockAPI(t, a)
		lot := func(v map[string]any) int64 { return int64(v["lot"].(map[string]any)["recNo"].(float64)) }
		r := lot(a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 10, "wid": 1, "reasonCode": 1, "serial": "SN-1"}, 201))
		a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 7, "wid": 1, "reasonCode": 1, "serial": "SN-2"}, 201)
		split := decode[stockroom.DrawResult](t, a.mustSend(t, "POST", "/api/v1/Inventory/Move", admin, map[string]any{"recno": r, "units": 3, "toSpot": "X"}, 200))
		r2 := *split.Lines[0].NewRecNo
		a.mustSend(t, "POST", "/api/v1/Inventory/Move", admin, map[string]any{"recno": r2, "shipToWid": 2}, 200)
		transfer := decode[stockroom.DrawResult](t, a.mustSend(t, "POST", "/api/v1/Inventory/Move", admin,
			map[string]any{"recno": r, "units": 2, "shipToWid": 2, "transitSlip": "TS-1"}, 200))
		got := decode[stockroom.TransitReceiveResult](t, a.mustSend(t, "POST", fmt.Sprintf("/api/v1/Transit/%d/Receive", *transfer.TransitID), admin,
			map[string]any{"lines": []any{map[string]any{"line": 1, "units": 2}}}, 200))
		r3 := *got.Lines[0].RecNo
		a.mustPost(t, admin, "/api/v1/Inventory/Issue", map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 2, "recno": r3, "reasonCode": 20}, 200)

		want := fmt.Sprint([]string{
			fmt.Sprintf("receive %d 1 10", r),
			fmt.Sprintf("move %d 1 -3", r), fmt.Sprintf("move %d 1 3", r2),
			fmt.Sprintf("move %d 1 -3", r2), fmt.Sprintf("move %d 2 3", r2),
			fmt.Sprintf("transfer %d 1 -2", r),
			fmt.Sprintf("transit-receive %d 2 2", r3),
			fmt.Sprintf("issue %d 2 -1", r3),
		})
		for _, q := range []url.Values{{"recNo": {fmt.Sprint(r)}}, {"serial": {"SN-1"}}} {
			page := runReport[stockroom.TraceRow](t, a, admin, stockroom.ReportLotTrace, q)
			var lines []string
			for _, l := range page.Value {
				lines = append(lines, fmt.Sprintf("%s %d %d %s", l.Type, l.RecNo, l.WID, l.Units))
			}
			if fmt.Sprint(lines) != want || page.TotalCount != 8 {
				t.Errorf("%v: %v (%d), want %s", q, lines, page.TotalCount, want)
			}
		}
		// From the split lot on, only its own lines.
		page := runReport[stockroom.TraceRow](t, a, admin, stockroom.ReportLotTrace, url.Values{"recNo": {fmt.Sprint(r2)}})
		if len(page.Value) != 3 {
			t.Errorf("trace of the split lot: %+v", page.Value)
		}
		scoped := a.reportClient(t, stockroom.Scope{IDs: []int64{2}}, nil, allReports)
		if page := runReport[stockroom.TraceRow](t, a, scoped, stockroom.ReportLotTrace, url.Values{"serial": {"SN-1"}}); page.TotalCount != 3 {
			t.Errorf("warehouse 2's client traces %+v", page.Value)
		}
	})
}

package httpapi_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
)

// hiddenCase is one request that names a record by id, sent twice by the
// same client: naming a record it may not see (hidden), and one that does
// not exist (missing). {id} in the path and the body stands for the id.
type hiddenCase struct {
	name, method, path, body string
	hidden, missing          string
}

// hiddenFixture is what boundaryAPI's records are joined by for
// TestHiddenIsMissing, all the administrator's: owner B's lot, ledger
// entry, purchase, shipping and work orders and transfer; and orders and a
// notice of lines of both owners (PO-MIX, SO-MIX).
type hiddenFixture struct {
	theirsPartNo, lotOfB, txOfB, transferOfB, mixedNotice string
}

func hiddenRecords(t *testing.T, a *api, admin string) hiddenFixture {
	t.Helper()
	var f hiddenFixture
	f.theirsPartNo = fmt.Sprint(a.getItem(t, admin, "/api/v1/Item?key=THEIRS").PartNo)
	a.receiveFor(t, admin, ownerA, 5)
	receipt := a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 5, "wid": 1, "reasonCode": 1, "owner": ownerB}, 201)
	f.lotOfB, f.txOfB = fmt.Sprint(receipt["recNo"]), fmt.Sprint(receipt["transactionID"])
	line := func(owner int64) map[string]any {
		return map[string]any{"itemID": "ITEM-A", "units": 1, "warehouse": 1, "owner": owner}
	}
	a.mustPost(t, admin, "/api/v1/PurchaseOrder", map[string]any{"poNo": "PO-B", "vendorID": "BOLTCO", "lines": []any{line(ownerB)}}, 201)
	a.mustPost(t, admin, "/api/v1/PurchaseOrder", map[string]any{"poNo": "PO-MIX", "vendorID": "BOLTCO", "lines": []any{line(ownerA), line(ownerB)}}, 201)
	a.mustPost(t, admin, "/api/v1/ShippingOrder", map[string]any{"soNo": "SO-B", "customerID": ownerB, "lines": []any{line(ownerB)}}, 201)
	a.mustPost(t, admin, "/api/v1/ShippingOrder", map[string]any{"soNo": "SO-MIX", "customerID": ownerB, "reference": "B's own words",
		"remark": "for B's eyes", "lines": []any{line(ownerA), line(ownerB)}}, 201)
	a.mustPost(t, admin, "/api/v1/WorkOrder", map[string]any{"woNo": "WO-B", "itemID": "ITEM-B", "units": 1, "wid": 1, "owner": ownerB,
		"components": []any{map[string]any{"itemID": "ITEM-A", "units": 1}}}, 201)
	transfer := a.mustPost(t, admin, "/api/v1/Inventory/Move", map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "shipToWid": 2,
		"transitSlip": "T-B", "owner": ownerB}, 200)
	f.transferOfB = fmt.Sprint(transfer["transitID"])
	notice := a.mustPost(t, admin, "/api/v1/PurchaseOrder/PO-MIX/Ship", map[string]any{"asn": "ASN-MIX", "lines": []any{
		map[string]any{"line": 1, "units": 1}, map[string]any{"line": 2, "units": 1}}}, 201)
	f.mixedNotice = fmt.Sprint(notice["id"])
	return f
}

// hiddenCases are the requests of a client limited to owner A that name a
// record by id, each with a record of owner B (or a line of B's in a
// record A sees) and a missing one.
func hiddenCases(f hiddenFixture) []hiddenCase {
	stock := `{"itemID":"ITEM-A","units":1,"wid":1,"owner":7,`
	mixed := "/api/v1/Transit/" + f.mixedNotice
	return []hiddenCase{
		{"ItemByPartNo", "GET", "/api/v1/Item/{id}", "", f.theirsPartNo, "999999"},
		{"ItemByShortID", "GET", "/api/v1/Item?key={id}", "", "THEIRS", "NO-SUCH"},
		{"ItemByAlias", "GET", "/api/v1/Item?key={id}&type=alias", "", "THEIRS-AL", "NO-AL"},
		{"ChangeItem", "PUT", "/api/v1/Item", `{"shortID":"{id}","description":"x"}`, "THEIRS", "NO-SUCH"},
		{"MoveItemIntoOwnCatalogue", "PUT", "/api/v1/Item", `{"shortID":"{id}","dfltOwner":7}`, "THEIRS", "NO-SUCH"},
		{"DiscontinueItem", "DELETE", "/api/v1/Item/{id}", "", "THEIRS", "NO-SUCH"},
		{"AliasAnItem", "POST", "/api/v1/Alias", `{"alias":"NEW-AL","itemID":"{id}"}`, "THEIRS", "NO-SUCH"},
		{"DeleteAlias", "DELETE", "/api/v1/Alias/{id}", "", "THEIRS-AL", "NO-AL"},
		{"Receive", "POST", "/api/v1/Inventory/Receive", `{"itemID":"{id}","units":1,"wid":1,"reasonCode":1}`, "THEIRS", "NO-SUCH"},
		{"ReceiveForOwnOwner", "POST", "/api/v1/Inventory/Receive", `{"itemID":"{id}","units":1,"wid":1,"reasonCode":1,"owner":7}`, "THEIRS", "NO-SUCH"},
		{"Issue", "POST", "/api/v1/Inventory/Issue", `{"itemID":"{id}","units":1,"wid":1,"reasonCode":20}`, "THEIRS", "NO-SUCH"},
		{"Move", "POST", "/api/v1/Inventory/Move", `{"itemID":"{id}","units":1,"wid":1,"toSpot":"T"}`, "THEIRS", "NO-SUCH"},
		{"Transfer", "POST", "/api/v1/Inventory/Move", `{"itemID":"{id}","units":1,"wid":1,"shipToWid":2,"transitSlip":"X"}`, "THEIRS", "NO-SUCH"},
		{"IssueLot", "POST", "/api/v1/Inventory/Issue", stock + `"reasonCode":20,"recno":{id}}`, f.lotOfB, "999999"},
		{"MoveLot", "POST", "/api/v1/Inventory/Move", stock + `"toSpot":"T","recno":{id}}`, f.lotOfB, "999999"},
		{"HoldLot", "POST", "/api/v1/Inventory/Hold", `{"recno":{id}}`, f.lotOfB, "999999"},
		{"ReleaseLot", "POST", "/api/v1/Inventory/Release", `{"recno":{id}}`, f.lotOfB, "999999"},
		{"IssueToCustomer", "POST", "/api/v1/Inventory/Issue", stock + `"reasonCode":20,"shipto":{id}}`, "8", "999"},
		{"ReceiveAgainstOrder", "POST", "/api/v1/Inventory/Receive", stock + `"reasonCode":1,"poNo":"{id}","line":1}`, "PO-B", "PO-NONE"},
		{"ReceiveAgainstLine", "POST", "/api/v1/Inventory/Receive", stock + `"reasonCode":1,"poNo":"PO-MIX","line":{id}}`, "2", "9"},
		{"Transaction", "GET", "/api/v1/Inventory/Transactions/{id}", "", f.txOfB, "999999"},
		{"Customer", "GET", "/api/v1/Customer/{id}", "", "C-8", "C-99"},
		{"ChangeCustomer", "PUT", "/api/v1/Customer", `{"shortID":"{id}","city":"x"}`, "C-8", "C-99"},
		{"DiscontinueCustomer", "DELETE", "/api/v1/Customer/{id}", "", "C-8", "C-99"},
		{"ShipToCustomer", "POST", "/api/v1/ShippingOrder", `{"customerID":{id},"owner":7,"lines":[{"itemID":"MINE","units":1,"warehouse":1}]}`, "8", "999"},
		{"ShipToCustomerByShortID", "POST", "/api/v1/ShippingOrder", `{"customerID":"{id}","owner":7,"lines":[{"itemID":"MINE","units":1,"warehouse":1}]}`, "C-8", "C-99"},
		{"PurchaseOrder", "GET", "/api/v1/PurchaseOrder/{id}", "", "PO-B", "PO-NONE"},
		{"ChangePurchaseOrder", "PUT", "/api/v1/PurchaseOrder", `{"poNo":"{id}","remark":"x"}`, "PO-B", "PO-NONE"},
		{"ChangePurchaseLine", "PUT", "/api/v1/PurchaseOrder", `{"poNo":"{id}","lines":[{"lineNo":9,"units":1}]}`, "PO-B", "PO-NONE"},
		{"ClosePurchaseOrder", "POST", "/api/v1/PurchaseOrder/{id}/Close", "", "PO-B", "PO-NONE"},
		{"CancelPurchaseOrder", "POST", "/api/v1/PurchaseOrder/{id}/Cancel", "", "PO-B", "PO-NONE"},
		{"ShipNotice", "POST", "/api/v1/PurchaseOrder/{id}/Ship", `{"asn":"A","lines":[{"line":1,"units":1}]}`, "PO-B", "PO-NONE"},
		{"ShipNoticeOfNoLine", "POST", "/api/v1/PurchaseOrder/{id}/Ship", `{"asn":"A","lines":[{"line":9,"units":1}]}`, "PO-B", "PO-NONE"},
		{"ShipNoticeOfALine", "POST", "/api/v1/PurchaseOrder/PO-MIX/Ship", `{"asn":"A","lines":[{"line":{id},"units":1}]}`, "2", "9"},
		{"ShippingOrder", "GET", "/api/v1/ShippingOrder/{id}", "", "SO-B", "SO-NONE"},
		{"ChangeShippingOrder", "PUT", "/api/v1/ShippingOrder", `{"soNo":"{id}","remark":"x"}`, "SO-B", "SO-NONE"},
		{"ChangeShippingLine", "PUT", "/api/v1/ShippingOrder", `{"soNo":"SO-MIX","lines":[{"lineNo":{id},"units":2}]}`, "2", "9"},
		{"CommitNoLine", "POST", "/api/v1/ShippingOrder/{id}/Commit", `{"lines":[{"line":3}]}`, "SO-B", "SO-NONE"},
		{"Commit", "POST", "/api/v1/ShippingOrder/{id}/Commit", `{}`, "SO-B", "SO-NONE"},
		{"CommitALine", "POST", "/api/v1/ShippingOrder/SO-MIX/Commit", `{"lines":[{"line":{id}}]}`, "2", "9"},
		{"Uncommit", "POST", "/api/v1/ShippingOrder/{id}/Uncommit", `{"lines":[{"line":1}]}`, "SO-B", "SO-NONE"},
		{"Pack", "POST", "/api/v1/ShippingOrder/{id}/Pack", `{"lines":[{"line":1,"units":1}]}`, "SO-B", "SO-NONE"},
		{"PackALine", "POST", "/api/v1/ShippingOrder/SO-MIX/Pack", `{"lines":[{"line":{id},"units":1}]}`, "2", "9"},
		{"Ship", "POST", "/api/v1/ShippingOrder/{id}/Ship", `{"lines":[{"line":3,"units":1}]}`, "SO-B", "SO-NONE"},
		{"CancelShippingOrder", "POST", "/api/v1/ShippingOrder/{id}/Cancel", "", "SO-B", "SO-NONE"},
		{"CloseShippingOrder", "POST", "/api/v1/ShippingOrder/{id}/Close", "", "SO-B", "SO-NONE"},
		{"WorkOrder", "GET", "/api/v1/WorkOrder/{id}", "", "WO-B", "WO-NONE"},
		{"CommitWork", "POST", "/api/v1/WorkOrder/{id}/Commit", `{"lines":[{"line":9}]}`, "WO-B", "WO-NONE"},
		{"CompleteWork", "POST", "/api/v1/WorkOrder/{id}/Complete", `{"units":1}`, "WO-B", "WO-NONE"},
		{"CancelWork", "POST", "/api/v1/WorkOrder/{id}/Cancel", "", "WO-B", "WO-NONE"},
		{"CloseWork", "POST", "/api/v1/WorkOrder/{id}/Close", "", "WO-B", "WO-NONE"},
		{"Transit", "GET", "/api/v1/Transit/{id}", "", f.transferOfB, "999999"},
		{"ReceiveTransit", "POST", "/api/v1/Transit/{id}/Receive", `{}`, f.transferOfB, "999999"},
		{"ReceiveTransitLine", "POST", "/api/v1/Transit/{id}/Receive", `{"lines":[{"line":9}]}`, f.transferOfB, "999999"},
		{"ReceiveALine", "POST", mixed + "/Receive", `{"lines":[{"line":{id}}]}`, "2", "9"},
		{"CancelTransit", "POST", "/api/v1/Transit/{id}/Cancel", "", f.transferOfB, "999999"},
	}
}

// scopedHiddenCases are those of a client scoped to warehouse 1 (every
// owner): warehouse 2 exists, 99 does not.
var scopedHiddenCases = []hiddenCase{
	{"Lots", "GET", "/api/v1/Inventory/{id}", "", "2", "99"},
	{"Levels", "GET", "/api/v1/Inventory/StockLevels/{id}", "", "2", "99"},
	{"ReceiveInto", "POST", "/api/v1/Inventory/Receive", `{"itemID":"ITEM-A","units":1,"wid":{id},"reasonCode":1}`, "2", "99"},
	{"MoveInto", "POST", "/api/v1/Inventory/Move", `{"itemID":"ITEM-A","units":1,"wid":1,"shipToWid":{id},"toSpot":"X"}`, "2", "99"},
}

// TestHiddenIsMissing: for every request that names a record by id, a
// record the client may not see and one that does not exist get the same
// status and error code, and messages and details that differ only in the
// id the request named; and neither changes anything.
func TestHiddenIsMissing(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin, _, limited := boundaryAPI(t, a)
		f := hiddenRecords(t, a, admin)
		scoped := a.scopedToken(t, []int64{1}, nil, stockroom.AllPermissions...)
		before := a.sharedState(t, admin)
		for tok, cases := range map[string][]hiddenCase{limited: hiddenCases(f), scoped: scopedHiddenCases} {
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) { c.check(t, a, tok) })
			}
		}
		if after := a.sharedState(t, admin); after != before {
			t.Fatalf("requests about hidden and missing records changed something:\n%s\n%s", before, after)
		}
	})
}

// check sends the case twice and compares the answers.
func (c hiddenCase) check(t *testing.T, a *api, tok string) {
	t.Helper()
	send := func(id string) (response, map[string]any) {
		path, body := strings.ReplaceAll(c.path, "{id}", id), strings.ReplaceAll(c.body, "{id}", id)
		r := a.send(t, c.method, path, tok, body)
		if r.status < 400 {
			t.Fatalf("%s %s %s: %d %s, want a refusal", c.method, path, body, r.status, r.body)
		}
		return r, r.json(t)
	}
	hr, hidden := send(c.hidden)
	mr, missing := send(c.missing)
	if hr.status != mr.status || hidden["error"] != missing["error"] {
		t.Fatalf("hidden %s: %d %s; missing %s: %d %s", c.hidden, hr.status, hr.body, c.missing, mr.status, mr.body)
	}
	// The hidden answer, with the id named changed to the missing one's,
	// is the missing answer.
	id := regexp.MustCompile(`\b` + regexp.QuoteMeta(c.hidden) + `\b`)
	delete(hidden, "statusCode")
	delete(missing, "statusCode")
	h, _ := json.Marshal(hidden)
	m, _ := json.Marshal(missing)
	if string(h) != string(m) && id.ReplaceAllString(string(h), c.missing) != string(m) {
		t.Fatalf("hidden %s answered %s; missing %s answered %s", c.hidden, h, c.missing, m)
	}
}

// TestMixedOrderHeader: of an order to another owner's customer that a
// client limited to owners sees by a line of its own, it sees neither the
// customer nor the texts of the order, in the order and in lists.
func TestMixedOrderHeader(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin, _, limited := boundaryAPI(t, a)
		hiddenRecords(t, a, admin)
		so := decode[stockroom.ShippingOrder](t, a.get(t, "/api/v1/ShippingOrder/SO-MIX", limited))
		if so.Customer != "" || so.CustomerID != 0 || so.Reference != "" || so.Remark != "" || len(so.Lines) != 1 || so.Lines[0].Owner != ownerA {
			t.Errorf("the limited client's view of SO-MIX: %+v", so)
		}
		list := decode[page[stockroom.ShippingOrder]](t, a.get(t, "/api/v1/ShippingOrder", limited))
		if len(list.Value) != 1 || list.Value[0].SONo != "SO-MIX" || list.Value[0].CustomerID != 0 || list.Value[0].Reference != "" {
			t.Errorf("the limited client's shipping orders: %+v", list.Value)
		}
		if so := decode[stockroom.ShippingOrder](t, a.get(t, "/api/v1/ShippingOrder/SO-MIX", admin)); so.CustomerID != ownerB || so.Reference != "B's own words" {
			t.Errorf("the administrator's view of SO-MIX: %+v", so)
		}
	})
}

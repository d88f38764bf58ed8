package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestConsoleOrders(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *site) {
		for _, item := range []string{"BOLT", "SHELF", "PLANK"} {
			s.apiCall(t, http.MethodPost, "/api/v1/Item", `{"shortID":"`+item+`"}`)
		}
		s.apiCall(t, http.MethodPost, "/api/v1/Vendor", `{"shortID":"BOLTCO","name":"Bolt Co"}`)
		s.apiCall(t, http.MethodPost, "/api/v1/Inventory/Receive", `{"itemID":"PLANK","units":8,"wid":1,"reasonCode":1}`)
		b := s.browser(t)
		b.signIn(s.adminID, s.secret)

		b.get("/console/purchase")
		p := b.post("/console/purchase", url.Values{"vendorID": {"NOBODY"}, "itemID": {"BOLT"}, "units": {"5"}, "wid": {"1"}})
		if p.status != http.StatusBadRequest || !strings.Contains(p.body, `id="e-vendorID"`) {
			t.Fatalf("an order of an unknown vendor: %d, want 400 with the message beside the vendor", p.status)
		}
		p = b.post("/console/purchase", url.Values{"vendorID": {"BOLTCO"}, "itemID": {"BOLT"}, "units": {"50"}, "wid": {"1"}})
		if p.status != http.StatusSeeOther || p.header.Get("Location") != "/console/purchase/PO-000001?done=Placed+PO-000001." {
			t.Fatalf("place a purchase order: %d %q", p.status, p.header.Get("Location"))
		}
		p = b.post("/console/stock/receive", url.Values{"itemID": {"BOLT"}, "units": {"20"}, "wid": {"1"}, "reasonCode": {"1"}, "poNo": {"PO-000001"}, "line": {"1"}})
		if p.status != http.StatusSeeOther {
			t.Fatalf("receive against the order's line: %d %s", p.status, p.body)
		}
		if p = b.get("/console/purchase/PO-000001"); !strings.Contains(p.body, "<td>50</td><td>20</td><td>30</td>") {
			t.Fatal("the order's line does not show 20 received and 30 due")
		}

		s.apiCall(t, http.MethodPost, "/api/v1/WorkOrder", `{"itemID":"SHELF","units":2,"wid":1,"components":[{"itemID":"PLANK","units":4}]}`)
		b.get("/console/work/WO-000001")
		for _, action := range []string{"commit", "complete"} {
			if p = b.post("/console/work/WO-000001/"+action, url.Values{"units": {"1"}}); p.status != http.StatusSeeOther {
				t.Fatalf("%s: %d %s", action, p.status, p.body)
			}
		}
		if p = b.post("/console/work/WO-000001/complete", url.Values{"units": {"5"}}); p.status < 400 || p.status > 499 ||
			!strings.Contains(p.body, `id="page-error"`) || !strings.Contains(p.body, `id="order-status">In Progress<`) {
			t.Errorf("complete more than ordered: %d, want the API's refusal above the order", p.status)
		}
		if p = b.get("/console/levels?item=SHELF"); !strings.Contains(p.body, `data-figure="inStock">1<`) {
			t.Fatal("the completed product is not in stock")
		}
		if p = b.post("/console/work/WO-000001/ship", url.Values{}); p.status != http.StatusNotFound {
			t.Errorf("an action work orders do not have: %d, want 404", p.status)
		}
	})
}

package httpapi_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// strictStep is one write with unknown fields in its body: {recno} and
// {transit} stand for what earlier steps made.
type strictStep struct {
	method, path, body string
	status             int
	// unknown: each unknown field's path, as sent, and the resource it is
	// not a field of.
	unknown map[string]string
}

// strictSteps go through every write endpoint that reads a body, in an
// order in which each succeeds, each body with a field its type lacks
// (and its lines one their type lacks).
func strictSteps() []strictStep {
	of := func(top string, more ...string) map[string]string {
		m := map[string]string{"zz": top}
		for i := 0; i+1 < len(more); i += 2 {
			m[more[i]] = more[i+1]
		}
		return m
	}
	return []strictStep{
		{"POST", "/api/v1/Item", `{"shortID":"S-1","description":"strict","zz":1}`, 201, of("Item")},
		{"POST", "/api/v1/Item", `{"shortID":"S-2","description":"kit","zz":1}`, 201, of("Item")},
		{"PUT", "/api/v1/Item", `{"shortID":"S-1","descripton":"typo","zz":1}`, 200, of("Item", "descripton", "Item")},
		{"POST", "/api/v1/Alias", `{"alias":"S-1-AL","itemID":"S-1","zz":1}`, 201, of("Alias")},
		{"POST", "/api/v1/Inventory/Receive", `{"itemID":"S-1","units":10,"wid":1,"reasonCode":1,"spot":"A","zz":1}`, 201, of("Receive")},
		{"POST", "/api/v1/Inventory/Move", `{"itemID":"S-1","units":1,"wid":1,"toSpot":"B","zz":1}`, 200, of("Move")},
		{"POST", "/api/v1/Inventory/Issue", `{"itemID":"S-1","units":1,"wid":1,"reasonCode":20,"zz":1}`, 200, of("Issue")},
		{"POST", "/api/v1/Inventory/Hold", `{"recno":{recno},"zz":1}`, 200, of("Hold")},
		{"POST", "/api/v1/Inventory/Release", `{"recno":{recno},"zz":1}`, 200, of("Hold")},
		{"POST", "/api/v1/Customer", `{"shortID":"C-S","name":"Strict","zz":1}`, 201, of("Customer")},
		{"PUT", "/api/v1/Customer", `{"shortID":"C-S","city":"Leeds","zz":1}`, 200, of("Customer")},
		{"POST", "/api/v1/Vendor", `{"shortID":"V-S","name":"Strict","zz":1}`, 201, of("Vendor")},
		{"PUT", "/api/v1/Vendor", `{"shortID":"V-S","city":"Leeds","zz":1}`, 200, of("Vendor")},
		{"POST", "/api/v1/Category", `{"name":"Strict","zz":1}`, 201, of("Category")},
		{"PUT", "/api/v1/Category", `{"categoryID":{category},"description":"d","zz":1}`, 200, of("Category")},
		{"POST", "/api/v1/PurchaseOrder", `{"poNo":"PO-S","vendorID":"V-S","zz":1,"lines":[{"itemID":"S-1","units":5,"warehouse":1,"zz":1}]}`, 201,
			of("PurchaseOrder", "lines[0].zz", "OrderLine")},
		{"PUT", "/api/v1/PurchaseOrder", `{"poNo":"PO-S","remark":"r","zz":1,"lines":[{"lineNo":1,"units":6,"zz":1}]}`, 200,
			of("PurchaseOrder", "lines[0].zz", "OrderLine")},
		{"POST", "/api/v1/PurchaseOrder/PO-S/Ship", `{"asn":"ASN-S","zz":1,"lines":[{"line":1,"units":2,"zz":1}]}`, 201,
			of("ShipNotice", "lines[0].zz", "ShipNoticeLine")},
		{"POST", "/api/v1/Transit/{transit}/Receive", `{"zz":1}`, 200, of("TransitReceive")},
		{"POST", "/api/v1/ShippingOrder", `{"soNo":"SO-S","customerID":"C-S","zz":1,"lines":[{"itemID":"S-1","units":3,"warehouse":1,"zz":1}]}`, 201,
			of("ShippingOrder", "lines[0].zz", "OrderLine")},
		{"PUT", "/api/v1/ShippingOrder", `{"soNo":"SO-S","remark":"r","zz":1}`, 200, of("ShippingOrder")},
		{"POST", "/api/v1/ShippingOrder/SO-S/Commit", `{"zz":1,"lines":[{"line":1,"zz":1}]}`, 200, of("Commit", "lines[0].zz", "AllocLine")},
		{"POST", "/api/v1/ShippingOrder/SO-S/Uncommit", `{"zz":1,"lines":[{"line":1,"units":1,"zz":1}]}`, 200, of("Uncommit", "lines[0].zz", "AllocLine")},
		{"POST", "/api/v1/ShippingOrder/SO-S/Pack", `{"zz":1,"lines":[{"line":1,"units":1,"zz":1}]}`, 200, of("Pack", "lines[0].zz", "AllocLine")},
		{"POST", "/api/v1/ShippingOrder/SO-S/Ship", `{"zz":1,"lines":[{"line":1,"units":1,"zz":1}]}`, 200, of("Ship", "lines[0].zz", "AllocLine")},
		{"POST", "/api/v1/WorkOrder", `{"woNo":"WO-S","itemID":"S-2","units":1,"wid":1,"zz":1,"components":[{"itemID":"S-1","units":1,"zz":1}]}`, 201,
			of("WorkOrder", "components[0].zz", "Component")},
		{"POST", "/api/v1/WorkOrder/WO-S/Commit", `{"zz":1}`, 200, of("Commit")},
		{"POST", "/api/v1/WorkOrder/WO-S/Complete", `{"units":1,"zz":1}`, 200, of("Complete")},
	}
}

// TestStrictRequests: every write endpoint that reads a body, sent first
// with Prefer: handling=strict, which refuses each unknown field by name
// and changes nothing, then leniently, which succeeds and names exactly
// the fields it ignored in Stockroom-Ignored-Fields (contract §1).
func TestStrictRequests(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin, _, _ := boundaryAPI(t, a)
		made := map[string]string{}
		for _, s := range strictSteps() {
			path, body := s.path, s.body
			for k, v := range made {
				path, body = strings.ReplaceAll(path, k, v), strings.ReplaceAll(body, k, v)
			}
			name := s.method + " " + s.path
			before := a.sharedState(t, admin)
			r := a.do(t, s.method, path, strings.NewReader(body), "Authorization", "Bearer "+admin,
				"Content-Type", "application/json", "Prefer", "respond-async, handling=strict")
			e := wantError(t, r, 400, "validation_error")
			want := map[string][]string{}
			for f, of := range s.unknown {
				want[f] = []string{"is not a field of " + of}
			}
			if got := details(t, e); !maps.EqualFunc(got, want, slices.Equal) {
				t.Errorf("%s strict: details %v, want %v", name, got, want)
			}
			if r.header.Get("Preference-Applied") != "handling=strict" || r.header.Get("Stockroom-Ignored-Fields") != "" {
				t.Errorf("%s strict: Preference-Applied %q, Stockroom-Ignored-Fields %q", name,
					r.header.Get("Preference-Applied"), r.header.Get("Stockroom-Ignored-Fields"))
			}
			if after := a.sharedState(t, admin); after != before {
				t.Fatalf("%s: the strict refusal changed something", name)
			}
			r = a.send(t, s.method, path, admin, body)
			if r.status != s.status {
				t.Fatalf("%s %s: %d %s, want %d", s.method, path, r.status, r.body, s.status)
			}
			got := strings.Split(r.header.Get("Stockroom-Ignored-Fields"), ", ")
			slices.Sort(got)
			if wantFields := slices.Sorted(maps.Keys(s.unknown)); !slices.Equal(got, wantFields) {
				t.Errorf("%s: Stockroom-Ignored-Fields %q, want %v", name, r.header.Get("Stockroom-Ignored-Fields"), wantFields)
			}
			if r.header.Get("Preference-Applied") != "" {
				t.Errorf("%s lenient: Preference-Applied %q", name, r.header.Get("Preference-Applied"))
			}
			v := r.json(t)
			if lot, ok := v["lot"].(map[string]any); ok && made["{recno}"] == "" {
				made["{recno}"] = fmt.Sprint(lot["recNo"])
			}
			if s.path == "/api/v1/Category" && s.method == "POST" {
				made["{category}"] = fmt.Sprint(v["categoryID"])
			}
			if s.path == "/api/v1/PurchaseOrder/PO-S/Ship" {
				made["{transit}"] = fmt.Sprint(v["id"])
			}
		}
	})
}

// details reads an error object's details as field → messages.
func details(t *testing.T, e map[string]any) map[string][]string {
	t.Helper()
	b, _ := json.Marshal(e["details"])
	var d map[string][]string
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("details %s: %v", b, err)
	}
	return d
}

// TestIgnoredFieldsHeader: names that would break the list or the header
// are percent-encoded, and a body of many unknown fields gets a header of
// bounded size.
func TestIgnoredFieldsHeader(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := stockAPI(t, a)
		r := a.mustSend(t, "PUT", "/api/v1/Item", admin, `{"shortID":"ITEM-A","a,b":1,"ü":2,"x y":3}`, 200)
		if got := r.header.Get("Stockroom-Ignored-Fields"); got != "a%2Cb, %C3%BC, x%20y" {
			t.Errorf("Stockroom-Ignored-Fields %q", got)
		}
		var b strings.Builder
		b.WriteString(`{"shortID":"ITEM-A"`)
		for i := range 5000 {
			fmt.Fprintf(&b, `,"unknown-field-%05d":1`, i)
		}
		b.WriteString("}")
		r = a.mustSend(t, "PUT", "/api/v1/Item", admin, b.String(), 200)
		h := r.header.Get("Stockroom-Ignored-Fields")
		if len(h) > 4<<10 || !strings.HasPrefix(h, "unknown-field-00000, unknown-field-00001") || !strings.HasSuffix(h, ", …") {
			t.Errorf("Stockroom-Ignored-Fields of %d bytes: %.60q…%q", len(h), h, h[max(0, len(h)-30):])
		}
	})
}

package console

import (
	"cmp"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/stockroom/stockroom"
)

// orderKind is one of the three kinds of order the console shows: where
// the API keeps them, the columns of their lines, the actions it offers
// and the fields of its one-line order form (none: no form).
type orderKind struct {
	Slug, Title, API, Number string
	// Columns are the line's fields shown, with their headings.
	Columns []column
	Actions []string
	Create  []field
	// LineKey puts the form's line fields (itemID, units, wid) in lines
	// (or in components, for a work order's).
	LineKey string
	// LineNo names a line's number in the API's answer: lineNo, or line
	// for a transit's.
	LineNo string
}

type column struct{ Key, Heading string }

var orderKinds = []orderKind{
	{Slug: "shipping", Title: "Shipping orders", API: "ShippingOrder", Number: "soNo",
		Columns: []column{{"lineNo", "Line"}, {"shortID", "Item"}, {"warehouse", "Warehouse"}, {"units", "Units"},
			{"unitsCommitted", "Committed"}, {"unitsPacked", "Packed"}, {"unitsShipped", "Shipped"}},
		Actions: []string{"Commit", "Pack", "Ship", "Uncommit", "Cancel"}, LineKey: "lines",
		Create: []field{{"customerID", "Customer", "ref", "customer ShortID", true}, {"owner", "Owner", "ref", "empty: the item's", false},
			{"itemID", "Item", "text", "ShortID", true}, {"units", "Units", "number", "", true},
			{"wid", "Warehouse", "number", "", true}, {"reference", "Reference", "text", "", false}}},
	{Slug: "purchase", Title: "Purchase orders", API: "PurchaseOrder", Number: "poNo",
		Columns: []column{{"lineNo", "Line"}, {"shortID", "Item"}, {"warehouse", "Warehouse"}, {"units", "Units"},
			{"unitsReceived", "Received"}, {"unitsDue", "Due"}},
		Actions: []string{"Close", "Cancel"}, LineKey: "lines",
		Create: []field{{"vendorID", "Vendor", "ref", "vendor ShortID", true}, {"itemID", "Item", "text", "ShortID", true},
			{"units", "Units", "number", "", true}, {"wid", "Warehouse", "number", "", true}, {"reference", "Reference", "text", "", false}}},
	{Slug: "work", Title: "Work orders", API: "WorkOrder", Number: "woNo",
		Columns: []column{{"lineNo", "Line"}, {"shortID", "Component"}, {"units", "Units"}, {"perUnit", "Per product"},
			{"unitsCommitted", "Committed"}, {"unitsCompleted", "Consumed"}},
		Actions: []string{"Commit", "Complete", "Cancel", "Close"}},
	{Slug: "transits", Title: "Transits", API: "Transit", Number: "id", LineNo: "line",
		Columns: []column{{"line", "Line"}, {"shortID", "Item"}, {"units", "Units"}, {"unitsReceived", "Received"},
			{"unitsRejected", "Rejected"}, {"unitsDue", "Due"}},
		Actions: []string{"Receive", "Cancel"}},
}

func kindOf(r *http.Request) (orderKind, bool) {
	slug, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, Prefix+"/"), "/")
	for _, k := range orderKinds {
		if slug == k.Slug {
			return k, true
		}
	}
	return orderKind{}, false
}

// orderRoutes are the screens and actions of each kind of order.
func (h *Handler) orderRoutes() []route {
	var rs []route
	for _, k := range orderKinds {
		base := Prefix + "/" + k.Slug
		rs = append(rs,
			route{"GET " + base, h.orderList},
			route{"POST " + base, h.orderCreate},
			route{"GET " + base + "/{no}", h.orderPage},
			route{"POST " + base + "/{no}/{action}", h.orderAction})
	}
	return rs
}

type orderListData struct {
	Kind   orderKind
	Orders []map[string]any
	Form   formData
}

func (h *Handler) orderList(w http.ResponseWriter, r *http.Request, s *session) {
	k, _ := kindOf(r)
	h.orderListScreen(w, r, s, orderListData{Kind: k, Form: formData{Values: map[string]string{}, Errors: map[string]string{}}}, answer{Status: http.StatusOK})
}

// orderListScreen shows the orders of d's kind and its form, with the
// refusal of the form's last post if it had one.
func (h *Handler) orderListScreen(w http.ResponseWriter, r *http.Request, s *session, d orderListData, refusal answer) {
	k := d.Kind
	d.Form.Spec = stockOp{Title: "New " + strings.ToLower(strings.TrimSuffix(k.Title, "s")), Verb: "Place order", Fields: k.Create}
	var list stockroom.Envelope[map[string]any]
	a := h.get(r, s, "/api/v1/"+k.API, url.Values{"pageSize": {"50"}, "sort": {k.Number}, "direction": {"DESC"}}, &list)
	d.Orders = list.Value
	if a.ok() && !refusal.ok() {
		a = refusal
	}
	h.screen(w, r, s, a, &view{page: "orders", Title: k.Title, Nav: k.Slug, Live: true, Data: d})
}

// orderCreate places an order of one line.
func (h *Handler) orderCreate(w http.ResponseWriter, r *http.Request, s *session) {
	k, _ := kindOf(r)
	f := formData{Values: map[string]string{}}
	var m map[string]any
	_ = json.Unmarshal(formJSON(r, k.Create, f.Values), &m)
	line := map[string]any{}
	for _, key := range []string{"itemID", "units", "wid"} {
		if v, ok := m[key]; ok {
			line[key] = v
			delete(m, key)
		}
	}
	m[k.LineKey] = []any{line}
	a := h.call(r, s.token, http.MethodPost, "/api/v1/"+k.API, m)
	if a.ok() {
		var o map[string]any
		_ = json.Unmarshal(a.Body, &o)
		no := cellText(o[k.Number])
		http.Redirect(w, r, Prefix+"/"+k.Slug+"/"+url.PathEscape(no)+"?done="+url.QueryEscape("Placed "+no+"."), http.StatusSeeOther)
		return
	}
	// The API names a line's fields lines[0].itemID: put them beside the
	// form's own.
	fields := append([]field{}, k.Create...)
	for _, key := range []string{"itemID", "units", "wid"} {
		fields = append(fields, field{Name: k.LineKey + "[0]." + key})
	}
	f.Errors, f.Other = splitErrors(a, fields)
	for _, key := range []string{"itemID", "units", "wid"} {
		if msg, ok := f.Errors[k.LineKey+"[0]."+key]; ok {
			f.Errors[key] = msg
		}
	}
	h.orderListScreen(w, r, s, orderListData{Kind: k, Form: f}, a)
}

type orderData struct {
	Kind  orderKind
	No    string
	Order map[string]any
	Lines []map[string]any
}

func (h *Handler) orderPage(w http.ResponseWriter, r *http.Request, s *session) {
	k, _ := kindOf(r)
	h.orderScreen(w, r, s, k, answer{Status: http.StatusOK})
}

func (h *Handler) orderScreen(w http.ResponseWriter, r *http.Request, s *session, k orderKind, refusal answer) {
	d := orderData{Kind: k, No: r.PathValue("no")}
	var o struct {
		Lines []map[string]any `json:"lines"`
	}
	a := h.get(r, s, "/api/v1/"+k.API+"/"+url.PathEscape(d.No), nil, &d.Order)
	if a.ok() {
		b, _ := json.Marshal(d.Order)
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.UseNumber()
		_ = dec.Decode(&o)
		d.Lines = o.Lines
	}
	if a.ok() && !refusal.ok() {
		a = refusal
	}
	h.screen(w, r, s, a, &view{page: "order", Title: strings.TrimSuffix(k.Title, "s") + " " + d.No, Nav: k.Slug, Live: true, Data: d})
}

// orderAction posts one of the kind's actions. Pack names every line's
// committed units, which is what "pack" means on this screen; Complete
// takes the units the form gives.
func (h *Handler) orderAction(w http.ResponseWriter, r *http.Request, s *session) {
	k, _ := kindOf(r)
	no, action := r.PathValue("no"), r.PathValue("action")
	known := false
	for _, a := range k.Actions {
		known = known || strings.EqualFold(a, action)
		if strings.EqualFold(a, action) {
			action = a
		}
	}
	if !known {
		h.screen(w, r, s, notFound(), &view{page: "error", Title: "Not found"})
		return
	}
	body := map[string]any{}
	switch action {
	case "Pack", "Receive":
		// Pack everything committed; receive everything due.
		lines, a := h.wholeLines(r, s, k, no, map[string]string{"Pack": "unitsCommitted", "Receive": "unitsDue"}[action])
		if !a.ok() {
			h.orderScreen(w, r, s, k, a)
			return
		}
		body["lines"] = lines
	case "Complete":
		var m map[string]any
		_ = json.Unmarshal(formJSON(r, []field{{Name: "units", Kind: "number"}}, map[string]string{}), &m)
		body = m
	}
	a := h.call(r, s.token, http.MethodPost, "/api/v1/"+k.API+"/"+url.PathEscape(no)+"/"+action, body)
	if a.ok() {
		http.Redirect(w, r, Prefix+"/"+k.Slug+"/"+url.PathEscape(no)+"?done="+url.QueryEscape(action+" done."), http.StatusSeeOther)
		return
	}
	h.orderScreen(w, r, s, k, a)
}

// wholeLines are the lines of an action on every line's units of one
// figure (unitsCommitted to pack, unitsDue to receive), those with any.
func (h *Handler) wholeLines(r *http.Request, s *session, k orderKind, no, figure string) ([]any, answer) {
	var o struct {
		Lines []map[string]any `json:"lines"`
	}
	a := h.get(r, s, "/api/v1/"+k.API+"/"+url.PathEscape(no), nil, &o)
	var lines []any
	for _, l := range o.Lines {
		if u, ok := l[figure].(json.Number); ok && u != "0" {
			lines = append(lines, map[string]any{"line": l[cmp.Or(k.LineNo, "lineNo")], "units": u})
		}
	}
	return lines, a
}

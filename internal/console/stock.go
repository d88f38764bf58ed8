package console

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
)

// levelsPageSize is the stock-level screen's page: one API page.
const levelsPageSize = 50

type levelsData struct {
	Item, WID, Owner string
	Warehouses       []stockroom.Warehouse
	Levels           stockroom.Envelope[stockroom.StockLevel]
	Prev, Next       string
}

// levels is the stock-level screen: GET /Inventory/StockLevels[/{wid}] with
// the item, owner and page asked, and the warehouses to choose from.
func (h *Handler) levels(w http.ResponseWriter, r *http.Request, s *session) {
	q := r.URL.Query()
	d := levelsData{Item: strings.TrimSpace(q.Get("item")), WID: strings.TrimSpace(q.Get("wid")), Owner: strings.TrimSpace(q.Get("owner"))}
	var whs stockroom.Envelope[stockroom.Warehouse]
	if a := h.get(r, s, "/api/v1/Warehouse", url.Values{"pageSize": {"1000"}}, &whs); a.ok() {
		d.Warehouses = whs.Value
	}
	apiQ := url.Values{"pageSize": {strconv.Itoa(levelsPageSize)}}
	page := max(1, atoi(q.Get("page")))
	apiQ.Set("page", strconv.Itoa(page))
	if d.Item != "" {
		apiQ.Set("itemID", d.Item)
	}
	if d.Owner != "" {
		apiQ.Set("owner", d.Owner)
	}
	p := "/api/v1/Inventory/StockLevels"
	if d.WID != "" {
		p += "/" + url.PathEscape(d.WID)
	}
	a := h.get(r, s, p, apiQ, &d.Levels)
	if d.Levels.HasMore {
		d.Next = pageLink(r, page+1)
	}
	if page > 1 {
		d.Prev = pageLink(r, page-1)
	}
	h.screen(w, r, s, a, &view{page: "levels", Title: "Stock levels", Nav: "levels", Live: true, Data: d})
}

func pageLink(r *http.Request, page int) string {
	q := r.URL.Query()
	q.Set("page", strconv.Itoa(page))
	return r.URL.Path + "?" + q.Encode()
}

func atoi(s string) int {
	n, _ := strconv.Atoi(strings.TrimSpace(s))
	return n
}

// field is one input of a form; kind says how its text goes into the JSON
// body: "text" as a string, "number" as a JSON number when it reads as one
// (else as the text, so that the API names the field's problem), "ref" a
// number or a ShortID.
type field struct {
	Name, Label, Kind, Hint string
	Required                bool
}

// stockOp is one of the five stock forms: its API endpoint and fields.
type stockOp struct {
	Title, Verb, Path string
	Fields            []field
	// Direction picks the reason codes offered: those of this direction
	// and "any".
	Direction string
}

var stockOps = map[string]stockOp{
	"receive": {"Receive", "Receive", "/api/v1/Inventory/Receive", receiveFields, "receive"},
	"move":    {"Move", "Move", "/api/v1/Inventory/Move", moveFields, ""},
	"issue":   {"Issue", "Issue", "/api/v1/Inventory/Issue", issueFields, "issue"},
	"hold":    {"Hold a lot", "Hold", "/api/v1/Inventory/Hold", []field{{"recno", "Lot", "number", "the lot's recno", true}}, ""},
	"release": {"Release a lot", "Release", "/api/v1/Inventory/Release", []field{{"recno", "Lot", "number", "the lot's recno", true}}, ""},
}

var (
	receiveFields = []field{
		{"itemID", "Item", "text", "ShortID", true}, {"units", "Units", "number", "", true},
		{"wid", "Warehouse", "number", "number", true}, {"spot", "Bin", "text", "", false},
		{"owner", "Owner", "ref", "customer ShortID; empty: the item's", false},
		{"reasonCode", "Reason code", "reason", "", true}, {"reference", "Reference", "text", "", false},
		{"poNo", "Purchase order", "text", "receiving against an order line", false}, {"line", "Order line", "number", "", false}}
	moveFields = []field{
		{"itemID", "Item", "text", "ShortID", false}, {"units", "Units", "number", "", false},
		{"wid", "Warehouse", "number", "", false}, {"fromSpot", "From bin", "text", "", false},
		{"toSpot", "To bin", "text", "", true}, {"recno", "Lot", "number", "a lot's recno, instead of item and bin", false},
		{"reference", "Reference", "text", "", false}}
	issueFields = []field{
		{"itemID", "Item", "text", "ShortID", true}, {"units", "Units", "number", "", true},
		{"wid", "Warehouse", "number", "", true}, {"spot", "Bin", "text", "", false},
		{"owner", "Owner", "ref", "", false}, {"recno", "Lot", "number", "", false},
		{"reasonCode", "Reason code", "reason", "", true}, {"reference", "Reference", "text", "", false}}
)

type formData struct {
	Op     string
	Spec   stockOp
	Values map[string]string
	// Errors are the API's messages per field; Other those of fields the
	// form does not show.
	Errors map[string]string
	Other  []string
	// Reasons are the reason codes the form offers.
	Reasons []stockroom.ReasonCode
}

// reasons are the reason codes of a direction (and "any"), as the API
// lists them.
func (h *Handler) reasons(r *http.Request, s *session, direction string) []stockroom.ReasonCode {
	if direction == "" {
		return nil
	}
	var list stockroom.Envelope[stockroom.ReasonCode]
	h.get(r, s, "/api/v1/ReasonCode", url.Values{"pageSize": {"1000"}}, &list)
	var out []stockroom.ReasonCode
	for _, rc := range list.Value {
		if string(rc.Direction) == direction || string(rc.Direction) == "any" {
			out = append(out, rc)
		}
	}
	return out
}

func (h *Handler) stockForm(w http.ResponseWriter, r *http.Request, s *session) {
	op, ok := stockOps[r.PathValue("op")]
	if !ok {
		h.screen(w, r, s, notFound(), &view{page: "error", Title: "Not found"})
		return
	}
	vals := map[string]string{}
	for _, f := range op.Fields {
		vals[f.Name] = r.URL.Query().Get(f.Name)
	}
	d := formData{Op: r.PathValue("op"), Spec: op, Values: vals, Errors: map[string]string{}, Reasons: h.reasons(r, s, op.Direction)}
	h.screen(w, r, s, answer{Status: http.StatusOK}, &view{page: "stockform", Title: op.Title, Nav: d.Op, Data: d})
}

// stockAction posts a stock form to its endpoint as JSON. A success goes
// back to the stock levels saying what was done; a refusal shows the form
// again with the API's messages beside the fields and its status.
func (h *Handler) stockAction(w http.ResponseWriter, r *http.Request, s *session) {
	op, ok := stockOps[r.PathValue("op")]
	if !ok {
		h.screen(w, r, s, notFound(), &view{page: "error", Title: "Not found"})
		return
	}
	d := formData{Op: r.PathValue("op"), Spec: op, Values: map[string]string{}}
	body := formJSON(r, op.Fields, d.Values)
	a := h.call(r, s.token, http.MethodPost, op.Path, body)
	if a.ok() {
		var res struct {
			TransactionID json.Number `json:"transactionID"`
		}
		_ = json.Unmarshal(a.Body, &res)
		done := op.Verb + " done: transaction " + res.TransactionID.String() + "."
		http.Redirect(w, r, Prefix+"/levels?done="+url.QueryEscape(done), http.StatusSeeOther)
		return
	}
	d.Errors, d.Other = splitErrors(a, op.Fields)
	d.Reasons = h.reasons(r, s, op.Direction)
	v := &view{page: "stockform", Title: op.Title, Nav: d.Op, Data: d}
	h.screen(w, r, s, a, v)
}

// formJSON is the JSON body of a form's fields, keeping their text in vals.
func formJSON(r *http.Request, fields []field, vals map[string]string) json.RawMessage {
	m := map[string]any{}
	for _, f := range fields {
		v := strings.TrimSpace(r.PostFormValue(f.Name))
		vals[f.Name] = v
		if v == "" {
			continue
		}
		m[f.Name] = v
		if f.Kind != "text" {
			if n := json.Number(v); json.Valid([]byte(v)) && isNumber(n) {
				m[f.Name] = n
			}
		}
	}
	b, _ := json.Marshal(m)
	return b
}

func isNumber(n json.Number) bool {
	_, err := strconv.ParseFloat(string(n), 64)
	return err == nil
}

// splitErrors puts the API's field messages beside the form's fields and
// keeps the others apart.
func splitErrors(a answer, fields []field) (map[string]string, []string) {
	all, byField := a.fieldErrors(), map[string]string{}
	var other []string
	for k, msg := range all {
		matched := false
		for _, f := range fields {
			if strings.EqualFold(k, f.Name) {
				byField[f.Name], matched = msg, true
			}
		}
		if !matched {
			other = append(other, k+": "+msg)
		}
	}
	return byField, other
}

func notFound() answer {
	return answer{Status: http.StatusNotFound, Err: &stockroom.ErrorBody{Message: "No such screen."}}
}

type itemData struct {
	ID     string
	Item   map[string]any
	Lots   []map[string]any
	Ledger []map[string]any
}

// item shows an item with its lots (their bins) and its ledger.
func (h *Handler) item(w http.ResponseWriter, r *http.Request, s *session) {
	d := itemData{ID: r.PathValue("id")}
	a := h.get(r, s, "/api/v1/Item", url.Values{"key": {d.ID}, "type": {"id"}}, &d.Item)
	if a.ok() {
		var lots, ledger stockroom.Envelope[map[string]any]
		by := url.Values{"itemID": {d.ID}, "pageSize": {"100"}}
		if a = h.get(r, s, "/api/v1/Inventory", by, &lots); a.ok() {
			d.Lots = lots.Value
			a = h.get(r, s, "/api/v1/Inventory/Transactions", by, &ledger)
			d.Ledger = ledger.Value
		}
	}
	h.screen(w, r, s, a, &view{page: "item", Title: "Item " + d.ID, Nav: "levels", Live: true, Data: d})
}

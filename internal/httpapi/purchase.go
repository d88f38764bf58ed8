package httpapi

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// Purchase orders (contract §10).

// readPurchaseOrder reads a purchase order body (create or update); its
// fields' type errors are collected in v, a line's named "lines[i].units".
func readPurchaseOrder(r *http.Request) (stockroom.PurchaseOrderRequest, stockroom.Validation, error) {
	var v stockroom.Validation
	o, err := decodeObject(r)
	in := stockroom.PurchaseOrderRequest{
		PONo:         o.strOr(&v, "poNo"),
		VendorID:     o.party(&v, "vendorID"),
		OrderDate:    o.time(&v, "orderDate"),
		ExpectedDate: o.time(&v, "expectedDate"),
		Reference:    o.str(&v, "reference"),
		Remark:       o.str(&v, "remark"),
	}
	for i, lo := range o.objects(&v, "lines") {
		var lv stockroom.Validation
		in.Lines = append(in.Lines, stockroom.PurchaseLineRequest{
			LineNo:    lo.intOr(&lv, "lineNo"),
			ItemID:    lo.strOr(&lv, "itemID"),
			Units:     lo.units(&lv, "units"),
			UnitPrice: lo.units(&lv, "unitPrice"),
			Warehouse: orZero(synonym(lo, &lv, "warehouse", "wid", object.int)),
			Owner:     lo.owner(&lv, "owner"),
		})
		addPrefixed(&v, stockroom.LineField(i), lv.Err())
	}
	return in, v, err
}

// objects reads an array of JSON objects, whose field names are matched
// without regard to letter case like the body's; nil when absent. An
// element that is not an object is a problem of name[i].
func (o object) objects(v *stockroom.Validation, name string) []object {
	b, ok := o.raw(name)
	if !ok {
		return nil
	}
	var elems []json.RawMessage
	if json.Unmarshal(b, &elems) != nil {
		v.Add(name, "must be an array of objects")
		return nil
	}
	out := make([]object, len(elems))
	for i, e := range elems {
		at := name + "[" + strconv.Itoa(i) + "]"
		var raw map[string]json.RawMessage
		if json.Unmarshal(e, &raw) != nil || raw == nil {
			v.Add(at, "must be an object")
			continue
		}
		out[i] = newObject(raw, v, at+".")
	}
	return out
}

// party reads a customer or vendor named in a body: its id (a number) or
// its ShortID (a string).
func (o object) party(v *stockroom.Validation, name string) *stockroom.OwnerRef {
	b, ok := o.raw(name)
	if !ok {
		return nil
	}
	if b[0] != '"' {
		if n := o.int(v, name); n != nil {
			return &stockroom.OwnerRef{ID: *n}
		}
		return nil
	}
	s := o.str(v, name)
	if s == nil {
		return nil
	}
	if strings.TrimSpace(*s) == "" {
		v.Add(name, "is empty: give an id or a ShortID")
		return nil
	}
	ref := stockroom.ParseOwnerRef(*s)
	return &ref
}

func orZero(n *int64) int64 {
	if n == nil {
		return 0
	}
	return *n
}

// purchaseLocation is the Location of a created purchase order.
func purchaseLocation(result any) string {
	return "/api/v1/PurchaseOrder/" + url.PathEscape(result.(stockroom.PurchaseOrder).PONo)
}

// handlePurchaseList serves GET /PurchaseOrder (open orders) and
// GET /PurchaseOrder/All.
func (s *Server) handlePurchaseList(all bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		_, q, page, v, readErr := listRequest(r, false)
		f := stockroom.OrderFilter{Owner: ownerParam(q, &v), WID: widParam(q, &v)}
		f.ItemShortID, _ = q.get("itemID")
		if st, ok := q.get("status"); ok {
			f.Status = parseStatus(&v, st)
		}
		f.StartDate = dateParam(q, &v, "startDate", false)
		f.EndDate = dateParam(q, &v, "endDate", true)
		req := readRequest(r, service.Query[stockroom.OrderFilter]{Filter: f, Page: page}, v, readErr)
		res, err := s.svc.ListPurchaseOrders(r.Context(), principalFrom(r.Context()), all, req)
		if err != nil {
			return err
		}
		writePage(w, res)
		return nil
	}
}

// parseStatus reads an order status in any letter case.
func parseStatus(v *stockroom.Validation, s string) stockroom.OrderStatus {
	for _, st := range []stockroom.OrderStatus{stockroom.OrderOpen, stockroom.OrderPartial, stockroom.OrderClosed, stockroom.OrderCanceled} {
		if strings.EqualFold(strings.TrimSpace(s), string(st)) {
			return st
		}
	}
	v.Add("status", "must be one of Open, Partial, Closed, Canceled")
	return ""
}

// dateParam reads a date or date-time parameter. As an upper bound
// (endOfDay), a bare date stands for the whole of its day.
func dateParam(q query, v *stockroom.Validation, name string, endOfDay bool) *time.Time {
	s, ok := q.get(name)
	if !ok {
		return nil
	}
	t, err := stockroom.ParseTime(s)
	if err != nil {
		v.Add(name, err.Error())
		return nil
	}
	if _, bare := time.Parse(time.DateOnly, strings.TrimSpace(s)); bare == nil && endOfDay {
		t = t.Add(24*time.Hour - time.Microsecond)
	}
	return &t
}

// handlePurchaseGet serves GET /PurchaseOrder/{poNo}: the order with its
// lines.
func (s *Server) handlePurchaseGet(w http.ResponseWriter, r *http.Request) error {
	req := readRequest(r, r.PathValue("poNo"), stockroom.Validation{}, nil)
	o, err := s.svc.GetPurchaseOrder(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, o)
	return nil
}

// handlePurchaseCreate serves POST /PurchaseOrder: 201 with the full order
// and its Location.
func (s *Server) handlePurchaseCreate(w http.ResponseWriter, r *http.Request) error {
	in, v, err := readPurchaseOrder(r)
	req := newRequest(r, in, v, err, http.StatusCreated, purchaseLocation)
	o, err := s.svc.CreatePurchaseOrder(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	s.respond(w, r, req.Key, http.StatusCreated, o, purchaseLocation)
	return nil
}

// handlePurchaseUpdate serves PUT /PurchaseOrder: 200 with the full order.
func (s *Server) handlePurchaseUpdate(w http.ResponseWriter, r *http.Request) error {
	in, v, err := readPurchaseOrder(r)
	o, err := s.svc.UpdatePurchaseOrder(r.Context(), principalFrom(r.Context()), readRequest(r, in, v, err))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, o)
	return nil
}

// handlePurchaseEnd serves POST /PurchaseOrder/{poNo}/Close and /Cancel:
// 200 with the full order. They take no body.
func (s *Server) handlePurchaseEnd(cancel bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		req := newRequest(r, r.PathValue("poNo"), stockroom.Validation{}, nil, http.StatusOK, nil)
		o, err := s.svc.EndPurchaseOrder(r.Context(), principalFrom(r.Context()), cancel, req)
		if err != nil {
			return err
		}
		s.respond(w, r, req.Key, http.StatusOK, o, nil)
		return nil
	}
}

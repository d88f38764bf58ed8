package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// Orders of every kind (contract §10, §11): each handler takes the one
// operation of service.Orders it calls, for the kind its route is of.

// readOrder reads an order body of a kind (create or update) into its
// request type R; its fields' type errors are collected in v, a line's
// named "lines[i].units".
func readOrder[R any, PR service.RequestOf[R]](r *http.Request) (R, stockroom.Validation, error) {
	var (
		in R
		v  stockroom.Validation
	)
	f := PR(&in).Form()
	o, err := decodeObject(r)
	*f.No = o.strOr(&v, f.Kind.NoField())
	*f.Party = o.party(&v, f.Kind.Party().IDField())
	if f.Owner != nil {
		*f.Owner = o.owner(&v, "owner")
	}
	*f.OrderDate, *f.DueDate = o.time(&v, "orderDate"), o.time(&v, f.Kind.DueField())
	*f.Reference, *f.Remark = o.str(&v, "reference"), o.str(&v, "remark")
	for i, lo := range o.objects(&v, "lines") {
		var lv stockroom.Validation
		l := stockroom.OrderLineRequest{
			LineNo:    lo.intOr(&lv, "lineNo"),
			ItemID:    lo.strOr(&lv, "itemID"),
			Units:     lo.units(&lv, "units"),
			Warehouse: orZero(synonym(lo, &lv, "warehouse", "wid", object.int)),
			Owner:     lo.owner(&lv, "owner"),
		}
		if f.Kind.Priced() {
			l.UnitPrice = lo.units(&lv, "unitPrice")
		}
		*f.Lines = append(*f.Lines, l)
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

// orderLocation is the Location of a created order of a kind.
func orderLocation[O any, P interface {
	*O
	stockroom.AnyOrder
}](result any) string {
	o := result.(O)
	h := P(&o).Header()
	return "/api/v1/" + h.Kind.Path() + "/" + url.PathEscape(*h.No)
}

// handleOrderList serves GET /X (open orders) and GET /X/All of a kind of
// order, which list lists.
func handleOrderList[O any](list func(context.Context, *stockroom.Principal, bool, service.Request[service.Query[stockroom.OrderFilter]]) (stockroom.Page[O], error), all bool) handlerFunc {
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
		res, err := list(r.Context(), principalFrom(r.Context()), all, req)
		if err != nil {
			return err
		}
		writePage(w, res)
		return nil
	}
}

// parseStatus reads an order status in any letter case.
func parseStatus(v *stockroom.Validation, s string) stockroom.OrderStatus {
	for _, st := range []stockroom.OrderStatus{stockroom.OrderOpen, stockroom.OrderPartial, stockroom.OrderInProgress, stockroom.OrderClosed, stockroom.OrderCanceled} {
		if strings.EqualFold(strings.TrimSpace(s), string(st)) {
			return st
		}
	}
	v.Add("status", "must be one of Open, Partial, In Progress, Closed, Canceled")
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

// handleOrderGet serves GET /X/{no} of a kind of order, which get reads:
// the order with its lines. The path names the number by the kind's word
// ({poNo}, {soNo}).
func handleOrderGet[O any](kind stockroom.OrderKind, get func(context.Context, *stockroom.Principal, service.Request[string]) (O, error)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		req := readRequest(r, r.PathValue(kind.NoField()), stockroom.Validation{}, nil)
		o, err := get(r.Context(), principalFrom(r.Context()), req)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, o)
		return nil
	}
}

// handleOrderCreate serves POST /X of a kind of order, which create
// places: 201 with the full order and its Location.
func handleOrderCreate[O any, P interface {
	*O
	stockroom.AnyOrder
}, R any, PR service.RequestOf[R]](s *Server, create func(context.Context, *stockroom.Principal, service.Request[R]) (O, error)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		in, v, err := readOrder[R, PR](r)
		req := newRequest(r, in, v, err, http.StatusCreated, orderLocation[O, P])
		o, err := create(r.Context(), principalFrom(r.Context()), req)
		if err != nil {
			return err
		}
		s.respond(w, r, req.Key, http.StatusCreated, o, orderLocation[O, P])
		return nil
	}
}

// handleOrderUpdate serves PUT /X of a kind of order, which update
// changes: 200 with the full order.
func handleOrderUpdate[O any, R any, PR service.RequestOf[R]](update func(context.Context, *stockroom.Principal, service.Request[R]) (O, error)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		in, v, err := readOrder[R, PR](r)
		o, err := update(r.Context(), principalFrom(r.Context()), readRequest(r, in, v, err))
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, o)
		return nil
	}
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

package httpapi

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// Orders of every kind (contract §10, §11): each handler takes the one
// operation of service.Orders it calls, for the kind its route is of.

// orderCreated is the answer of a created order of a kind: 201 with its
// Location.
func orderCreated[O any, P interface {
	*O
	stockroom.AnyOrder
}]() answer {
	return answer{status: http.StatusCreated, location: locatorOf(func(o O) string {
		h := P(&o).Header()
		return "/api/v1/" + h.Kind.Path() + "/" + url.PathEscape(*h.No)
	})}
}

// orderLister lists a kind of order: a page, or every order (a CSV
// export).
type orderLister[O any] interface {
	List(ctx context.Context, p *stockroom.Principal, all bool, req service.Request[service.Query[stockroom.OrderFilter]]) (stockroom.Page[O], error)
	Export(ctx context.Context, p *stockroom.Principal, all bool, req service.Request[service.Query[stockroom.OrderFilter]], fn func(O) error) error
}

// handleOrderList serves GET /X (open orders) and GET /X/All of a kind of
// order, which orders lists; with Accept: text/csv, every order as CSV
// (export.go), in the file named filename.
func handleOrderList[O any](s *Server, orders orderLister[O], all bool, filename string) handlerFunc {
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
		if wantsCSV(r) {
			return writeExport(s, w, r, filename, func(fn func(O) error) error {
				return orders.Export(r.Context(), principalFrom(r.Context()), all, req, fn)
			})
		}
		res, err := orders.List(r.Context(), principalFrom(r.Context()), all, req)
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
}, R any](s *Server, create func(context.Context, *stockroom.Principal, service.Request[R]) (O, error)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		created := orderCreated[O, P]()
		req := withKey(r, jsonRequest[R](r), created)
		o, err := create(r.Context(), principalFrom(r.Context()), req)
		if err != nil {
			return err
		}
		s.respond(w, r, req.Key, created, o)
		return nil
	}
}

// handleOrderUpdate serves PUT /X of a kind of order, which update
// changes: 200 with the full order.
func handleOrderUpdate[O any, R any](update func(context.Context, *stockroom.Principal, service.Request[R]) (O, error)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		o, err := update(r.Context(), principalFrom(r.Context()), jsonRequest[R](r))
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
		req := withKey(r, readRequest(r, r.PathValue("poNo"), stockroom.Validation{}, nil), answerOK)
		o, err := s.svc.EndPurchaseOrder(r.Context(), principalFrom(r.Context()), cancel, req)
		if err != nil {
			return err
		}
		s.respond(w, r, req.Key, answerOK, o)
		return nil
	}
}

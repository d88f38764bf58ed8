package httpapi

import (
	"context"
	"net/http"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// Work orders (contract §11): GET /WorkOrder (open), /WorkOrder/All and
// /WorkOrder/{woNo} as every kind of order; POST /WorkOrder places one
// (201); POST /WorkOrder/{woNo}/Commit, /Complete, /Cancel and /Close act
// on it (200).

// workOrderRoutes are the routes of work orders (continuing orderRoutes).
func (s *Server) workOrderRoutes() []route {
	work := s.svc.WorkOrders()
	return []route{
		{pattern: "GET /api/v1/WorkOrder", handle: handleOrderList(work.List, false)},
		{pattern: "GET /api/v1/WorkOrder/All", handle: handleOrderList(work.List, true)},
		{pattern: "GET /api/v1/WorkOrder/{woNo}", handle: handleOrderGet(stockroom.OrderKindWork, work.Get)},
		{pattern: "POST /api/v1/WorkOrder", handle: s.handleWorkCreate(work)},
		{pattern: "POST /api/v1/WorkOrder/{woNo}/Commit", handle: workAction(s, stockroom.TxCommit, readWorkCommit, work.Commit)},
		{pattern: "POST /api/v1/WorkOrder/{woNo}/Complete", handle: workAction(s, stockroom.TxAssemble, readComplete, work.Complete)},
		{pattern: "POST /api/v1/WorkOrder/{woNo}/Cancel", handle: workAction(s, stockroom.TxOrderRelease, readNothing, workEnd(work, true))},
		{pattern: "POST /api/v1/WorkOrder/{woNo}/Close", handle: workAction(s, stockroom.TxOrderRelease, readNothing, workEnd(work, false))},
	}
}

// handleWorkCreate serves POST /WorkOrder: 201 with the order and its
// Location.
func (s *Server) handleWorkCreate(work service.WorkOrders) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		var (
			in stockroom.WorkOrderRequest
			v  stockroom.Validation
		)
		o, err := decodeObject(r)
		in.WONo, in.ItemID = o.strOr(&v, "woNo"), o.strOr(&v, "itemID")
		in.Units, in.WID = o.units(&v, "units"), o.intOr(&v, "wid")
		in.Spot, in.Owner = o.str(&v, "spot"), o.owner(&v, "owner")
		in.StartDate, in.DueDate = o.time(&v, "startDate"), o.time(&v, "dueDate")
		in.Description, in.Assignee = o.str(&v, "description"), o.str(&v, "assignee")
		o.each(&v, "components", func(el object, ev *stockroom.Validation) {
			in.Components = append(in.Components, stockroom.ComponentRequest{ItemID: el.strOr(ev, "itemID"), Units: el.units(ev, "units")})
		})
		location := orderLocation[stockroom.WorkOrder, *stockroom.WorkOrder]
		req := newRequest(r, in, v, err, http.StatusCreated, location)
		res, err := work.Create(r.Context(), principalFrom(r.Context()), req)
		if err != nil {
			return err
		}
		s.respond(w, r, req.Key, http.StatusCreated, res, location)
		return nil
	}
}

// workAction serves one action on work order {woNo} whose body read reads
// (an empty body is an empty object), which act carries out.
func workAction[T, R any](s *Server, typ stockroom.TxType, read func(object, *stockroom.Validation) T,
	act func(context.Context, *stockroom.Principal, service.Request[service.WorkAction[T]]) (R, error)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		var v stockroom.Validation
		o, err := optionalBody(r)
		in := service.WorkAction[T]{No: r.PathValue("woNo"), Body: read(o, &v)}
		req := newRequest(r, in, v, err, http.StatusOK, nil)
		res, err := act(r.Context(), principalFrom(r.Context()), req)
		if err != nil {
			return err
		}
		s.metrics.StockTransaction(string(typ))
		s.respond(w, r, req.Key, http.StatusOK, res, nil)
		return nil
	}
}

// readWorkCommit reads a commit's body: lines [{line, units?, recno?}],
// allowPartial.
func readWorkCommit(o object, v *stockroom.Validation) stockroom.CommitRequest {
	var req stockroom.CommitRequest
	o.each(v, "lines", func(el object, ev *stockroom.Validation) {
		req.Lines = append(req.Lines, stockroom.AllocLine{Line: el.intOr(ev, "line"), Units: el.units(ev, "units"), RecNo: el.intOr(ev, "recno")})
	})
	if b := o.bool(v, "allowPartial"); b != nil {
		req.AllowPartial = *b
	}
	return req
}

func readComplete(o object, v *stockroom.Validation) stockroom.CompleteRequest {
	return stockroom.CompleteRequest{Units: o.units(v, "units")}
}

// readNothing: /Cancel and /Close take no body; one sent is not read.
func readNothing(object, *stockroom.Validation) struct{} { return struct{}{} }

// workEnd is the cancel or close of a work order.
func workEnd(work service.WorkOrders, cancel bool) func(context.Context, *stockroom.Principal, service.Request[service.WorkAction[struct{}]]) (stockroom.AllocationResult, error) {
	return func(ctx context.Context, p *stockroom.Principal, req service.Request[service.WorkAction[struct{}]]) (stockroom.AllocationResult, error) {
		return work.End(ctx, p, cancel, req)
	}
}

// optionalBody reads a body that may be empty: an empty one is an empty
// object.
func optionalBody(r *http.Request) (object, error) {
	if r.ContentLength == 0 {
		return object{}, nil
	}
	return decodeObject(r)
}

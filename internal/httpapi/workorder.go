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
		{pattern: "POST /api/v1/WorkOrder/{woNo}/Commit", handle: orderAction(s, stockroom.OrderKindWork, stockroom.TxCommit, readCommit, work.Commit)},
		{pattern: "POST /api/v1/WorkOrder/{woNo}/Complete", handle: orderAction(s, stockroom.OrderKindWork, stockroom.TxAssemble, readComplete, work.Complete)},
		{pattern: "POST /api/v1/WorkOrder/{woNo}/Cancel", handle: orderAction(s, stockroom.OrderKindWork, stockroom.TxOrderRelease, readNothing, workEnd(work, true))},
		{pattern: "POST /api/v1/WorkOrder/{woNo}/Close", handle: orderAction(s, stockroom.OrderKindWork, stockroom.TxOrderRelease, readNothing, workEnd(work, false))},
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

func readComplete(o object, v *stockroom.Validation) stockroom.CompleteRequest {
	return stockroom.CompleteRequest{Units: o.units(v, "units")}
}

// readNothing: /Cancel and /Close take no body; one sent is not read.
func readNothing(object, *stockroom.Validation) struct{} { return struct{}{} }

// workEnd is the cancel or close of a work order.
func workEnd(work service.WorkOrders, cancel bool) func(context.Context, *stockroom.Principal, service.Request[service.OrderAction[struct{}]]) (stockroom.AllocationResult, error) {
	return func(ctx context.Context, p *stockroom.Principal, req service.Request[service.OrderAction[struct{}]]) (stockroom.AllocationResult, error) {
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

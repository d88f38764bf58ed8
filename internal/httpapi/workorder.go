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
		{pattern: "GET /api/v1/WorkOrder", export: true, handle: handleOrderList[stockroom.WorkOrder](s, work, false, "workorders.csv")},
		{pattern: "GET /api/v1/WorkOrder/All", export: true, handle: handleOrderList[stockroom.WorkOrder](s, work, true, "workorders.csv")},
		{pattern: "GET /api/v1/WorkOrder/{woNo}", handle: handleOrderGet(stockroom.OrderKindWork, work.Get)},
		{pattern: "POST /api/v1/WorkOrder", handle: s.handleWorkCreate(work)},
		{pattern: "POST /api/v1/WorkOrder/{woNo}/Commit", handle: orderAction(s, stockroom.OrderKindWork, stockroom.TxCommit, work.Commit)},
		{pattern: "POST /api/v1/WorkOrder/{woNo}/Complete", handle: orderAction(s, stockroom.OrderKindWork, stockroom.TxAssemble, work.Complete)},
		{pattern: "POST /api/v1/WorkOrder/{woNo}/Cancel", handle: orderAction(s, stockroom.OrderKindWork, stockroom.TxOrderRelease, workEnd(work, true))},
		{pattern: "POST /api/v1/WorkOrder/{woNo}/Close", handle: orderAction(s, stockroom.OrderKindWork, stockroom.TxOrderRelease, workEnd(work, false))},
	}
}

// handleWorkCreate serves POST /WorkOrder: 201 with the order and its
// Location.
func (s *Server) handleWorkCreate(work service.WorkOrders) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		created := orderCreated[stockroom.WorkOrder, *stockroom.WorkOrder]()
		req := withKey(r, jsonRequest[stockroom.WorkOrderRequest](r), created)
		res, err := work.Create(r.Context(), principalFrom(r.Context()), req)
		if err != nil {
			return err
		}
		s.respond(w, r, req.Key, created, res)
		return nil
	}
}

// workEnd is the cancel or close of a work order.
func workEnd(work service.WorkOrders, cancel bool) func(context.Context, *stockroom.Principal, service.Request[service.OrderAction[struct{}]]) (stockroom.AllocationResult, error) {
	return func(ctx context.Context, p *stockroom.Principal, req service.Request[service.OrderAction[struct{}]]) (stockroom.AllocationResult, error) {
		return work.End(ctx, p, cancel, req)
	}
}

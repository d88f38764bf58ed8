package httpapi

import (
	"context"
	"net/http"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// Shipping order actions (contract §11): POST /ShippingOrder/{soNo}/Commit,
// /Uncommit, /Pack, /Ship, /Cancel and /Close, each answering 200 with the
// stockroom.AllocationResult: the order's status and, per line changed,
// its ledger entry, the units, what is short, the line's figures
// afterwards and the lots taken.

// shippingActionRoutes are the routes of the actions (continuing
// orderRoutes).
func (s *Server) shippingActionRoutes() []route {
	return []route{
		{pattern: "POST /api/v1/ShippingOrder/{soNo}/Commit", handle: orderAction(s, stockroom.OrderKindShipping, stockroom.TxCommit, s.svc.CommitShippingOrder)},
		{pattern: "POST /api/v1/ShippingOrder/{soNo}/Uncommit", handle: orderAction(s, stockroom.OrderKindShipping, stockroom.TxUncommit, s.svc.UncommitShippingOrder)},
		{pattern: "POST /api/v1/ShippingOrder/{soNo}/Pack", handle: orderAction(s, stockroom.OrderKindShipping, stockroom.TxPack, s.svc.PackShippingOrder)},
		{pattern: "POST /api/v1/ShippingOrder/{soNo}/Ship", handle: orderAction(s, stockroom.OrderKindShipping, stockroom.TxShip, s.svc.ShipShippingOrder)},
		{pattern: "POST /api/v1/ShippingOrder/{soNo}/Cancel", handle: s.handleShippingEnd(true)},
		{pattern: "POST /api/v1/ShippingOrder/{soNo}/Close", handle: s.handleShippingEnd(false)},
	}
}

// orderAction serves one action on an order of a kind, named in the path
// by the kind's word ({soNo}, {woNo}), whose body is a T (an empty body is
// an empty object: every line, the action's defaults), which act carries
// out.
func orderAction[T, R any](s *Server, kind stockroom.OrderKind, typ stockroom.TxType,
	act func(context.Context, *stockroom.Principal, service.Request[service.OrderAction[T]]) (R, error)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		in := service.OrderAction[T]{No: r.PathValue(kind.NoField())}
		body := func(in *service.OrderAction[T]) any { return &in.Body }
		req := withKey(r, bodyRequest(r, in, nil, body, true), answerOK)
		res, err := act(r.Context(), principalFrom(r.Context()), req)
		if err != nil {
			return err
		}
		s.metrics.StockTransaction(string(typ))
		s.respond(w, r, req.Key, answerOK, res)
		return nil
	}
}

// handleShippingEnd serves POST /ShippingOrder/{soNo}/Close and /Cancel;
// a body, if any, is not read.
func (s *Server) handleShippingEnd(cancel bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		req := withKey(r, readRequest(r, r.PathValue("soNo"), stockroom.Validation{}, nil), answerOK)
		res, err := s.svc.EndShippingOrder(r.Context(), principalFrom(r.Context()), cancel, req)
		if err != nil {
			return err
		}
		s.metrics.StockTransaction(string(stockroom.TxOrderRelease))
		s.respond(w, r, req.Key, answerOK, res)
		return nil
	}
}

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
		{pattern: "POST /api/v1/ShippingOrder/{soNo}/Commit", handle: orderAction(s, stockroom.OrderKindShipping, stockroom.TxCommit, readCommit, s.svc.CommitShippingOrder)},
		{pattern: "POST /api/v1/ShippingOrder/{soNo}/Uncommit", handle: orderAction(s, stockroom.OrderKindShipping, stockroom.TxUncommit, readUncommit, s.svc.UncommitShippingOrder)},
		{pattern: "POST /api/v1/ShippingOrder/{soNo}/Pack", handle: orderAction(s, stockroom.OrderKindShipping, stockroom.TxPack, readPack, s.svc.PackShippingOrder)},
		{pattern: "POST /api/v1/ShippingOrder/{soNo}/Ship", handle: orderAction(s, stockroom.OrderKindShipping, stockroom.TxShip, readShip, s.svc.ShipShippingOrder)},
		{pattern: "POST /api/v1/ShippingOrder/{soNo}/Cancel", handle: s.handleShippingEnd(true)},
		{pattern: "POST /api/v1/ShippingOrder/{soNo}/Close", handle: s.handleShippingEnd(false)},
	}
}

// orderAction serves one action on an order of a kind, named in the path
// by the kind's word ({soNo}, {woNo}), whose body read reads (an empty body
// is an empty object: every line, the action's defaults), which act
// carries out.
func orderAction[T, R any](s *Server, kind stockroom.OrderKind, typ stockroom.TxType, read func(object, *stockroom.Validation) T,
	act func(context.Context, *stockroom.Principal, service.Request[service.OrderAction[T]]) (R, error)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		var v stockroom.Validation
		o, err := optionalBody(r)
		in := service.OrderAction[T]{No: r.PathValue(kind.NoField()), Body: read(o, &v)}
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

// allocLines reads an action's lines: line, units (optional), and, when
// withLot, recno.
func allocLines(o object, v *stockroom.Validation, withLot bool) []stockroom.AllocLine {
	var lines []stockroom.AllocLine
	o.each(v, "lines", func(el object, ev *stockroom.Validation) {
		l := stockroom.AllocLine{Line: el.intOr(ev, "line"), Units: el.units(ev, "units")}
		if withLot {
			l.RecNo = el.intOr(ev, "recno")
		}
		lines = append(lines, l)
	})
	return lines
}

// readCommit reads a commit's body: lines [{line, units?, recno?}],
// allowPartial (a shipping order's or a work order's).
func readCommit(o object, v *stockroom.Validation) stockroom.CommitRequest {
	req := stockroom.CommitRequest{Lines: allocLines(o, v, true)}
	if b := o.bool(v, "allowPartial"); b != nil {
		req.AllowPartial = *b
	}
	return req
}

func readUncommit(o object, v *stockroom.Validation) stockroom.UncommitRequest {
	return stockroom.UncommitRequest{Lines: allocLines(o, v, false)}
}

func readPack(o object, v *stockroom.Validation) stockroom.PackRequest {
	return stockroom.PackRequest{Lines: allocLines(o, v, false)}
}

func readShip(o object, v *stockroom.Validation) stockroom.ShipRequest {
	return stockroom.ShipRequest{Lines: allocLines(o, v, false), Reference: o.strOr(v, "reference"), Remark: o.strOr(v, "remark")}
}

// handleShippingEnd serves POST /ShippingOrder/{soNo}/Close and /Cancel;
// a body, if any, is not read.
func (s *Server) handleShippingEnd(cancel bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		req := newRequest(r, r.PathValue("soNo"), stockroom.Validation{}, nil, http.StatusOK, nil)
		res, err := s.svc.EndShippingOrder(r.Context(), principalFrom(r.Context()), cancel, req)
		if err != nil {
			return err
		}
		s.metrics.StockTransaction(string(stockroom.TxOrderRelease))
		s.respond(w, r, req.Key, http.StatusOK, res, nil)
		return nil
	}
}

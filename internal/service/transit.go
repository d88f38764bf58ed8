package service

import (
	"context"
	"errors"
	"strconv"

	"github.com/stockroom/stockroom"
)

// Transits (contract §10): transfers between warehouses and vendors' advance
// ship notices. A transit is visible to a client when either of its ends
// is in the client's warehouses (a notice has one, its destination) and a
// line is of one of its owners; one that is not is not found, as if it did
// not exist.

// transitStore keeps transits; each write records the answer of its
// Idempotency-Key, when given, in its own transaction, and lets check judge
// the locked transit (or order) before it changes anything.
type transitStore interface {
	FindTransit(ctx context.Context, scope stockroom.Scope, owners *stockroom.Scope, id int64) (stockroom.Transit, error)
	ListTransits(ctx context.Context, scope stockroom.Scope, f stockroom.TransitFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.Transit], error)
	ShipNotice(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.OrderLinesAction, n stockroom.ShipNoticeRequest) (stockroom.Transit, error)
	ReceiveTransit(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.TransitAction, r stockroom.TransitReceiveRequest, check func(stockroom.Transit) error) (stockroom.TransitReceiveResult, error)
	CancelTransit(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.TransitAction, check func(stockroom.Transit) error) (stockroom.Transit, error)
}

// ShipNoticeInput is an advance ship notice for the purchase order PONo
// (the path's).
type ShipNoticeInput struct {
	PONo string
	stockroom.ShipNoticeRequest
}

// TransitReceiveInput is a receipt of the transit ID (the path's).
type TransitReceiveInput struct {
	ID int64
	stockroom.TransitReceiveRequest
}

// ListTransits returns a page of the transits the client may see: open ones
// (InTransit, Partial), or all of them.
func (s *Service) ListTransits(ctx context.Context, p *stockroom.Principal, all bool, req Request[Query[stockroom.TransitFilter]]) (stockroom.Page[stockroom.Transit], error) {
	f := req.In.Filter
	var err error
	if f.Owners, err = s.admitList(ctx, p, &req, f.WID, f.Owner); err != nil {
		return stockroom.Page[stockroom.Transit]{}, err
	}
	f.OpenOnly = !all
	return s.db.ListTransits(ctx, p.Scope, f, req.In.Page)
}

// GetTransit returns one transit with the lines the client may see.
func (s *Service) GetTransit(ctx context.Context, p *stockroom.Principal, req Request[int64]) (stockroom.Transit, error) {
	if err := s.admitRead(ctx, p, &req, 0); err != nil {
		return stockroom.Transit{}, err
	}
	tr, err := s.db.FindTransit(ctx, p.Scope, ownersSeen(p), req.In)
	if errors.Is(err, stockroom.ErrNotFound) {
		err = noTransit(req.In)
	}
	return tr, err
}

// ShipPurchaseOrder records a vendor's advance ship notice (permission
// 301): the lines' units leave onOrder for the aSN of their warehouse, which
// must be one, in scope, as the lines' owners must be. An order none of
// whose lines the client sees is not found, and a line it does not see is
// as one the order lacks (stockroom.Principal.SeesLine).
func (s *Service) ShipPurchaseOrder(ctx context.Context, p *stockroom.Principal, req Request[ShipNoticeInput]) (stockroom.Transit, error) {
	if err := s.admit(p, stockroom.PermPurchaseOrders, true, &req); err != nil {
		return stockroom.Transit{}, err
	}
	in, v := req.In, &req.Problems
	in.Validate(v)
	if err := v.Err(); err != nil {
		return stockroom.Transit{}, err
	}
	e := s.entry(p, 0, "", "", map[string]any{})
	a := stockroom.OrderLinesAction{Kind: stockroom.OrderKindPurchase, No: trimmed(in.PONo), Entry: e, By: p}
	tr, err := s.db.ShipNotice(ctx, req.Key, a, in.ShipNoticeRequest)
	if errors.Is(err, stockroom.ErrNotFound) {
		err = stockroom.Errorf(stockroom.ENOTFOUND, "No purchase order %q.", trimmed(in.PONo))
	}
	return tr, err
}

// ReceiveTransit receives a transit at its destination (permission 15; the
// destination in scope, the owners of the lines received too): accepted
// units into stock, rejected ones written off aSN under an issue-direction
// reason code.
func (s *Service) ReceiveTransit(ctx context.Context, p *stockroom.Principal, req Request[TransitReceiveInput]) (stockroom.TransitReceiveResult, error) {
	var none stockroom.TransitReceiveResult
	if err := s.admit(p, stockroom.PermMove, true, &req); err != nil {
		return none, err
	}
	in, v := req.In, &req.Problems
	in.Validate(v)
	for i, l := range in.Lines {
		if err := s.checkReasonCodeField(ctx, v, stockroom.LineField(i)+"reasonCode", l.ReasonCode, stockroom.DirectionIssue); err != nil {
			return none, err
		}
	}
	if err := v.Err(); err != nil {
		return none, err
	}
	if err := req.missing(); err != nil {
		return none, err
	}
	details := map[string]any{}
	if in.Spot != nil {
		details["spot"] = *in.Spot
	}
	var seen stockroom.Transit
	a := stockroom.TransitAction{ID: in.ID, Entry: s.entry(p, 0, "", "", details)}
	res, err := s.db.ReceiveTransit(ctx, req.Key, a, in.TransitReceiveRequest, func(tr stockroom.Transit) error {
		seen = tr
		return authorizeTransit(p, tr, tr.ToWID, in.Lines)
	})
	return res, s.transitRefusal(err, in.ID, seen.ToWID)
}

// CancelTransit ends a transit (permission 15): what is still due returns
// to its source warehouse (a transfer, whose source must be in scope) or to
// its order's onOrder (a notice, whose destination must be).
func (s *Service) CancelTransit(ctx context.Context, p *stockroom.Principal, req Request[int64]) (stockroom.Transit, error) {
	if err := s.admit(p, stockroom.PermMove, true, &req); err != nil {
		return stockroom.Transit{}, err
	}
	if err := req.problems(); err != nil {
		return stockroom.Transit{}, err
	}
	if err := req.missing(); err != nil {
		return stockroom.Transit{}, err
	}
	var from int64
	tr, err := s.db.CancelTransit(ctx, req.Key, stockroom.TransitAction{ID: req.In, Entry: s.entry(p, 0, "", "", nil)}, func(tr stockroom.Transit) error {
		end := tr.ToWID
		if tr.FromWID != nil {
			end = *tr.FromWID
		}
		from = end
		return authorizeTransit(p, tr, end, nil)
	})
	return tr, s.transitRefusal(err, req.In, from)
}

// transitRefusal names what a refused receipt or cancel of transit id
// could not find or put stock in (warehouse wid).
func (s *Service) transitRefusal(err error, id, wid int64) error {
	switch {
	case errors.Is(err, stockroom.ErrNotFound):
		return noTransit(id)
	case errors.Is(err, stockroom.ErrWarehouseInactive):
		return inactiveWarehouse("", strconv.FormatInt(wid, 10), wid)
	case errors.Is(err, stockroom.ErrDiscontinued):
		return stockroom.Errorf(stockroom.ECONFLICT, "An item of transit %d is discontinued and cannot be received; reactivate it first (PUT /Item with \"discontinued\": false).", id)
	case errors.Is(err, stockroom.ErrOwnerInactive):
		return stockroom.Errorf(stockroom.ECONFLICT, "An owner of transit %d is an inactive customer and takes no stock; reactivate it first (PUT /Customer with \"active\": true).", id)
	}
	return err
}

func noTransit(id int64) error { return stockroom.Errorf(stockroom.ENOTFOUND, "No transit %d.", id) }

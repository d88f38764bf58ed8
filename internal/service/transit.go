package service

import (
	"context"
	"errors"
	"slices"

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
	ShipNotice(ctx context.Context, key *stockroom.IdempotencyKey, poNo string, n stockroom.ShipNoticeRequest, e stockroom.LedgerEntry, check func(wid int64, owners []int64) error) (stockroom.Transit, error)
	ReceiveTransit(ctx context.Context, key *stockroom.IdempotencyKey, id int64, r stockroom.TransitReceiveRequest, e stockroom.LedgerEntry, check func(stockroom.Transit) error) (stockroom.TransitReceiveResult, error)
	CancelTransit(ctx context.Context, key *stockroom.IdempotencyKey, id int64, e stockroom.LedgerEntry, check func(stockroom.Transit) error) (stockroom.Transit, error)
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
	return readPage(ctx, s, p, req, req.In.Filter.WID, func() (stockroom.Page[stockroom.Transit], error) {
		f := req.In.Filter
		f.OpenOnly = !all
		var err error
		if f.Owners, err = s.ownerView(ctx, p, f.Owner); err != nil {
			return stockroom.Page[stockroom.Transit]{}, err
		}
		return s.db.ListTransits(ctx, p.Scope, f, req.In.Page)
	})
}

// GetTransit returns one transit with the lines the client may see.
func (s *Service) GetTransit(ctx context.Context, p *stockroom.Principal, req Request[int64]) (stockroom.Transit, error) {
	if err := s.admitRead(ctx, p, req, 0); err != nil {
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
// must be one, in scope, as the lines' owners must be.
func (s *Service) ShipPurchaseOrder(ctx context.Context, p *stockroom.Principal, req Request[ShipNoticeInput]) (stockroom.Transit, error) {
	if err := s.admit(p, stockroom.PermPurchaseOrders, true, req.Unreadable, req.Key); err != nil {
		return stockroom.Transit{}, err
	}
	in, v := req.In, &req.Problems
	in.Validate(v)
	if err := v.Err(); err != nil {
		return stockroom.Transit{}, err
	}
	e := s.entry(p, 0, "", "", map[string]any{})
	tr, err := s.db.ShipNotice(ctx, req.Key, trimmed(in.PONo), in.ShipNoticeRequest, e, func(wid int64, owners []int64) error {
		if !p.Scope.Contains(wid) {
			return stockroom.Errorf(stockroom.EFORBIDDEN, stockroom.MsgOutOfScope)
		}
		for _, o := range owners {
			if err := authorizeOwner(p, o); err != nil {
				return err
			}
		}
		return nil
	})
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
	if err := s.admit(p, stockroom.PermMove, true, req.Unreadable, req.Key); err != nil {
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
	res, err := s.db.ReceiveTransit(ctx, req.Key, in.ID, in.TransitReceiveRequest, s.entry(p, 0, "", "", details), func(tr stockroom.Transit) error {
		seen = tr
		named := make([]int64, len(in.Lines))
		for i, l := range in.Lines {
			named[i] = l.Line
		}
		return authorizeTransit(p, tr, tr.ToWID, named)
	})
	return res, s.transitRefusal(err, in.ID, seen.ToWID)
}

// CancelTransit ends a transit (permission 15): what is still due returns
// to its source warehouse (a transfer, whose source must be in scope) or to
// its order's onOrder (a notice, whose destination must be).
func (s *Service) CancelTransit(ctx context.Context, p *stockroom.Principal, req Request[int64]) (stockroom.Transit, error) {
	if err := s.admit(p, stockroom.PermMove, true, req.Unreadable, req.Key); err != nil {
		return stockroom.Transit{}, err
	}
	if err := req.problems(); err != nil {
		return stockroom.Transit{}, err
	}
	if err := req.missing(); err != nil {
		return stockroom.Transit{}, err
	}
	var from int64
	tr, err := s.db.CancelTransit(ctx, req.Key, req.In, s.entry(p, 0, "", "", nil), func(tr stockroom.Transit) error {
		end := tr.ToWID
		if tr.FromWID != nil {
			end = *tr.FromWID
		}
		from = end
		return authorizeTransit(p, tr, end, nil)
	})
	return tr, s.transitRefusal(err, req.In, from)
}

// authorizeTransit judges a change of a transit: one the client may not see
// is not found; one whose warehouse end (the one the change puts stock in)
// is outside its scope is 403, as is one with a line it changes (those
// named, else those with units due) of an owner outside its scope.
func authorizeTransit(p *stockroom.Principal, tr stockroom.Transit, end int64, named []int64) error {
	seen := p.Scope.Contains(tr.ToWID) || tr.FromWID != nil && p.Scope.Contains(*tr.FromWID)
	if !seen || !slices.ContainsFunc(tr.Lines, func(l stockroom.TransitLine) bool { return p.Owners.Contains(l.Owner) }) {
		return noTransit(tr.ID)
	}
	if !p.Scope.Contains(end) {
		return stockroom.Errorf(stockroom.EFORBIDDEN, stockroom.MsgOutOfScope)
	}
	for _, l := range tr.Lines {
		changed := slices.Contains(named, l.Line) || len(named) == 0 && l.UnitsDue.Sign() > 0
		if changed {
			if err := authorizeOwner(p, l.Owner); err != nil {
				return err
			}
		}
	}
	return nil
}

// transitRefusal names what a refused receipt or cancel of transit id
// could not find or put stock in (warehouse wid).
func (s *Service) transitRefusal(err error, id, wid int64) error {
	switch {
	case errors.Is(err, stockroom.ErrNotFound):
		return noTransit(id)
	case errors.Is(err, stockroom.ErrWarehouseInactive):
		return stockroom.Errorf(stockroom.ECONFLICT, "Warehouse %d is inactive and takes no stock; reactivate it first (stockroom warehouse update %d --active=true).", wid, wid)
	case errors.Is(err, stockroom.ErrDiscontinued):
		return stockroom.Errorf(stockroom.ECONFLICT, "An item of transit %d is discontinued and cannot be received; reactivate it first (PUT /Item with \"discontinued\": false).", id)
	case errors.Is(err, stockroom.ErrOwnerInactive):
		return stockroom.Errorf(stockroom.ECONFLICT, "An owner of transit %d is an inactive customer and takes no stock; reactivate it first (PUT /Customer with \"active\": true).", id)
	}
	return err
}

func noTransit(id int64) error { return stockroom.Errorf(stockroom.ENOTFOUND, "No transit %d.", id) }

// transfer ships a transit (permission 15, admitted by Move): only the
// source warehouse need be in scope; the destination must exist.
func (s *Service) transfer(ctx context.Context, p *stockroom.Principal, key *stockroom.IdempotencyKey, r stockroom.MoveRequest, v *stockroom.Validation, w stockroom.Withdrawal, e stockroom.LedgerEntry) (stockroom.DrawResult, error) {
	partNo, named, err := s.checkStockLine(ctx, p, v, 0, "", r.Owner, r.ItemID, r.WID)
	if err != nil {
		return stockroom.DrawResult{}, err
	}
	if err := s.findWarehouse(ctx, w.ToWID); err != nil {
		return stockroom.DrawResult{}, err
	}
	w.Type, w.PartNo, w.Slip = stockroom.TxTransfer, partNo, trimmed(r.TransitSlip)
	return s.withdraw(ctx, p, key, named, w, e)
}

package service

import (
	"context"

	"github.com/stockroom/stockroom"
)

// Shipping order actions (contract §11): commit, uncommit, pack, ship,
// cancel and close. Each needs permission 302, and every line it touches
// (those named, else all) in the client's warehouses and of its owners; an
// order none of whose touched lines the client sees is not found. The
// store locks the order, judges the lines it names (400), shows them to the
// check below (403/404), then refuses an ended order or a line asked for
// too much (409), all in the action's one transaction.

// shippingActionStore runs order actions on outbound lines' allocations.
type shippingActionStore interface {
	CommitOrder(ctx context.Context, key *stockroom.IdempotencyKey, kind stockroom.OrderKind, no string, req stockroom.CommitRequest, e stockroom.LedgerEntry, check checkLines) (stockroom.AllocationResult, error)
	UncommitOrder(ctx context.Context, key *stockroom.IdempotencyKey, kind stockroom.OrderKind, no string, req stockroom.UncommitRequest, e stockroom.LedgerEntry, check checkLines) (stockroom.AllocationResult, error)
	PackOrder(ctx context.Context, key *stockroom.IdempotencyKey, kind stockroom.OrderKind, no string, req stockroom.PackRequest, e stockroom.LedgerEntry, check checkLines) (stockroom.AllocationResult, error)
	ShipOrder(ctx context.Context, key *stockroom.IdempotencyKey, kind stockroom.OrderKind, no string, req stockroom.ShipRequest, e stockroom.LedgerEntry, check checkLines) (stockroom.AllocationResult, error)
	EndOutboundOrder(ctx context.Context, key *stockroom.IdempotencyKey, kind stockroom.OrderKind, no string, cancel bool, e stockroom.LedgerEntry, check checkLines) (stockroom.AllocationResult, error)
}

// checkLines judges the lines an action touches (the store's CheckLines).
type checkLines = func([]stockroom.OutboundLine) error

// OrderAction is the input of an action on an order of any kind: the
// order's number (from the path) and the body.
type OrderAction[T any] struct {
	No   string
	Body T
}

// CommitShippingOrder allocates lots to lines of a shipping order.
func (s *Service) CommitShippingOrder(ctx context.Context, p *stockroom.Principal, req Request[OrderAction[stockroom.CommitRequest]]) (stockroom.AllocationResult, error) {
	return shippingStep(ctx, s, p, req, Store.CommitOrder)
}

// UncommitShippingOrder releases committed (not packed) units of lines.
func (s *Service) UncommitShippingOrder(ctx context.Context, p *stockroom.Principal, req Request[OrderAction[stockroom.UncommitRequest]]) (stockroom.AllocationResult, error) {
	return shippingStep(ctx, s, p, req, Store.UncommitOrder)
}

// PackShippingOrder turns committed units of lines into packed ones.
func (s *Service) PackShippingOrder(ctx context.Context, p *stockroom.Principal, req Request[OrderAction[stockroom.PackRequest]]) (stockroom.AllocationResult, error) {
	return shippingStep(ctx, s, p, req, Store.PackOrder)
}

// ShipShippingOrder issues lines' packed, then committed, units from their
// allocated lots (ledger type ship).
func (s *Service) ShipShippingOrder(ctx context.Context, p *stockroom.Principal, req Request[OrderAction[stockroom.ShipRequest]]) (stockroom.AllocationResult, error) {
	return shippingStep(ctx, s, p, req, Store.ShipOrder)
}

// shippingStep runs an action whose body is a T, validated by its
// Validate, with the store's method act (a method expression of Store).
func shippingStep[T any, PT interface {
	*T
	Validate(*stockroom.Validation)
}](ctx context.Context, s *Service, p *stockroom.Principal, req Request[OrderAction[T]],
	act func(Store, context.Context, *stockroom.IdempotencyKey, stockroom.OrderKind, string, T, stockroom.LedgerEntry, checkLines) (stockroom.AllocationResult, error)) (stockroom.AllocationResult, error) {
	return s.shippingAction(ctx, p, req.Unreadable, req.Key, &req.Problems, req.In.No, PT(&req.In.Body).Validate,
		func(no string, e stockroom.LedgerEntry, check checkLines) (stockroom.AllocationResult, error) {
			return act(s.db, ctx, req.Key, stockroom.OrderKindShipping, no, req.In.Body, e, check)
		})
}

// EndShippingOrder closes (or, when cancel, cancels: only when nothing has
// shipped) a shipping order, releasing every allocation it still has. Every
// line of the order must be in the client's scope.
func (s *Service) EndShippingOrder(ctx context.Context, p *stockroom.Principal, cancel bool, req Request[string]) (stockroom.AllocationResult, error) {
	return s.shippingAction(ctx, p, req.Unreadable, req.Key, &req.Problems, req.In, nil,
		func(no string, e stockroom.LedgerEntry, check checkLines) (stockroom.AllocationResult, error) {
			return s.db.EndOutboundOrder(ctx, req.Key, stockroom.OrderKindShipping, no, cancel, e, check)
		})
}

// shippingAction runs an action in the contract's order: permission and
// read-only (admit), the body (unreadable, then its fields, all at once),
// then the store's action with the scope check of the lines it touches.
func (s *Service) shippingAction(ctx context.Context, p *stockroom.Principal, unreadable error, key *stockroom.IdempotencyKey, v *stockroom.Validation,
	no string, validate func(*stockroom.Validation), act func(no string, e stockroom.LedgerEntry, check checkLines) (stockroom.AllocationResult, error)) (stockroom.AllocationResult, error) {
	if err := s.admit(p, stockroom.PermShippingOrders, true, unreadable, key); err != nil {
		return stockroom.AllocationResult{}, err
	}
	if validate != nil {
		validate(v)
	}
	if err := v.Err(); err != nil {
		return stockroom.AllocationResult{}, err
	}
	no = trimmed(no)
	res, err := act(no, s.entry(p, 0, "", "", nil), outboundScope(p))
	return res, orderRefusal(err, stockroom.OrderKindShipping, no)
}

// outboundScope is the check of the lines an action touches: when the
// client sees none of them (none in its warehouses and of its owners) the
// order is not found, as if it did not exist; else each must be in its
// warehouse scope (403) and of its owners (403).
func outboundScope(p *stockroom.Principal) checkLines {
	return func(lines []stockroom.OutboundLine) error {
		return linesInScope(p, len(lines), func(i int) (int64, int64) { return lines[i].WID, lines[i].Owner })
	}
}

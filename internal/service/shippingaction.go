package service

import (
	"context"

	"github.com/stockroom/stockroom"
)

// Shipping order actions (contract §11): commit, uncommit, pack, ship,
// cancel and close. Each needs permission 302, and every line it touches
// (those named, else all) in the client's warehouses and of its owners. The
// store locks the order, finds it not found when the client sees none of
// its lines (404), judges the lines the request names as the client sees
// them, a line it does not see as one the order lacks (400), shows the
// lines touched by the client's scopes (403, stockroom.Principal.JudgeLines),
// then refuses an ended order or a line
// asked for too much (409), all in the action's one transaction.

// shippingActionStore runs order actions on outbound lines' allocations.
type shippingActionStore interface {
	CommitOrder(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.OrderLinesAction, req stockroom.CommitRequest) (stockroom.AllocationResult, error)
	UncommitOrder(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.OrderLinesAction, req stockroom.UncommitRequest) (stockroom.AllocationResult, error)
	PackOrder(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.OrderLinesAction, req stockroom.PackRequest) (stockroom.AllocationResult, error)
	ShipOrder(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.OrderLinesAction, req stockroom.ShipRequest) (stockroom.AllocationResult, error)
	EndOutboundOrder(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.OrderLinesAction, cancel bool) (stockroom.AllocationResult, error)
}

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
	act func(Store, context.Context, *stockroom.IdempotencyKey, stockroom.OrderLinesAction, T) (stockroom.AllocationResult, error)) (stockroom.AllocationResult, error) {
	return runAction(s, p, &req, outboundAction[stockroom.AllocationResult]{
		perm: stockroom.PermShippingOrders, kind: stockroom.OrderKindShipping, no: req.In.No, refusal: shippingRefusal,
		validate: func(v *stockroom.Validation) { PT(&req.In.Body).Validate(v) },
		act: func(a stockroom.OrderLinesAction) (stockroom.AllocationResult, error) {
			return act(s.db, ctx, req.Key, a, req.In.Body)
		},
	})
}

// EndShippingOrder closes (or, when cancel, cancels: only when nothing has
// shipped) a shipping order, releasing every allocation it still has. Every
// line of the order must be in the client's scope.
func (s *Service) EndShippingOrder(ctx context.Context, p *stockroom.Principal, cancel bool, req Request[string]) (stockroom.AllocationResult, error) {
	return runAction(s, p, &req, outboundAction[stockroom.AllocationResult]{
		perm: stockroom.PermShippingOrders, kind: stockroom.OrderKindShipping, no: req.In, refusal: shippingRefusal,
		act: func(a stockroom.OrderLinesAction) (stockroom.AllocationResult, error) {
			return s.db.EndOutboundOrder(ctx, req.Key, a, cancel)
		},
	})
}

// shippingRefusal names the order or line a store refused of shipping
// order no.
func shippingRefusal(err error, no string) error {
	return orderRefusal(err, stockroom.OrderKindShipping, no)
}

// outboundAction is an action on an outbound order (a shipping or a work
// order) as runAction runs it.
type outboundAction[R any] struct {
	perm stockroom.Permission
	kind stockroom.OrderKind
	// no is the order's number, as the path gives it.
	no string
	// validate checks the body's fields (nil: it has none).
	validate func(*stockroom.Validation)
	// act is the store's action on the order, whose client's scopes judge
	// the lines it touches, in its transaction (Principal.JudgeLines).
	act func(stockroom.OrderLinesAction) (R, error)
	// refusal names what the store refused.
	refusal func(err error, no string) error
}

// runAction runs an action in the contract's order: permission and
// read-only, then the request read (admit), then the body's fields (all at
// once), then the store's action with the scope check of the lines it
// touches. req is the request a's functions read, once admitted.
func runAction[T, R any](s *Service, p *stockroom.Principal, req *Request[T], a outboundAction[R]) (R, error) {
	var none R
	if err := s.admit(p, a.perm, true, req); err != nil {
		return none, err
	}
	if a.validate != nil {
		a.validate(&req.Problems)
	}
	if err := req.Problems.Err(); err != nil {
		return none, err
	}
	no := trimmed(a.no)
	res, err := a.act(stockroom.OrderLinesAction{Kind: a.kind, No: no, Entry: s.entry(p, 0, "", "", nil), By: p})
	return res, a.refusal(err, no)
}

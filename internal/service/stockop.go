package service

import (
	"context"
	"errors"

	"github.com/stockroom/stockroom"
)

// A stock operation (receive, issue, move, hold, release) is judged once,
// by its prepare function (prepareReceive, …): permission, fields, scope
// and existence, in the contract's order, down to a stockOp. Applying it is
// the store's: one operation in its own transaction (applyOne, for its
// endpoint and for a batch that is not atomic), or every operation of an
// atomic batch in one (Batch). Either way the rules are those of the one
// prepare function, and a refusal is worded by the one settle function.

// stockOp is a stock operation judged by the service, ready for the store.
type stockOp struct {
	// plan makes the store's operation for one try: the owner is resolved
	// now (the item's default owner may have changed since the last try).
	plan func(ctx context.Context) (stockroom.StockChange, error)
	// settle judges why a try failed: whether to try again (the item's
	// default owner, or a purchase order line, changed meanwhile: the
	// operation has taken the news in), else the refusal as its endpoint
	// words it.
	settle func(ctx context.Context, err error) (again bool, refusal error)
}

// applyOne carries out op in a transaction of its own, recording key's
// answer in it, and returns its result: a ReceiveResult, DrawResult or
// HoldResult.
func (s *Service) applyOne(ctx context.Context, key *stockroom.IdempotencyKey, op *stockOp) (any, error) {
	for {
		c, err := op.plan(ctx)
		var res any
		if err == nil {
			res, err = s.storeChange(ctx, key, c)
		}
		if err == nil {
			return res, nil
		}
		again, refusal := op.settle(ctx, err)
		if !again {
			return nil, refusal
		}
	}
}

// storeChange hands c to the store method of its kind.
func (s *Service) storeChange(ctx context.Context, key *stockroom.IdempotencyKey, c stockroom.StockChange) (any, error) {
	switch {
	case c.Receipt != nil:
		res, err := s.db.Receive(ctx, key, *c.Receipt, c.Entry)
		return res, err
	case c.Withdrawal != nil:
		res, err := s.db.Withdraw(ctx, key, *c.Withdrawal, c.Entry)
		return res, err
	default:
		res, err := s.db.SetHold(ctx, key, *c.Hold, c.Entry, c.Check)
		return res, err
	}
}

// applied is applyOne for an operation whose preparation may have failed
// (err), with its result as the endpoint's type.
func applied[T any](ctx context.Context, s *Service, key *stockroom.IdempotencyKey, op *stockOp, err error) (T, error) {
	var none T
	if err != nil {
		return none, err
	}
	res, err := s.applyOne(ctx, key, op)
	if err != nil {
		return none, err
	}
	return res.(T), nil
}

// staleDefault counts the tries of an operation whose owner is the item's
// default, read afresh once the store found the one it was given stale.
type staleDefault struct {
	fresh bool
	tries int
}

// again reports whether err asks for another try with the item's default
// owner read afresh, at most retriesOnStaleDefault times.
func (d *staleDefault) again(err error) bool {
	if !errors.Is(err, stockroom.ErrDefaultOwnerChanged) || d.tries >= retriesOnStaleDefault {
		return false
	}
	d.fresh, d.tries = true, d.tries+1
	return true
}

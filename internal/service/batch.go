package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/stockroom/stockroom"
)

// batchStore carries out an atomic batch in one transaction, and checks
// the key of one that is not atomic before its operations run.
type batchStore interface {
	ApplyStock(ctx context.Context, key *stockroom.IdempotencyKey, changes []stockroom.StockChange, mark *stockroom.ImportMark) ([]any, int, error)
	CheckKey(ctx context.Context, key *stockroom.IdempotencyKey) error
}

// BatchRequest is a batch (POST /Inventory/Batch, contract §15) as the
// HTTP layer read it: whether it is atomic, and each operation as a
// request of its own endpoint, read once its permission is held.
type BatchRequest struct {
	Atomic bool
	Ops    []BatchOp
}

// BatchOp is one operation of a batch: the request of its endpoint (the
// one of the four its Op names; hold and release share Hold), and the
// status its success answers with.
type BatchOp struct {
	Op      stockroom.BatchOp
	Receive Request[stockroom.ReceiveRequest]
	Issue   Request[stockroom.IssueRequest]
	Move    Request[stockroom.MoveRequest]
	Hold    Request[stockroom.HoldRequest]
	Status  int
}

// BatchOutcome is what one operation of a batch came to: its result,
// answered with Status, or why it was refused (a *stockroom.Replayed: the
// answer it was given before).
type BatchOutcome struct {
	Status int
	Result any
	Err    error
}

// BatchOutcomes are a batch's outcomes, one per operation in order.
type BatchOutcomes struct {
	Atomic bool
	Each   []BatchOutcome
}

// Batch carries out a batch of stock operations, each judged exactly as
// its endpoint judges it (its prepare function: permission, fields, scope,
// existence), in order. An atomic batch runs them in one transaction and
// is refused as a whole by its first refusal, worded as its operation's
// own and placed at it (batchRefusal); one that is not atomic runs each in
// a transaction of its own, and every outcome is its operation's answer.
// The batch itself needs a token that may write.
func (s *Service) Batch(ctx context.Context, p *stockroom.Principal, req Request[BatchRequest]) (BatchOutcomes, error) {
	if err := s.admit(p, 0, true, &req); err != nil {
		return BatchOutcomes{}, err
	}
	if err := req.Problems.Err(); err != nil {
		return BatchOutcomes{}, err
	}
	b := BatchOutcomes{Atomic: req.In.Atomic}
	var err error
	if b.Atomic {
		b.Each, err = s.batchAtomic(ctx, p, req.Key, req.In.Ops)
	} else {
		b.Each, err = s.batchEach(ctx, p, req.Key, req.In.Ops)
	}
	return b, err
}

// batchAtomic judges every operation, then applies them all in one
// transaction; an operation that asks to be tried again (its item's
// default owner changed meanwhile, say) has the whole batch tried again.
func (s *Service) batchAtomic(ctx context.Context, p *stockroom.Principal, key *stockroom.IdempotencyKey, ops []BatchOp) ([]BatchOutcome, error) {
	prepared := make([]*stockOp, len(ops))
	for i := range ops {
		op, err := s.prepareOp(ctx, p, &ops[i])
		if err != nil {
			return nil, batchRefusal(i, err)
		}
		prepared[i] = op
	}
	for {
		changes := make([]stockroom.StockChange, len(ops))
		failed := -1
		var (
			results []any
			err     error
		)
		for i, op := range prepared {
			if changes[i], err = op.plan(ctx); err != nil {
				failed = i
				break
			}
			changes[i].Status = ops[i].Status
		}
		if err == nil {
			results, failed, err = s.db.ApplyStock(ctx, key, changes, nil)
		}
		switch {
		case err == nil:
			out := make([]BatchOutcome, len(ops))
			for i, res := range results {
				out[i] = BatchOutcome{Status: ops[i].Status, Result: res}
			}
			return out, nil
		case failed < 0:
			return nil, err
		}
		if again, refusal := prepared[failed].settle(ctx, err); !again {
			return nil, batchRefusal(failed, refusal)
		}
	}
}

// batchEach runs each operation in a transaction of its own, as its
// endpoint would. With a key, each operation records its answer under a
// key of its own made from the batch's (opKey): a repeat of a batch that
// was cut short (its server stopped) gives the operations that ran their
// answers again, and runs only the others.
func (s *Service) batchEach(ctx context.Context, p *stockroom.Principal, key *stockroom.IdempotencyKey, ops []BatchOp) ([]BatchOutcome, error) {
	if key != nil {
		if err := s.db.CheckKey(ctx, key); err != nil {
			return nil, err
		}
	}
	out := make([]BatchOutcome, len(ops))
	for i := range ops {
		var k *stockroom.IdempotencyKey
		if key != nil {
			k = opKey(key, i, ops[i].Status)
			ops[i].setKey(k)
		}
		op, err := s.prepareOp(ctx, p, &ops[i])
		var res any
		if err == nil {
			res, err = s.applyOne(ctx, k, op)
		}
		out[i] = BatchOutcome{Status: ops[i].Status, Result: res, Err: err}
	}
	return out, nil
}

// opKey is the key of operation i of a batch of key: a name no client can
// send (a space is not among a key's characters), and a hash of the
// batch's request and i, so that another batch sent with the same key is
// told apart.
func opKey(key *stockroom.IdempotencyKey, i, status int) *stockroom.IdempotencyKey {
	h := sha256.Sum256([]byte(key.RequestHash + " " + strconv.Itoa(i)))
	return &stockroom.IdempotencyKey{
		ClientID: key.ClientID, Key: fmt.Sprintf("%s op %d", key.Key, i),
		RequestHash: hex.EncodeToString(h[:]), Method: key.Method, Path: key.Path, Status: status,
	}
}

// setKey gives the operation's request key k.
func (o *BatchOp) setKey(k *stockroom.IdempotencyKey) {
	o.Receive.Key, o.Issue.Key, o.Move.Key, o.Hold.Key = k, k, k, k
}

// prepareOp judges one operation of a batch with its endpoint's prepare
// function.
func (s *Service) prepareOp(ctx context.Context, p *stockroom.Principal, o *BatchOp) (*stockOp, error) {
	switch o.Op {
	case stockroom.OpReceive:
		return s.prepareReceive(ctx, p, &o.Receive)
	case stockroom.OpIssue:
		return s.prepareIssue(ctx, p, &o.Issue)
	case stockroom.OpMove:
		return s.prepareMove(ctx, p, &o.Move)
	case stockroom.OpHold, stockroom.OpRelease:
		return s.prepareHold(p, o.Op == stockroom.OpHold, &o.Hold)
	}
	return nil, fmt.Errorf("batch operation %q", o.Op) // the HTTP layer read only those above
}

// batchRefusal is the refusal of an atomic batch by its operation i's
// refusal err: the same code and message, with details naming the
// operation ("operations[3]": the message) and, re-keyed under it, the
// fields the refusal named ("operations[3].units").
func batchRefusal(i int, err error) error {
	e, ok := errors.AsType[*stockroom.Error](err)
	if !ok {
		return fmt.Errorf("batch operation %d: %w", i, err)
	}
	at := "operations[" + strconv.Itoa(i) + "]"
	details := map[string][]string{at: {e.Message}}
	for _, field := range slices.Sorted(maps.Keys(e.Details)) {
		details[at+"."+field] = e.Details[field]
	}
	return &stockroom.Error{Code: e.Code, Message: e.Message, Details: details}
}

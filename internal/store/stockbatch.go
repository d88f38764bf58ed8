package store

import (
	"context"
	"errors"

	"github.com/stockroom/stockroom"
)

// ApplyStock carries out changes in order in one transaction, all or
// nothing (an atomic batch, contract §15): each exactly as its own write
// would (receive, withdraw, setHold), events and ledger included, and
// records key's answer, a stockroom.BatchResult of every change's result
// under its Status, and mark, when not nil, the record of the import the
// changes are rows of (Tx.markImport), in the same transaction. It returns
// each change's result (a ReceiveResult, DrawResult or HoldResult); on a
// refusal, the index of the change refused (−1 when the refusal is not
// one change's: its key's or its mark's, say) and why, and nothing is
// changed.
func (db *DB) ApplyStock(ctx context.Context, key *stockroom.IdempotencyKey, changes []stockroom.StockChange, mark *stockroom.ImportMark) ([]any, int, error) {
	var (
		out    []any
		failed int
	)
	err := db.update(ctx, key, func(tx *Tx) (any, error) {
		out, failed = make([]any, len(changes)), -1
		answer := stockroom.BatchResult{Atomic: true, Results: make([]stockroom.BatchAnswer, len(changes))}
		for i := 0; i < len(changes); {
			n, at, err := tx.applyChanges(changes[i:], out[i:])
			if err != nil {
				if !isKeyRefusal(err) { // the key's claim is checked with the first change's statements
					failed = i + at
				}
				return nil, err
			}
			for j := i; j < i+n && key != nil; j++ {
				body, err := stockroom.MarshalAnswer(out[j])
				if err != nil {
					return nil, err
				}
				answer.Results[j] = stockroom.BatchAnswer{Status: changes[j].Status, Body: body}
			}
			i += n
		}
		if err := tx.markImport(mark); err != nil {
			return nil, err
		}
		return answer, nil
	})
	if err != nil {
		return nil, failed, err
	}
	return out, -1, nil
}

// applyChanges carries out the first of cs in t, with the receipts that
// follow it when it is one: consecutive receipts go together, each with its
// own ledger entry, in the two round trips one receipt takes (receiveEach),
// but for a receipt against a purchase order line, which goes alone.
// It puts each result in out and returns how many it carried out, or the
// index among cs of the one refused (that of the first of the receipts
// when the refusal is not one receipt's).
func (t *Tx) applyChanges(cs []stockroom.StockChange, out []any) (int, int, error) {
	if cs[0].Receipt == nil {
		res, err := t.applyChange(cs[0])
		out[0] = res
		return 1, 0, err
	}
	// A receipt against an order line goes alone: two of one line must
	// see each other's change.
	n := 1
	for cs[0].Receipt.Order == nil && n < len(cs) && cs[n].Receipt != nil && cs[n].Receipt.Order == nil {
		n++
	}
	rs := make([]stockroom.Receipt, n)
	for i := range rs {
		rs[i] = *cs[i].Receipt
	}
	got, at, err := t.receiveEach(stockroom.TxReceive, rs, func(i int) stockroom.LedgerEntry { return cs[i].Entry })
	if err != nil {
		return 0, max(at, 0), err
	}
	for i, r := range got {
		out[i] = r
	}
	return n, 0, nil
}

// applyChange queues one stock change of a batch, not a receipt, in t.
func (t *Tx) applyChange(c stockroom.StockChange) (any, error) {
	switch {
	case c.Withdrawal != nil:
		res, err := t.withdraw(*c.Withdrawal, c.Entry)
		return res, err
	default:
		res, err := t.setHold(c.Hold.RecNo, c.Hold.Hold, c.Entry, c.Check)
		return res, err
	}
}

// isKeyRefusal reports whether err is the refusal of an idempotency key's
// claim rather than of the write: answered before, in progress, or used
// with another request.
func isKeyRefusal(err error) bool {
	_, replayed := errors.AsType[*stockroom.Replayed](err)
	return replayed || errors.Is(err, stockroom.ErrKeyInProgress) || errors.Is(err, stockroom.ErrKeyMismatch)
}

// errKeyFree ends the transaction of CheckKey, which must change nothing.
var errKeyFree = errors.New("idempotency key free")

// CheckKey claims key in a transaction that changes nothing, for a request
// whose changes commit in transactions of their own (a batch that is not
// atomic): it returns *stockroom.Replayed when the key has an answer,
// stockroom.ErrKeyMismatch when that was of another request,
// stockroom.ErrKeyInProgress when a request of the key runs, else nil.
func (db *DB) CheckKey(ctx context.Context, key *stockroom.IdempotencyKey) error {
	k := *key
	err := db.runWrite(ctx, write{key: &k, fn: func(*Tx) (any, error) { return nil, errKeyFree }})
	if errors.Is(err, errKeyFree) {
		return nil
	}
	return err
}

package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store/txn"
)

// Tx is one write transaction, as the domain's methods see it: the write
// engine's transaction (txn.Tx: Exec, Query and QueryRow queue statements,
// Flush sends them, Check judges their results), to which this package adds
// its nouns' statements as methods. A new write is a method on *Tx that
// queues its statements, run by update or updateItem.
type Tx struct{ *txn.Tx }

// rows is what both engines' result sets offer.
type rows = txn.Rows

// update runs fn in one write transaction and commits it. Every change to the
// database goes through here, and through the write engine (txn): alone when
// the database is idle, else in a savepoint of a batch committed together.
//
// With a key, the transaction claims it before fn's first statements run (in
// the same round trip) and records the key's answer, key.Status and fn's
// result as JSON (answerOf), just before the commit: the answer is stored
// exactly when the change is, and a key with an answer already changes
// nothing (the answer comes back as *stockroom.Replayed).
//
// A write that has begun is finished whatever becomes of the caller: the
// transaction does not end when the client goes away, only at the request's
// deadline. PostgreSQL's deadlock victims and serialization failures changed
// nothing and are run again, a few times.
func (db *DB) update(ctx context.Context, key *stockroom.IdempotencyKey, fn func(tx *Tx) (any, error)) error {
	return db.runWrite(ctx, write{key: key, fn: fn})
}

// updateItem is update for a write whose rows are all of item partNo (its
// lots and levels) besides appends to the ledger, increments of the counts
// and its key's answer: on PostgreSQL it may run in a lockstep with others
// of other items (txn.Write.Scope).
func (db *DB) updateItem(ctx context.Context, key *stockroom.IdempotencyKey, partNo int64, fn func(tx *Tx) (any, error)) error {
	return db.runWrite(ctx, write{key: key, item: partNo, fn: fn})
}

// write is one write transaction of the store.
type write struct {
	key *stockroom.IdempotencyKey
	fn  func(tx *Tx) (any, error)
	// item is the one item whose rows fn writes, when it may run in a
	// lockstep (updateItem); 0 when not.
	item int64
	// given is the answer to record for key as it is (a refusal, recorded
	// by a write that changes nothing); nil for a write whose answer is
	// its result (answerOf).
	given *stockroom.RecordedAnswer
}

// runWrite runs w on the write engine and returns its error once it is
// answered, with its key's recorded answer set.
func (db *DB) runWrite(ctx context.Context, w write) error {
	tw := &txn.Write{Run: w.run, Scope: w.item}
	if k := w.key; k != nil {
		k.Recorded = nil
		tw.Key = k.ClientID + "\x00" + k.Key // what makes two keys the same
		tw.Claim = func(t *txn.Tx) { (&Tx{t}).claimKey(k) }
	}
	answer, err := db.txn.Do(ctx, tw)
	if w.key != nil {
		w.key.Recorded, _ = answer.(*stockroom.RecordedAnswer)
	}
	if err == nil {
		db.committed() // its events, if any, are readable (eventwake.go)
	}
	return db.classify(err)
}

// run runs w's fn on t and queues its key's answer: all of the write but
// the claim of its key. It returns the answer.
func (w write) run(t *txn.Tx) (any, error) {
	tx := &Tx{t}
	result, err := w.fn(tx)
	if err != nil || w.key == nil {
		return nil, err
	}
	answer := w.given
	if answer == nil {
		if answer, err = answerOf(w.key, result); err != nil {
			return nil, err
		}
	}
	tx.recordAnswer(w.key, *answer)
	return answer, nil
}

// updateNoResult is update for transactions whose caller needs no result
// beyond success.
func (db *DB) updateNoResult(ctx context.Context, fn func(tx *Tx) error) error {
	return db.update(ctx, nil, func(tx *Tx) (any, error) { return nil, fn(tx) })
}

// micros converts a time to the stored representation.
func micros(t time.Time) int64 { return t.UnixMicro() }

// fromMicros converts a stored timestamp back to a UTC time.
func fromMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }

// optMicros is the stored form of an optional time.
func optMicros(t *time.Time) any {
	if t == nil {
		return nil
	}
	return micros(*t)
}

// optTime reads an optional stored time.
func optTime(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := fromMicros(v.Int64)
	return &t
}

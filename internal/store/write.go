package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/stdlib"

	"github.com/stockroom/stockroom"
)

// update runs fn in one write transaction and commits it. Every change to the
// database goes through here, and through the batcher (batch.go): alone when
// the database is idle, else in a savepoint of a batch committed together.
//
// With a key, the transaction claims it before fn's first statements run (in
// the same round trip) and records the key's answer, rendered from fn's
// result, just before the commit: the answer is stored exactly when the
// change is, and a key with an answer already changes nothing (the answer
// comes back as *stockroom.Replayed).
//
// A write that has begun is finished whatever becomes of the caller: the
// transaction does not end when the client goes away, only at the request's
// deadline. PostgreSQL's deadlock victims and serialization failures changed
// nothing and are run again, a few times.
func (db *DB) update(ctx context.Context, key *stockroom.IdempotencyKey, fn func(tx *Tx) (any, error)) error {
	return db.updateItem(ctx, key, 0, fn)
}

// updateItem is update for a write whose rows are all of item partNo (its
// lots and levels) besides appends to the ledger, increments of the counts
// and its key's answer: on PostgreSQL it may run in a lockstep with others
// of other items (lockstep.go).
func (db *DB) updateItem(ctx context.Context, key *stockroom.IdempotencyKey, partNo int64, fn func(tx *Tx) (any, error)) error {
	ctx, cancel := detach(ctx)
	defer cancel()
	if key != nil {
		key.Recorded = nil
	}
	return db.batch.do(ctx, key, partNo, fn)
}

// maxAttempts bounds the runs of one write transaction.
const maxAttempts = 4

// detach returns a context that keeps ctx's values and deadline but is not
// canceled with it: a client that disconnects does not cut a write short.
func detach(ctx context.Context) (context.Context, context.CancelFunc) {
	d := context.WithoutCancel(ctx)
	if deadline, ok := ctx.Deadline(); ok {
		return context.WithDeadline(d, deadline)
	}
	return context.WithCancel(d)
}

// runAlone runs m as a transaction of its own on lane, again while it loses
// deadlocks or its COMMIT's answer was lost and it did not commit, and sets
// its answer.
func (db *DB) runAlone(lane int, m *member) {
	db.batch.stats.alone.Add(1)
	for attempt := 1; ; attempt++ {
		var reply *stockroom.Reply
		err := db.onLane(m.ctx, lane, func(t *Tx) error {
			if t.pg != nil {
				t.observe = db.observeSends
			}
			var err error
			reply, err = t.run(m.key, m.fn)
			return err
		})
		again := isRetryable(err)
		if again {
			db.batch.stats.deadlocks.Add(1)
		}
		if errors.Is(err, errCommitRolledBack) { // nothing of it is left
			again = true
		}
		if err == nil || attempt == maxAttempts || !again || ended(m.ctx) != nil {
			if err != nil { // the answer stands only for a transaction committed
				reply = nil
			}
			m.err, m.reply = db.classify(err), reply
			return
		}
	}
}

// onLane runs f on a transaction not yet begun on lane's connection: on
// PostgreSQL one from the pool, on SQLite the one writer. On PostgreSQL,
// when the answer to the transaction's COMMIT was lost, what it returns is
// what the database says became of it (settleLostCommit): nil when it
// committed.
func (db *DB) onLane(ctx context.Context, lane int, f func(t *Tx) error) error {
	if db.engine == SQLite {
		w, err := db.liteWriter()
		if err != nil {
			return err
		}
		err = f(&Tx{ctx: ctx, lite: w, shard: lane})
		if err != nil && w.conn.inTransaction() {
			// Its ROLLBACK failed: a new connection starts clean.
			db.dropLiteWriter()
		}
		return err
	}
	conn, err := db.write.Conn(ctx)
	if err != nil {
		return err
	}
	err = conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("postgres connection is a %T", driverConn)
		}
		return f(&Tx{ctx: ctx, pg: c.Conn(), shard: lane, xid: new(int64)})
	})
	conn.Close()
	// A lost COMMIT answer is asked about on another connection.
	return db.settleLostCommit(err)
}

// run carries out one attempt of a transaction, rolling it back on any
// error. It returns the key's answer as it was sent to be committed, with
// the error, if any: after a lost COMMIT answer the transaction may have
// committed (DB.onLane settles it), so whether the answer stands is the
// caller's to decide.
func (t *Tx) run(key *stockroom.IdempotencyKey, fn func(tx *Tx) (any, error)) (*stockroom.Reply, error) {
	reply, err := t.apply(key, fn)
	if err == nil {
		err = t.commit()
	}
	if err != nil {
		t.rollback()
		return reply, err
	}
	if t.observe != nil {
		t.observe(t.sends)
	}
	return reply, nil
}

// apply queues a member's claim of its key, runs fn and queues the key's
// answer: all of a transaction but its end.
func (t *Tx) apply(key *stockroom.IdempotencyKey, fn func(tx *Tx) (any, error)) (*stockroom.Reply, error) {
	if key != nil {
		t.claimKey(key)
	}
	return t.applyClaimed(key, fn)
}

// applyClaimed is apply for a key claimed already (or none).
func (t *Tx) applyClaimed(key *stockroom.IdempotencyKey, fn func(tx *Tx) (any, error)) (*stockroom.Reply, error) {
	result, err := fn(t)
	if err != nil || key == nil {
		return nil, err
	}
	reply, err := t.recordAnswer(key, result)
	if err != nil {
		return nil, err
	}
	return &reply, nil
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

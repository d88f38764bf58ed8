package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/stdlib"

	"github.com/stockroom/stockroom"
)

// update runs fn in one write transaction and commits it. Every change to the
// database goes through here.
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
	ctx, cancel := detach(ctx)
	defer cancel()
	for attempt := 1; ; attempt++ {
		err := db.attempt(ctx, key, fn)
		if err == nil || attempt == maxAttempts || !isRetryable(err) || ctx.Err() != nil {
			return db.classify(err)
		}
	}
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

func (db *DB) attempt(ctx context.Context, key *stockroom.IdempotencyKey, fn func(tx *Tx) (any, error)) error {
	if db.engine == SQLite {
		lite, err := db.write.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		return (&Tx{ctx: ctx, lite: lite}).run(key, fn)
	}
	conn, err := db.write.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("postgres connection is a %T", driverConn)
		}
		return (&Tx{ctx: ctx, pg: c.Conn(), observe: db.observeSends}).run(key, fn)
	})
}

// run carries out one attempt of a transaction, rolling it back on any
// error. The key's answer is handed to the caller only once committed.
func (t *Tx) run(key *stockroom.IdempotencyKey, fn func(tx *Tx) (any, error)) error {
	if key != nil {
		key.Recorded = nil
		t.claimKey(key)
	}
	result, err := fn(t)
	var reply stockroom.Reply
	if err == nil && key != nil {
		reply, err = t.recordAnswer(key, result)
	}
	if err == nil {
		err = t.commit()
	}
	if err != nil {
		t.rollback()
		return err
	}
	if key != nil {
		key.Recorded = &reply
	}
	if t.observe != nil {
		t.observe(t.sends)
	}
	return nil
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

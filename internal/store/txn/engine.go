package txn

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/stdlib"

	"github.com/stockroom/stockroom/internal/store/sqliteconn"
)

// Engine runs every write transaction of one database: on its lanes, alone
// or in batches committed together (batch.go). Its methods are safe for
// concurrent use.
type Engine struct {
	// pool gives PostgreSQL's transactions their connections; nil on
	// SQLite.
	pool *sql.DB
	// lite is SQLite's writer, held by the holder of its one lane, and
	// litePath the file it opens; checkpoints is the pools' checkpointer,
	// which the writer nudges.
	lite        *sqliteconn.Writer
	litePath    string
	checkpoints *sqliteconn.Checkpointer
	// outcomeWait bounds how long a lost COMMIT answer is asked about
	// (commitlost.go); 0 means commitOutcomeWait.
	outcomeWait time.Duration
	// observeSends, when set (by tests), is told how many pipelines each
	// committed PostgreSQL transaction sent.
	observeSends func(int)
	// observeCompiles, when set (by tests), is told each time SQLite's
	// writer compiles a kept statement again (sqliteconn.Writer.Observe).
	observeCompiles func(query string)
	batch           *batcher
}

// Config says where an Engine writes: PostgreSQL's pool, or SQLite's file.
type Config struct {
	// Postgres is the pool PostgreSQL's write transactions take their
	// connections from, and where a lost COMMIT is asked about; nil for
	// SQLite.
	Postgres *sql.DB
	// SQLite is the path of SQLite's database file, written by one writer
	// of the engine's own, connected at the first write; Checkpoints is
	// the checkpointer of its pools (sqliteconn.Pools).
	SQLite      string
	Checkpoints *sqliteconn.Checkpointer
}

// New returns an engine writing where c says.
func New(c Config) *Engine {
	e := &Engine{pool: c.Postgres, litePath: c.SQLite, checkpoints: c.Checkpoints}
	e.batch = newBatcher(e, writeLanes(e.pool != nil))
	return e
}

// Write is one write transaction to run.
type Write struct {
	// Run queues the transaction's statements on t, flushing when it
	// needs results, and returns a result of its own (the answer of an
	// idempotency key): Do returns the one of the attempt that
	// committed. An error rolls back what it queued.
	Run func(t *Tx) (any, error)
	// Claim, when not nil, queues the claim of Key with a check of its
	// outcome (Tx.Check), sent with Run's first statements; a lockstep
	// sends every member's claim ahead, and a member whose check fails
	// takes no further part, answered with that check's error.
	Claim func(t *Tx)
	// Key, when not empty, names the idempotency key the write claims:
	// no two writes of one Key are in one batch.
	Key string
	// Scope, when not 0, says that every row Run writes is of that one
	// scope (an item), besides rows whose changes any order of writes
	// leaves the same (appends, increments, a key's answer): writes of
	// different scopes touch no row in common, and may run in a lockstep
	// (lockstep.go).
	Scope int64
}

// Do runs w and returns the result of its Run in the attempt that
// committed, or its error. It runs within ctx's deadline but not its
// cancellation: a write that has begun is finished whatever becomes of
// the caller, only the deadline ends it. PostgreSQL's deadlock victims and
// serialization failures changed nothing and are run again, a few times.
func (e *Engine) Do(ctx context.Context, w *Write) (any, error) {
	ctx, cancel := detach(ctx)
	defer cancel()
	m := &member{ctx: ctx, w: w}
	err := e.batch.do(m)
	return m.result, err
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
func (e *Engine) runAlone(lane int, m *member) {
	e.batch.stats.alone.Add(1)
	for attempt := 1; ; attempt++ {
		var result any
		err := e.onLane(m.ctx, lane, func(t *Tx) error {
			if t.pg != nil {
				t.observe = e.observeSends
			}
			var err error
			result, err = t.run(m)
			return err
		})
		again := isRetryable(err)
		if again {
			e.batch.stats.deadlocks.Add(1)
		}
		if errors.Is(err, errCommitRolledBack) { // nothing of it is left
			again = true
		}
		if err == nil || attempt == maxAttempts || !again || ended(m.ctx) != nil {
			if err != nil { // the result stands only for a transaction committed
				result = nil
			}
			m.err, m.result = err, result
			return
		}
	}
}

// onLane runs f on a transaction not yet begun on lane's connection: on
// PostgreSQL one from the pool, on SQLite the one writer. On PostgreSQL,
// when the answer to the transaction's COMMIT was lost, what it returns is
// what the database says became of it (settleLostCommit): nil when it
// committed.
func (e *Engine) onLane(ctx context.Context, lane int, f func(t *Tx) error) error {
	if e.pool == nil {
		w, err := e.liteWriter()
		if err != nil {
			return err
		}
		err = f(&Tx{ctx: ctx, lite: w, lane: lane})
		if err != nil && w.InTransaction() {
			// Its ROLLBACK failed: a new connection starts clean.
			e.dropLiteWriter()
		}
		return err
	}
	conn, err := e.pool.Conn(ctx)
	if err != nil {
		return err
	}
	err = conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("postgres connection is a %T", driverConn)
		}
		return f(&Tx{ctx: ctx, pg: c.Conn(), lane: lane, xid: new(int64)})
	})
	conn.Close()
	// A lost COMMIT answer is asked about on another connection.
	return e.settleLostCommit(err)
}

// run carries out one attempt of member m's transaction, rolling it back
// on any error. It returns the result of m's Run, with the error, if any:
// after a lost COMMIT answer the transaction may have committed
// (Engine.onLane settles it), so whether the result stands is the caller's
// to decide.
func (t *Tx) run(m *member) (any, error) {
	result, err := t.apply(m)
	if err == nil {
		err = t.commit()
	}
	if err != nil {
		t.rollback()
		return result, err
	}
	if t.observe != nil {
		t.observe(t.sends)
	}
	return result, nil
}

// apply queues a member's claim of its key and runs its Run: all of a
// transaction but its end.
func (t *Tx) apply(m *member) (any, error) {
	if m.w.Claim != nil {
		m.w.Claim(t)
	}
	return m.w.Run(t)
}

// liteWriter returns SQLite's writer, connecting it first when needed. Only
// the holder of SQLite's one lane calls it.
func (e *Engine) liteWriter() (*sqliteconn.Writer, error) {
	if e.lite != nil {
		return e.lite, nil
	}
	w, err := sqliteconn.OpenWriter(e.litePath, e.checkpoints)
	if err != nil {
		return nil, err
	}
	if f := e.observeCompiles; f != nil {
		w.Observe(f)
	}
	e.lite = w
	return w, nil
}

// Close closes SQLite's writer; on PostgreSQL it does nothing (the pool is
// the caller's).
func (e *Engine) Close() { e.dropLiteWriter() }

// dropLiteWriter closes SQLite's writer, to be connected again at the next
// write.
func (e *Engine) dropLiteWriter() {
	if e.lite != nil {
		e.lite.Close()
		e.lite = nil
	}
}

// ObserveSendsForTest has f told how many round trips (pipelines sent)
// each committed PostgreSQL write transaction took; nothing but tests
// should.
func (e *Engine) ObserveSendsForTest(f func(int)) { e.observeSends = f }

// ObserveRecompilesForTest has f told the text of every statement SQLite's
// writer had prepared and kept, each time SQLite compiles it again. Set it
// before the first write.
func (e *Engine) ObserveRecompilesForTest(f func(query string)) { e.observeCompiles = f }

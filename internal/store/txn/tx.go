package txn

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stockroom/stockroom/internal/store/sqliteconn"
)

// Tx is one write transaction. Its statements are plain SQL, the same text
// on both engines. They are queued, and sent when the caller needs a result
// (Flush) and at the commit: on PostgreSQL each flush is one pipeline, one
// network round trip however many statements it holds; on SQLite, whose
// database is in the process, they simply run one after the other. What is
// queued is what runs, in the order queued, so row locks are taken in that
// order; the one rewrite is a lockstep's merged statement (merge.go).
type Tx struct {
	ctx  context.Context
	pg   *pgx.Conn          // PostgreSQL: the connection the transaction runs on
	lite *sqliteconn.Writer // SQLite
	// begun: BEGIN has been sent (on PostgreSQL it rides in the first
	// pipeline instead of costing a round trip of its own).
	begun bool
	// lane is the lane the transaction runs on (Lane).
	lane  int
	queue []Stmt
	// checks run after the next flush, before the caller sees its results:
	// the verdict on an idempotency key queued at the start.
	checks []func() error
	// sends counts the pipelines sent: the round trips of the transaction
	// on PostgreSQL, once its statements are prepared on the connection.
	sends   int
	observe func(sends int) // for tests: told the sends of each commit
	// step is set when the transaction is a member of a lockstep, whose
	// coordinator sends its statements (lockstep.go).
	step *stepper
	// deferred is what the transaction's statements put off to its
	// commit (Defer).
	deferred Deferred
	// xid is where PostgreSQL's id of the transaction is read at the end
	// of each pipeline but the last (readXactID); a batch's members share
	// their batch's. It stays 0 until the transaction has written. When a
	// COMMIT's answer is lost, it is how the engine learns whether the
	// transaction committed (commitlost.go).
	xid *int64
}

// Stmt is one queued statement.
type Stmt struct {
	SQL  string
	Args []any
	// Read reads the statement's rows once it has run; nil when they are
	// not needed.
	Read func(Rows) error
	// Merger, when not nil, is the kind of statement a lockstep may send
	// merged with other members' of that kind, and Part what this one
	// brings to the merged statement (merge.go). A statement of a
	// Merger's kind with Part nil is never merged, and no statement of
	// its transaction that follows it in the same flush is.
	Merger Merger
	Part   any
}

// Deferred is what a transaction's statements put off to its commit, to be
// written there by statements of its own, once however many statements
// (and batch members) contributed to it: changes to rows every
// transaction changes, best changed last and held to the commit only.
type Deferred interface {
	// Merge adds d, what a member of a batch that succeeded put off, to
	// what its batch's transaction has.
	Merge(d Deferred)
	// Queue queues on t the statements that write it, just before t's
	// commit.
	Queue(t *Tx)
}

// Defer sets what t puts off to its commit; Deferred returns it (nil until
// set).
func (t *Tx) Defer(d Deferred) { t.deferred = d }

// Deferred returns what t puts off to its commit (Defer), nil for nothing.
func (t *Tx) Deferred() Deferred { return t.deferred }

// Rows is what both engines' result sets offer.
type Rows = sqliteconn.Rows

// Queue queues s.
func (t *Tx) Queue(s Stmt) { t.queue = append(t.queue, s) }

// Exec queues a statement whose rows, if any, are not read.
func (t *Tx) Exec(query string, args ...any) {
	t.queue = append(t.queue, Stmt{SQL: query, Args: args})
}

// Query queues a statement whose rows read will see once it has run.
func (t *Tx) Query(read func(Rows) error, query string, args ...any) {
	t.queue = append(t.queue, Stmt{SQL: query, Args: args, Read: read})
}

// QueryRow queues a statement that returns at most one row, scanned into
// dest once it has run. found, when not nil, reports whether there was a
// row; when nil, a missing row is an error.
func (t *Tx) QueryRow(found *bool, query string, args []any, dest ...any) {
	t.Query(func(r Rows) error {
		if !r.Next() {
			if err := r.Err(); err != nil {
				return err
			}
			if found == nil {
				return fmt.Errorf("no row from %s: %w", FirstLine(query), sql.ErrNoRows)
			}
			*found = false
			return r.Err()
		}
		if found != nil {
			*found = true
		}
		return r.Scan(dest...)
	}, query, args...)
}

// Check has f run after the next flush, once the statements queued before
// it have run, before Flush returns: an error of f is Flush's. The claim of
// an idempotency key queues its verdict so.
func (t *Tx) Check(f func() error) { t.checks = append(t.checks, f) }

// Postgres reports whether the transaction runs on PostgreSQL (else on
// SQLite), for the few statements written for one engine.
func (t *Tx) Postgres() bool { return t.pg != nil }

// Lane is the lane the transaction runs on, from 0: what a row that every
// transaction changes can be sharded by, so that transactions of
// different lanes never wait for one another's.
func (t *Tx) Lane() int { return t.lane }

// Flush sends every queued statement and reads their results, then runs
// the pending checks.
func (t *Tx) Flush() error {
	if t.step != nil {
		return t.stepFlush()
	}
	if err := ended(t.ctx); err != nil {
		// Nothing is sent, nor counted as sent (runMember rolls back only
		// what was).
		t.queue = t.queue[:0]
		return err
	}
	var err error
	if t.pg != nil {
		err = t.flushPostgres(nil)
	} else {
		err = t.flushSQLite()
	}
	t.queue = t.queue[:0]
	if err != nil {
		return err
	}
	return t.check()
}

// check runs the checks queued with t's statements, once those have run.
func (t *Tx) check() error {
	checks := t.checks
	t.checks = nil
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// flushPostgres sends the queue as one pipeline, opened by BEGIN the first
// time and closed by COMMIT when commitTag is given, which receives the
// COMMIT's command tag. A statement's error names the statement.
func (t *Tx) flushPostgres(commitTag *pgconn.CommandTag) error {
	b := t.pipeline()
	for _, s := range t.queue {
		s.queueOn(b, nil)
	}
	if commitTag == nil {
		t.readXactID(b)
	} else {
		b.Queue("COMMIT").Exec(func(ct pgconn.CommandTag) error {
			*commitTag = ct
			return nil
		})
	}
	return t.pg.SendBatch(t.ctx, b).Close()
}

// adopt takes on what a batch member that succeeded, m, leaves to its
// batch's transaction t: its statements still queued and their checks
// (judged before the commit), and what it put off to the commit, written
// with the batch's.
func (t *Tx) adopt(m *Tx) {
	t.queue = append(t.queue, m.queue...)
	t.checks = append(t.checks, m.checks...)
	switch {
	case m.deferred == nil:
	case t.deferred == nil:
		t.deferred = m.deferred
	default:
		t.deferred.Merge(m.deferred)
	}
}

// pipeline starts a pipeline of t's statements: opened by BEGIN the first
// time, and counted in t.sends.
//
// A write transaction's statements are each planned once per connection
// (prepared, with a generic plan): left to choose (plan_cache_mode auto),
// PostgreSQL planned some of them again at every execution, the level
// events' INSERT among them, which cost a move 0.44 ms of planning and
// about a third of its rate (docs/performance.md, 2026-12-04).
func (t *Tx) pipeline() *pgx.Batch {
	b := &pgx.Batch{}
	if !t.begun {
		b.Queue("BEGIN")
		b.Queue("SET LOCAL plan_cache_mode = force_generic_plan")
		t.begun = true
	}
	t.sends++
	return b
}

// queueOn queues s on pipeline b, to be received there, its error naming
// it; failed, when not nil, is told that error.
func (s Stmt) queueOn(b *pgx.Batch, failed func(error)) {
	b.Queue(s.SQL, s.Args...).Fn = func(br pgx.BatchResults) error {
		err := stmtError(s.SQL, s.receive(br))
		if err != nil && failed != nil {
			failed(err)
		}
		return err
	}
}

// receive reads the result of s from a pipeline.
func (s Stmt) receive(br pgx.BatchResults) error {
	if s.Read == nil {
		_, err := br.Exec()
		return err
	}
	r, _ := br.Query() // an error is in r.Err()
	defer r.Close()
	if err := s.Read(r); err != nil {
		return err
	}
	r.Close()
	return r.Err()
}

func (t *Tx) flushSQLite() error {
	if !t.begun {
		if err := t.lite.Begin(t.ctx); err != nil {
			if sqliteconn.IsBusy(err) && ended(t.ctx) != nil {
				return context.DeadlineExceeded
			}
			return err
		}
		t.begun = true
	}
	t.sends++
	for _, s := range t.queue {
		if err := stmtError(s.SQL, t.runSQLite(s)); err != nil {
			return err
		}
	}
	return nil
}

// runSQLite runs s on the writer. The transaction's deadline is checked
// before each statement, not watched while one runs: the writer's
// statements find their rows by key, and none waits for a lock (the writer
// holds SQLite's write lock from its BEGIN, which is the one statement that
// may wait, and keeps the deadline), so a statement begun in time ends
// promptly.
func (t *Tx) runSQLite(s Stmt) error {
	if err := ended(t.ctx); err != nil {
		return err
	}
	return t.lite.Run(s.SQL, s.Args, s.Read)
}

// commit queues what the transaction put off to its commit, sends what is
// still queued and commits, in one round trip on PostgreSQL. Pending checks are judged first, so a transaction whose
// idempotency key turns out to be answered already commits nothing.
func (t *Tx) commit() error {
	if d := t.deferred; d != nil {
		t.deferred = nil
		d.Queue(t)
	}
	if len(t.checks) > 0 {
		if err := t.Flush(); err != nil {
			return err
		}
	}
	if t.lite != nil {
		if err := t.Flush(); err != nil {
			return err
		}
		return t.lite.Commit()
	}
	var tag pgconn.CommandTag
	err := t.flushPostgres(&tag)
	t.queue = t.queue[:0]
	switch {
	case err != nil && tag.String() == "COMMIT":
		return nil // its answer arrived: what failed came after it
	case err != nil:
		return t.commitFailed(err)
	}
	// COMMIT of a transaction that failed answers ROLLBACK, not an error.
	if tag.String() != "COMMIT" {
		return fmt.Errorf("commit answered %q", tag.String())
	}
	return nil
}

// rollback ends a transaction that is not to be committed. On PostgreSQL
// the connection goes back to the pool only outside a transaction: the
// driver discards one left inside (its ResetSession checks).
func (t *Tx) rollback() {
	if t.lite != nil {
		if t.begun {
			_ = t.lite.Run("ROLLBACK", nil, nil)
		}
		return
	}
	if t.pg.IsClosed() || t.pg.PgConn().TxStatus() == 'I' {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(t.ctx), rollbackTimeout)
	defer cancel()
	_, _ = t.pg.Exec(ctx, "ROLLBACK")
}

// rollbackTimeout bounds the ROLLBACK of a failed transaction, which runs
// even when the request's own time is up.
const rollbackTimeout = 5 * time.Second

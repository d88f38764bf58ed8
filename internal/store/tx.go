package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Tx is one write transaction. Its statements are plain SQL, the same text
// on both engines. They are queued, and sent when the caller needs a result
// (flush) and at the commit: on PostgreSQL each flush is one pipeline, one
// network round trip however many statements it holds; on SQLite, whose
// database is in the process, they simply run one after the other. Nothing
// is rewritten: what is queued is what runs, in the order queued, so row
// locks are taken in that order.
type Tx struct {
	ctx  context.Context
	pg   *pgx.Conn   // PostgreSQL: the connection the transaction runs on
	lite *liteWriter // SQLite
	// begun: BEGIN has been sent (on PostgreSQL it rides in the first
	// pipeline instead of costing a round trip of its own).
	begun bool
	// shard is the shard of each kept count this transaction changes
	// (counter.go): its lane's, so that transactions of different lanes
	// never wait for one another's counters.
	shard int
	queue []stmt
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
	// counts are the changes to kept counts so far, written at the commit
	// (counter.go).
	counts countChanges
	// xid is where PostgreSQL's id of the transaction is read at the end
	// of each pipeline but the last (readXactID); a batch's members share
	// their batch's. It stays 0 until the transaction has written. When a
	// COMMIT's answer is lost, it is how the store learns whether the
	// transaction committed (commitlost.go).
	xid *int64
}

// stmt is one queued statement.
type stmt struct {
	sql  string
	args []any
	// read reads the statement's rows once it has run; nil when they are
	// not needed.
	read func(rows) error
	// levels: a statement of changes to level rows, which a lockstep may
	// merge with others' (levelmerge.go); nil for any other.
	levels *levelStmt
}

// rows is what both engines' result sets offer.
type rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// exec queues a statement whose rows, if any, are not read.
func (t *Tx) exec(query string, args ...any) {
	t.queue = append(t.queue, stmt{sql: query, args: args})
}

// query queues a statement whose rows read will see once it has run.
func (t *Tx) query(read func(rows) error, query string, args ...any) {
	t.queue = append(t.queue, stmt{sql: query, args: args, read: read})
}

// queryRow queues a statement that returns at most one row, scanned into
// dest once it has run. found, when not nil, reports whether there was a
// row; when nil, a missing row is an error.
func (t *Tx) queryRow(found *bool, query string, args []any, dest ...any) {
	t.query(func(r rows) error {
		if !r.Next() {
			if err := r.Err(); err != nil {
				return err
			}
			if found == nil {
				return fmt.Errorf("no row from %s: %w", firstLine(query), sql.ErrNoRows)
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

// flush sends every queued statement and reads their results, then runs the
// pending checks.
func (t *Tx) flush() error {
	if t.step != nil {
		return t.stepFlush()
	}
	if err := ended(t.ctx); err != nil {
		// Nothing is sent, nor counted as sent (Tx.member rolls back only
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
// (judged before the commit), and its changes to kept counts, written with
// the batch's at the commit.
func (t *Tx) adopt(m *Tx) {
	t.queue = append(t.queue, m.queue...)
	t.checks = append(t.checks, m.checks...)
	t.addCounts(m.counts)
}

// pipeline starts a pipeline of t's statements: opened by BEGIN the first
// time, and counted in t.sends.
func (t *Tx) pipeline() *pgx.Batch {
	b := &pgx.Batch{}
	if !t.begun {
		b.Queue("BEGIN")
		t.begun = true
	}
	t.sends++
	return b
}

// queueOn queues s on pipeline b, to be received there, its error naming
// it; failed, when not nil, is told that error.
func (s stmt) queueOn(b *pgx.Batch, failed func(error)) {
	b.Queue(s.sql, s.args...).Fn = func(br pgx.BatchResults) error {
		err := stmtError(s.sql, s.receive(br))
		if err != nil && failed != nil {
			failed(err)
		}
		return err
	}
}

// receive reads the result of s from a pipeline.
func (s stmt) receive(br pgx.BatchResults) error {
	if s.read == nil {
		_, err := br.Exec()
		return err
	}
	r, _ := br.Query() // an error is in r.Err()
	defer r.Close()
	if err := s.read(r); err != nil {
		return err
	}
	r.Close()
	return r.Err()
}

// stmtError names the statement an error came from, keeping the error
// itself for errors.Is and errors.As.
func stmtError(query string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", firstLine(query), err)
}

func (t *Tx) flushSQLite() error {
	if !t.begun {
		if err := t.lite.begin(t.ctx); err != nil {
			return err
		}
		t.begun = true
	}
	t.sends++
	for _, s := range t.queue {
		if err := stmtError(s.sql, t.runSQLite(s)); err != nil {
			return err
		}
	}
	return nil
}

// ended returns why no more work is done within ctx: its error, or
// context.DeadlineExceeded once its deadline has passed, even if the timer
// that sets its error has not fired yet (each detached copy of a request's
// context has a timer of its own, and the timers of one deadline fire in no
// set order).
func ended(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		return context.DeadlineExceeded
	}
	return nil
}

// runSQLite runs s on the writer. The transaction's deadline is checked
// before each statement, not watched while one runs: the writer's
// statements find their rows by key, and none waits for a lock (the writer
// holds SQLite's write lock from its BEGIN, which is the one statement that
// may wait, and keeps the deadline), so a statement begun in time ends
// promptly.
func (t *Tx) runSQLite(s stmt) error {
	if err := ended(t.ctx); err != nil {
		return err
	}
	return t.lite.run(s.sql, s.args, s.read)
}

// commit sends what is still queued and commits, in one round trip on
// PostgreSQL. Pending checks are judged first, so a transaction whose
// idempotency key turns out to be answered already commits nothing.
func (t *Tx) commit() error {
	t.queueCounts()
	if len(t.checks) > 0 {
		if err := t.flush(); err != nil {
			return err
		}
	}
	if t.lite != nil {
		if err := t.flush(); err != nil {
			return err
		}
		return t.lite.commit()
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
			_ = t.lite.run("ROLLBACK", nil, nil)
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

// firstLine names a statement in an error: its first words.
func firstLine(query string) string {
	const max = 60
	s := []rune(collapseSpace(query))
	if len(s) > max {
		s = append(s[:max], '…')
	}
	return string(s)
}

// collapseSpace turns runs of white space into one space.
func collapseSpace(s string) string {
	out := make([]rune, 0, len(s))
	space := true
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			if !space {
				out = append(out, ' ')
			}
			space = true
			continue
		}
		out = append(out, r)
		space = false
	}
	if n := len(out); n > 0 && out[n-1] == ' ' {
		out = out[:n-1]
	}
	return string(out)
}

// rollbackTimeout bounds the ROLLBACK of a failed transaction, which runs
// even when the request's own time is up.
const rollbackTimeout = 5 * time.Second

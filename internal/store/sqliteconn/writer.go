package sqliteconn

import (
	"context"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// Writer is SQLite's one writing connection (a liteConn, conn.go), held
// by the write engine for as long as it can be used, with its prepared
// statements. It is used by one goroutine at a time, the holder of
// SQLite's one write lane. SQLite parses a statement each time it is prepared, which
// costs as much as running it; a write transaction's statements are few
// distinct texts run again and again (transaction control included), so
// each is prepared once per connection and kept.
//
// A kept statement stays compiled only while its plan does not depend on
// the values bound to it. SQLite's planner reads a bound value where it
// can use one (a LIMIT, an equality in a join or under an ORDER BY, a
// NULL), and marks the statement to be compiled again whenever that
// parameter is bound anew, as every run binds each parameter: such a
// statement was parsed and planned on every run, as costly as running it.
// The writer therefore prepares each statement with its parameters behind
// SQLite's unary plus ($1 becomes +?1, see keptText), an operator that
// returns its operand unchanged, with no affinity, as a parameter has
// none, and hides the value from the planner. The writer's statements find
// their rows by key, which needs no value to plan: their plans are the
// same either way. The statement text, the same on both engines, is
// unchanged; only what SQLite's writer compiles differs.
type Writer struct {
	conn  *liteConn
	stmts map[string]uintptr
	// running is the kept statement being run, for Observe, and observer
	// the handle of this writer's observer (0 for none).
	running  string
	observer uintptr
	// checkpoints is nudged after each commit.
	checkpoints *Checkpointer
}

// bareParam is a statement's parameter.
var bareParam = regexp.MustCompile(`\$([0-9]+)`)

// keptText is the text the writer prepares for query: every parameter
// numbered (?NNN, bound by its number) and behind unary plus.
func keptText(query string) string { return bareParam.ReplaceAllString(query, "+?$1") }

// maxPrepared bounds the statements kept; past it they are all dropped
// and prepared again as they come (statements whose text varies with the
// number of rows are the only ones that could grow without bound).
const maxPrepared = 512

// timeStatement, when set, is told each statement the writer ran and when
// it began. Only a build with the stmttime tag sets it (stmttime.go), for
// bench/sqlite.sh STATEMENTS=1, which reports where the one writer's time
// goes; in every other build it is nil.
var timeStatement func(query string, began time.Time)

// OpenWriter connects the writer of the database file at path, with the
// settings of every connection (pragmas), nudging checkpoints after each
// commit.
func OpenWriter(path string, checkpoints *Checkpointer) (*Writer, error) {
	vfs, err := chooseVFS()
	if err != nil {
		return nil, err
	}
	ps := pragmas(false)
	for i, p := range ps {
		ps[i] = "PRAGMA " + p
	}
	conn, err := openLiteConn(path, vfs, ps)
	if err != nil {
		return nil, err
	}
	return &Writer{conn: conn, stmts: map[string]uintptr{}, checkpoints: checkpoints}, nil
}

// Close releases the writer's statements and closes its connection.
func (w *Writer) Close() {
	for _, s := range w.stmts {
		w.conn.finalize(s)
	}
	if w.observer != 0 {
		observers.Delete(w.observer)
	}
	w.conn.close()
}

// InTransaction reports whether a transaction is open on the writer: after
// a failed ROLLBACK, a new writer starts clean.
func (w *Writer) InTransaction() bool { return w.conn.inTransaction() }

// prepared returns query prepared on the writer.
func (w *Writer) prepared(query string) (uintptr, error) {
	if s, ok := w.stmts[query]; ok {
		w.running = query
		return s, nil
	}
	w.running = "" // its first compilation
	if len(w.stmts) >= maxPrepared {
		for q, s := range w.stmts {
			w.conn.finalize(s)
			delete(w.stmts, q)
		}
	}
	s, err := w.conn.prepare(keptText(query))
	if err != nil {
		return 0, err
	}
	w.stmts[query] = s
	w.running = query
	return s, nil
}

// Run runs query with args ($1, $2, ...), handing its rows to read when
// read is not nil.
func (w *Writer) Run(query string, args []any, read func(Rows) error) error {
	if timeStatement != nil {
		defer timeStatement(query, time.Now())
	}
	s, err := w.prepared(query)
	if err != nil {
		return err
	}
	return w.conn.run(s, args, read)
}

// Begin begins the writer's transaction, IMMEDIATE: it takes SQLite's
// write lock, waiting (up to the busy timeout) for another process that
// holds it, but not past ctx's deadline, after which it gives up busy
// (IsBusy).
func (w *Writer) Begin(ctx context.Context) error {
	w.conn.waitAtMost(ctx)
	return w.Run("BEGIN IMMEDIATE", nil, nil)
}

// Commit commits the writer's transaction and nudges the checkpointer.
func (w *Writer) Commit() error {
	if err := w.Run("COMMIT", nil, nil); err != nil {
		return err
	}
	w.checkpoints.nudge()
	return nil
}

// observers holds each observed writer's observer by its handle, for
// liteAuthorize; observerHandles numbers them.
var (
	observers       sync.Map
	observerHandles atomic.Uintptr
	// authorizer is liteAuthorize as SQLite calls it.
	authorizer uintptr
)

func init() { setFunc(&authorizer, liteAuthorize) }

// Observe tells f the running kept statement whenever SQLite compiles
// something other than transaction control (BEGIN, COMMIT, savepoints):
// that is a kept statement compiled again, which costs as much as running
// it (keptText). It uses SQLite's authorizer, which is consulted as a
// statement is compiled. For tests: set it before the writer's first
// statement.
func (w *Writer) Observe(f func(query string)) {
	w.observer = observerHandles.Add(1)
	observers.Store(w.observer, func(action int32) {
		if w.running != "" && action != sqlite3.SQLITE_TRANSACTION && action != sqlite3.SQLITE_SAVEPOINT {
			f(w.running)
		}
	})
	sqlite3.Xsqlite3_set_authorizer(w.conn.tls, w.conn.db, authorizer, w.observer)
}

// liteAuthorize is the writer's authorizer: it tells the writer's observer
// and allows everything.
func liteAuthorize(_ *libc.TLS, handle uintptr, action int32, _, _, _, _ uintptr) int32 {
	if f, ok := observers.Load(handle); ok {
		f.(func(int32))(action)
	}
	return sqlite3.SQLITE_OK
}

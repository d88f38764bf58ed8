package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"regexp"
	"time"

	"modernc.org/sqlite"
)

// liteWriter is SQLite's one writing connection, held by the store for as
// long as it can be used, with its prepared statements. SQLite parses a
// statement each time it is prepared, which costs as much as running it;
// a write transaction's statements are few distinct texts run again and
// again, so each is prepared once per connection and kept.
//
// A kept statement stays compiled only while its plan does not depend on
// the values bound to it. SQLite's planner reads a bound value where it
// can use one (a LIMIT, an equality in a join or under an ORDER BY, a
// NULL), and marks the statement to be compiled again whenever that
// parameter is bound anew; the driver clears every parameter after each
// run, so such a statement was parsed and planned on every run, as costly
// as running it. The writer therefore prepares each statement with its
// parameters behind SQLite's unary plus ($1 becomes +$1, see keptText),
// an operator that returns its operand unchanged, with no affinity, as a
// parameter has none, and hides the value from the planner. The writer's
// statements find their rows by key, which needs no value to plan: their
// plans are the same either way. The statement text, the same on both
// engines, is unchanged; only what SQLite's writer compiles differs.
type liteWriter struct {
	conn  *sql.Conn
	stmts map[string]*sql.Stmt
	// running is the kept statement being run, for observeCompiles.
	running string
	// checkpoints is nudged after each commit.
	checkpoints *checkpointer
}

// bareParam is a statement's parameter.
var bareParam = regexp.MustCompile(`\$[0-9]+`)

// keptText is the text the writer prepares for query: every parameter
// behind unary plus.
func keptText(query string) string { return bareParam.ReplaceAllString(query, "+$0") }

// maxPrepared bounds the statements kept; past it they are all dropped
// and prepared again as they come (statements whose text varies with the
// number of rows are the only ones that could grow without bound).
const maxPrepared = 512

// timeStatement, when set, is told each statement the writer ran and when
// it began. Only a build with the stmttime tag sets it (stmttime.go), for
// bench/sqlite.sh STATEMENTS=1, which reports where the one writer's time
// goes; in every other build it is nil.
var timeStatement func(query string, began time.Time)

// liteWriter returns the writer, connecting it first when needed. Only the
// holder of SQLite's one lane calls it.
func (db *DB) liteWriter(ctx context.Context) (*liteWriter, error) {
	if db.lite != nil {
		return db.lite, nil
	}
	conn, err := db.write.Conn(ctx)
	if err != nil {
		return nil, err
	}
	w := &liteWriter{conn: conn, stmts: map[string]*sql.Stmt{}, checkpoints: db.checkpoints}
	if f := db.observeCompiles; f != nil {
		if err := w.observe(f); err != nil {
			_ = conn.Close()
			return nil, err
		}
	}
	db.lite = w
	return w, nil
}

// observe tells f the running kept statement whenever SQLite compiles
// something other than transaction control (BEGIN, COMMIT, savepoints,
// which are not kept): that is a kept statement compiled again. It uses
// SQLite's authorizer, which is consulted as a statement is compiled.
func (w *liteWriter) observe(f func(string)) error {
	return w.conn.Raw(func(dc any) error {
		r, ok := dc.(sqlite.AuthorizerRegisterer)
		if !ok {
			return fmt.Errorf("the SQLite driver has no authorizer")
		}
		return r.RegisterAuthorizer(func(a sqlite.AuthorizerActionCode, _, _, _, _ string) sqlite.AuthorizerReturnCode {
			if w.running != "" && a != sqlite.AuthTransaction && a != sqlite.AuthSavepoint {
				f(w.running)
			}
			return sqlite.AuthorizerOK
		})
	})
}

// dropLiteWriter closes the writer, to be connected again at the next
// write.
func (db *DB) dropLiteWriter() {
	if db.lite != nil {
		db.lite.close()
		db.lite = nil
	}
}

func (w *liteWriter) close() {
	for _, s := range w.stmts {
		_ = s.Close()
	}
	_ = w.conn.Close()
}

// connBroken reports whether err means the connection is no longer usable.
func connBroken(err error) bool {
	return errors.Is(err, sql.ErrConnDone) || errors.Is(err, driver.ErrBadConn)
}

// prepared returns query prepared on the writer.
func (w *liteWriter) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	if s, ok := w.stmts[query]; ok {
		w.running = query
		return s, nil
	}
	w.running = "" // its first compilation
	if len(w.stmts) >= maxPrepared {
		for q, s := range w.stmts {
			_ = s.Close()
			delete(w.stmts, q)
		}
	}
	s, err := w.conn.PrepareContext(ctx, keptText(query))
	if err != nil {
		return nil, err
	}
	w.stmts[query] = s
	w.running = query
	return s, nil
}

// commit commits the writer's transaction and tells the checkpointer.
func (w *liteWriter) commit(ctx context.Context) error {
	if err := w.exec(ctx, "COMMIT"); err != nil {
		return err
	}
	if w.checkpoints != nil {
		w.checkpoints.nudge()
	}
	return nil
}

// exec runs a statement that is not kept prepared (a transaction's BEGIN,
// COMMIT, savepoints).
func (w *liteWriter) exec(ctx context.Context, query string) error {
	if timeStatement != nil {
		defer timeStatement(query, time.Now())
	}
	_, err := w.conn.ExecContext(ctx, query)
	return err
}

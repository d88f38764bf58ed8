package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
)

// liteWriter is SQLite's one writing connection, held by the store for as
// long as it can be used, with its prepared statements. SQLite parses a
// statement each time it is prepared, which costs as much as running it;
// a write transaction's statements are few distinct texts run again and
// again, so each is prepared once per connection and kept.
type liteWriter struct {
	conn  *sql.Conn
	stmts map[string]*sql.Stmt
}

// maxPrepared bounds the statements kept; past it they are all dropped
// and prepared again as they come (statements whose text varies with the
// number of rows are the only ones that could grow without bound).
const maxPrepared = 512

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
	db.lite = &liteWriter{conn: conn, stmts: map[string]*sql.Stmt{}}
	return db.lite, nil
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
		return s, nil
	}
	if len(w.stmts) >= maxPrepared {
		for q, s := range w.stmts {
			_ = s.Close()
			delete(w.stmts, q)
		}
	}
	s, err := w.conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	w.stmts[query] = s
	return s, nil
}

// exec runs a statement that is not kept prepared (a transaction's BEGIN,
// COMMIT, savepoints).
func (w *liteWriter) exec(ctx context.Context, query string) error {
	_, err := w.conn.ExecContext(ctx, query)
	return err
}

package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store/sqliteconn"
	"github.com/stockroom/stockroom/internal/store/txn"
)

// The engine seam: everything that must be told apart by engine is here, and
// recognised by error codes and types, never by error text.

// errUnavailable is what a caller sees when the database cannot be reached.
var errUnavailable = &stockroom.Error{Code: stockroom.EUNAVAILABLE, Message: stockroom.MsgDatabaseOffline}

// errOutcomeUnknown answers a request whose transaction's COMMIT was sent
// and not answered, when the database could not say what became of it
// (txn.ErrOutcomeUnknown).
var errOutcomeUnknown = &stockroom.Error{Code: stockroom.EUNAVAILABLE, Message: "The database did not confirm this " +
	"change and could not be asked whether it was made. Send it again with the same Idempotency-Key to learn its " +
	"outcome; without one, check the ledger before sending it again."}

// classify turns driver errors that mean "the database is not reachable right
// now", and a commit whose outcome is unknown, into an EUNAVAILABLE error
// that still wraps the cause for the log. *stockroom.Error values and
// everything else pass through unchanged.
func (db *DB) classify(err error) error {
	if err == nil {
		return nil
	}
	var se *stockroom.Error
	if errors.As(err, &se) {
		return err
	}
	if errors.Is(err, txn.ErrOutcomeUnknown) {
		return fmt.Errorf("%w (%w)", errOutcomeUnknown, err)
	}
	if isUnavailable(err) {
		return fmt.Errorf("%w (%w)", errUnavailable, err)
	}
	return err
}

func isUnavailable(err error) bool {
	var (
		netErr     net.Error
		connectErr *pgconn.ConnectError
		pgErr      *pgconn.PgError
	)
	code, lite := sqliteconn.Code(err)
	switch {
	case errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, driver.ErrBadConn),
		errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNRESET),
		errors.As(err, &connectErr),
		errors.As(err, &netErr):
		return true
	case errors.As(err, &pgErr):
		// Class 08: connection exception; 57P01-57P03: shutting down or starting.
		return pgErr.Code[:2] == "08" || pgErr.Code == "57P01" || pgErr.Code == "57P02" || pgErr.Code == "57P03"
	case lite:
		switch code & 0xff {
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_CANTOPEN:
			return true
		}
	}
	return false
}

// isUniqueViolation reports whether err is a primary-key or unique constraint
// violation in either engine.
func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "23505"
	}
	c, _ := sqliteconn.Code(err)
	return c == sqlite3.SQLITE_CONSTRAINT_UNIQUE || c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
}

// forUpdate is the row-locking clause for a SELECT in a write transaction.
// SQLite has none and needs none: its write transactions begin IMMEDIATE and
// exclude each other.
func (t *Tx) forUpdate() string {
	if !t.Postgres() {
		return ""
	}
	return " FOR UPDATE"
}

// anyOf is the condition that column, an indexed one, holds one of the
// values query selects, written so that each engine reads it through the
// column's index also beside an OR: PostgreSQL plans col IN (subquery)
// there as a filter on every row, but col = ANY (ARRAY(subquery)) as an
// index scan it ORs with the other side's (a BitmapOr); SQLite, which has
// no ARRAY, reads IN (subquery) through the index (a MULTI-INDEX OR).
func (db *DB) anyOf(column, query string) string {
	if db.engine == Postgres {
		return column + " = ANY (ARRAY(" + query + "))"
	}
	return column + " IN (" + query + ")"
}

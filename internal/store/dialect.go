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
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/stockroom/stockroom"
)

// The engine seam: everything that must be told apart by engine is here, and
// recognised by error codes and types, never by error text.

// errUnavailable is what a caller sees when the database cannot be reached.
var errUnavailable = &stockroom.Error{Code: stockroom.EUNAVAILABLE, Message: stockroom.MsgDatabaseOffline}

// classify turns driver errors that mean "the database is not reachable right
// now" into an EUNAVAILABLE error that still wraps the cause for the log.
// *stockroom.Error values and everything else pass through unchanged.
func (db *DB) classify(err error) error {
	if err == nil {
		return nil
	}
	var se *stockroom.Error
	if errors.As(err, &se) {
		return err
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
	code, lite := liteCode(err)
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

// liteCode is the extended result code of a SQLite error, from the driver
// (sqlite.Error) or from the writer's connection (liteError), and whether
// err is one.
func liteCode(err error) (int, bool) {
	var (
		driverErr *sqlite.Error
		writerErr *liteError
	)
	switch {
	case errors.As(err, &driverErr):
		return driverErr.Code(), true
	case errors.As(err, &writerErr):
		return writerErr.Code(), true
	}
	return 0, false
}

// isUniqueViolation reports whether err is a primary-key or unique constraint
// violation in either engine.
func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "23505"
	}
	c, _ := liteCode(err)
	return c == sqlite3.SQLITE_CONSTRAINT_UNIQUE || c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
}

// isBusy reports whether err is SQLite's "database is locked".
func isBusy(err error) bool {
	c, lite := liteCode(err)
	return lite && c&0xff == sqlite3.SQLITE_BUSY
}

// forUpdate is the row-locking clause for a SELECT in a write transaction.
// SQLite has none and needs none: its write transactions begin IMMEDIATE and
// exclude each other.
func (t *Tx) forUpdate() string {
	if t.pg == nil {
		return ""
	}
	return " FOR UPDATE"
}

// isRetryable reports whether PostgreSQL aborted a transaction as a deadlock
// victim (40P01) or a serialization failure (40001).
func isRetryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40P01" || pgErr.Code == "40001")
}

// isLockTimeout reports whether PostgreSQL gave up waiting for a lock
// (55P03, lock_timeout).
func isLockTimeout(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "55P03"
}

// batchLockTimeout bounds a batched member's wait for a row lock
// (PostgreSQL). A member alone takes its locks in the one order of the
// write path (ARCHITECTURE.md), but a batch takes its members' one after
// the other, so two batches on different lanes, or a batch and a lone
// transaction, can wait for each other. A member that waits this long is
// rolled back to its savepoint and run again alone after its batch has
// committed, which releases whatever the other was waiting for: a batch
// never waits long, so no cycle of waits lasts, and nobody waits for
// PostgreSQL's deadlock detector (a second).
const batchLockTimeout = "20ms"

// batchSettings are the statements that open a batch's transaction:
// PostgreSQL's lock timeout; SQLite, one writer, waits for nobody.
func (t *Tx) batchSettings() []stmt {
	if t.pg == nil {
		return nil
	}
	return []stmt{{sql: "SET LOCAL lock_timeout = '" + batchLockTimeout + "'"}}
}

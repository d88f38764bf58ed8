package sqliteconn

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unsafe"

	"modernc.org/libc"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// liteConn is SQLite's one writing connection (the Writer's), driven
// through SQLite's own C API as modernc.org/sqlite transpiles it to Go
// (modernc.org/sqlite/lib), not through database/sql and the driver's
// wrapper of that API. The writer is the bound of every write on SQLite,
// and a third of its time outside SQLite's virtual machine went to the
// layers between: database/sql's locks, argument conversion and Rows, and
// the driver's binding, which looks up every parameter's name by a linear
// scan of the statement's list of names (quadratic in a statement's
// parameters) to support named arguments the store never uses. Here a statement is prepared once
// (SQLITE_PREPARE_PERSISTENT), its parameters are numbered (?NNN, bound by
// number), and a run binds, steps and resets it. Everything else of the
// store (reads, migrations, checkpoints) stays on database/sql with the
// driver (Open).
//
// A liteConn is used by one goroutine at a time (the holder of SQLite's one
// write lane), so it is opened without SQLite's connection mutex.
type liteConn struct {
	tls *libc.TLS
	db  uintptr
	// buf is C memory for a text or blob argument while SQLite copies it.
	buf    uintptr
	bufCap int
}

// liteError is an error SQLite returned on a liteConn: its extended result
// code and message, as the driver's sqlite.Error carries them (Code reads
// the code of either).
type liteError struct {
	code int
	msg  string
}

func (e *liteError) Error() string { return fmt.Sprintf("%s (%d)", e.msg, e.code) }

// Code is the extended result code.
func (e *liteError) Code() int { return e.code }

// Code is the extended result code of a SQLite error, from the driver
// (sqlite.Error, on the pools) or from the writer's connection, and
// whether err is one: SQLite's errors are told apart by code, never by
// their text.
func Code(err error) (int, bool) {
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

// IsBusy reports whether err is SQLite's "database is locked": another
// connection, of this process or another, holds the lock it waited for.
func IsBusy(err error) bool {
	c, lite := Code(err)
	return lite && c&0xff == sqlite3.SQLITE_BUSY
}

// openLiteConn opens the database file at path through the VFS named vfs
// ("" for SQLite's default) and runs the pragmas, each a statement.
func openLiteConn(path, vfs string, pragmas []string) (*liteConn, error) {
	c := &liteConn{tls: libc.NewTLS()}
	cpath, err := libc.CString(path)
	if err != nil {
		c.tls.Close()
		return nil, err
	}
	defer libc.Xfree(c.tls, cpath)
	var cvfs uintptr
	if vfs != "" {
		if cvfs, err = libc.CString(vfs); err != nil {
			c.tls.Close()
			return nil, err
		}
		defer libc.Xfree(c.tls, cvfs)
	}
	out := libc.Xcalloc(c.tls, 1, 8)
	defer libc.Xfree(c.tls, out)
	rc := sqlite3.Xsqlite3_open_v2(c.tls, cpath, out, sqlite3.SQLITE_OPEN_READWRITE|sqlite3.SQLITE_OPEN_CREATE|sqlite3.SQLITE_OPEN_NOMUTEX, cvfs)
	c.db = *(*uintptr)(cptr(out))
	if rc != sqlite3.SQLITE_OK {
		err := c.errorOf(rc)
		c.close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	sqlite3.Xsqlite3_extended_result_codes(c.tls, c.db, 1)
	for _, p := range pragmas {
		if err := c.execOnce(p); err != nil {
			c.close()
			return nil, fmt.Errorf("sqlite: %s: %w", p, err)
		}
	}
	return c, nil
}

// inTransaction reports whether a transaction is open on c.
func (c *liteConn) inTransaction() bool { return sqlite3.Xsqlite3_get_autocommit(c.tls, c.db) == 0 }

// close closes the connection, once the caller has finalized its
// statements.
func (c *liteConn) close() {
	if c.db != 0 {
		sqlite3.Xsqlite3_close_v2(c.tls, c.db)
		c.db = 0
	}
	if c.buf != 0 {
		libc.Xfree(c.tls, c.buf)
		c.buf = 0
	}
	c.tls.Close()
}

// errorOf is the error for result code rc of the last call on c.
func (c *liteConn) errorOf(rc int32) error {
	code := int(rc)
	msg := sqlite3.Xsqlite3_errstr(c.tls, rc)
	if c.db != 0 {
		code = int(sqlite3.Xsqlite3_extended_errcode(c.tls, c.db))
		msg = sqlite3.Xsqlite3_errmsg(c.tls, c.db)
	}
	return &liteError{code: code, msg: libc.GoString(msg)}
}

// prepare compiles query, one statement, to be run again and again.
func (c *liteConn) prepare(query string) (uintptr, error) {
	cq, err := libc.CString(query)
	if err != nil {
		return 0, err
	}
	defer libc.Xfree(c.tls, cq)
	out := libc.Xcalloc(c.tls, 2, 8) // the statement, then where its text ends
	defer libc.Xfree(c.tls, out)
	if rc := sqlite3.Xsqlite3_prepare_v3(c.tls, c.db, cq, -1, sqlite3.SQLITE_PREPARE_PERSISTENT, out, out+8); rc != sqlite3.SQLITE_OK {
		return 0, c.errorOf(rc)
	}
	stmt, tail := *(*uintptr)(cptr(out)), *(*uintptr)(cptr(out + 8))
	// The caller's error names the statement.
	if stmt == 0 {
		return 0, errors.New("sqlite: no statement")
	}
	if rest := strings.TrimSpace(query[tail-cq:]); rest != "" && rest != ";" {
		c.finalize(stmt)
		return 0, errors.New("sqlite: more than one statement")
	}
	return stmt, nil
}

// finalize releases a prepared statement.
func (c *liteConn) finalize(stmt uintptr) { sqlite3.Xsqlite3_finalize(c.tls, stmt) }

// execOnce prepares, runs and finalizes query, ignoring its rows.
func (c *liteConn) execOnce(query string) error {
	stmt, err := c.prepare(query)
	if err != nil {
		return err
	}
	defer c.finalize(stmt)
	return c.run(stmt, nil, nil)
}

// run binds args to stmt's parameters ?1, ?2, ... in order, runs it, hands
// its rows to read when read is not nil (else steps through them), and
// resets it for its next run.
func (c *liteConn) run(stmt uintptr, args []any, read func(Rows) error) error {
	defer sqlite3.Xsqlite3_reset(c.tls, stmt)
	if err := c.bind(stmt, args); err != nil {
		return err
	}
	r := &liteRows{c: c, stmt: stmt}
	if read != nil {
		if err := read(r); err != nil {
			return err
		}
	}
	for r.Next() {
	}
	return r.Err()
}

// bind binds args to stmt's parameters, which must be as many.
func (c *liteConn) bind(stmt uintptr, args []any) error {
	if n := int(sqlite3.Xsqlite3_bind_parameter_count(c.tls, stmt)); n != len(args) {
		return fmt.Errorf("sqlite: statement has %d parameters, %d arguments given", n, len(args))
	}
	for i, a := range args {
		if err := c.bindOne(stmt, int32(i+1), a); err != nil {
			return fmt.Errorf("argument $%d: %w", i+1, err)
		}
	}
	return nil
}

// transient is SQLITE_TRANSIENT: SQLite copies a text or blob as it binds
// it.
const transient = ^uintptr(0)

func (c *liteConn) bindOne(stmt uintptr, i int32, a any) error {
	var rc int32
	switch v := a.(type) {
	case nil:
		rc = sqlite3.Xsqlite3_bind_null(c.tls, stmt, i)
	case int64:
		rc = sqlite3.Xsqlite3_bind_int64(c.tls, stmt, i, v)
	case int:
		rc = sqlite3.Xsqlite3_bind_int64(c.tls, stmt, i, int64(v))
	case bool:
		var b int64
		if v {
			b = 1
		}
		rc = sqlite3.Xsqlite3_bind_int64(c.tls, stmt, i, b)
	case float64:
		rc = sqlite3.Xsqlite3_bind_double(c.tls, stmt, i, v)
	case string:
		rc = sqlite3.Xsqlite3_bind_text(c.tls, stmt, i, c.cbytes(v), int32(len(v)), transient)
	case []byte:
		if v == nil {
			rc = sqlite3.Xsqlite3_bind_null(c.tls, stmt, i)
		} else {
			rc = sqlite3.Xsqlite3_bind_blob(c.tls, stmt, i, c.cbytes(string(v)), int32(len(v)), transient)
		}
	case time.Time:
		return fmt.Errorf("sqlite: a time is stored as microseconds (micros), not bound as is")
	default:
		// Named types, pointers and driver.Valuers, as database/sql
		// converts them.
		dv, err := driver.DefaultParameterConverter.ConvertValue(a)
		if err != nil {
			return err
		}
		if reflect.TypeOf(dv) == reflect.TypeOf(a) {
			return fmt.Errorf("sqlite: cannot bind a %T", a)
		}
		return c.bindOne(stmt, i, dv)
	}
	if rc != sqlite3.SQLITE_OK {
		return c.errorOf(rc)
	}
	return nil
}

// cbytes copies s into C memory that stays valid until the next call, for
// SQLite to copy as it binds (transient).
func (c *liteConn) cbytes(s string) uintptr {
	if c.buf == 0 || len(s) > c.bufCap { // never a null pointer: SQLite binds that as NULL
		if c.buf != 0 {
			libc.Xfree(c.tls, c.buf)
		}
		c.bufCap = max(len(s), 256)
		c.buf = libc.Xmalloc(c.tls, uint64(c.bufCap))
	}
	copy(unsafe.Slice((*byte)(cptr(c.buf)), len(s)), s)
	return c.buf
}

// waitAtMost has SQLite wait for a lock held by another connection (up
// to its busy timeout, pragmas) no later than ctx's deadline: for the
// one statement of the writer that may wait, BEGIN IMMEDIATE, which takes
// the write lock another process may hold. (SQLite's busy handler does not
// heed sqlite3_interrupt.)
func (c *liteConn) waitAtMost(ctx context.Context) {
	wait := busyTimeout
	if deadline, ok := ctx.Deadline(); ok {
		wait = min(wait, max(time.Until(deadline), 0))
	}
	sqlite3.Xsqlite3_busy_timeout(c.tls, c.db, int32(wait.Milliseconds()))
}

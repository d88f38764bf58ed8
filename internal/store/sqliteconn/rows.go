package sqliteconn

import (
	"database/sql"
	"database/sql/driver"
	"fmt"
	"reflect"
	"strconv"
	"unsafe"

	sqlite3 "modernc.org/sqlite/lib"
)

// Rows is what a statement's reader is handed: the rows of the statement
// as it steps through them. It is the same interface as the write
// engine's (its alias of this type literal), which pgx's rows satisfy too.
type Rows = interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// liteRows reads the rows of a statement as it steps through them.
type liteRows struct {
	c    *liteConn
	stmt uintptr
	done bool
	err  error
}

// Next steps to the next row.
func (r *liteRows) Next() bool {
	if r.done {
		return false
	}
	switch rc := sqlite3.Xsqlite3_step(r.c.tls, r.stmt); rc {
	case sqlite3.SQLITE_ROW:
		return true
	case sqlite3.SQLITE_DONE:
	default:
		r.err = r.c.errorOf(rc)
	}
	r.done = true
	return false
}

// Err is the error that ended the rows, if any.
func (r *liteRows) Err() error { return r.err }

// Scan reads the current row's columns into dest, converting as
// database/sql does for the types the store scans into.
func (r *liteRows) Scan(dest ...any) error {
	if n := int(sqlite3.Xsqlite3_column_count(r.c.tls, r.stmt)); n != len(dest) {
		return fmt.Errorf("sqlite: %d columns, %d destinations", n, len(dest))
	}
	for i, d := range dest {
		if err := assign(d, r.column(int32(i))); err != nil {
			return fmt.Errorf("column %d: %w", i, err)
		}
	}
	return nil
}

// column is column i of the current row as a driver.Value.
func (r *liteRows) column(i int32) driver.Value {
	tls, stmt := r.c.tls, r.stmt
	switch sqlite3.Xsqlite3_column_type(tls, stmt, i) {
	case sqlite3.SQLITE_INTEGER:
		return sqlite3.Xsqlite3_column_int64(tls, stmt, i)
	case sqlite3.SQLITE_FLOAT:
		return sqlite3.Xsqlite3_column_double(tls, stmt, i)
	case sqlite3.SQLITE_TEXT:
		p := sqlite3.Xsqlite3_column_text(tls, stmt, i)
		return string(unsafe.Slice((*byte)(cptr(p)), sqlite3.Xsqlite3_column_bytes(tls, stmt, i)))
	case sqlite3.SQLITE_BLOB:
		p, n := sqlite3.Xsqlite3_column_blob(tls, stmt, i), sqlite3.Xsqlite3_column_bytes(tls, stmt, i)
		if p == 0 || n == 0 {
			return []byte(nil) // as the driver reads an empty blob
		}
		return append([]byte{}, unsafe.Slice((*byte)(cptr(p)), n)...)
	}
	return nil
}

// assign stores src, a column's value, in dest, as database/sql's Scan
// would for the destinations the store uses: a sql.Scanner, a pointer to an
// integer, bool, string, []byte, float64 or any, or to a named type of one
// of those kinds (text only into a string kind; a number into a string only
// when it is a plain *string).
func assign(dest any, src driver.Value) error {
	switch d := dest.(type) {
	case sql.Scanner:
		return d.Scan(src)
	case *any:
		*d = src
		return nil
	case *[]byte:
		switch s := src.(type) {
		case nil:
			*d = nil
			return nil
		case []byte:
			*d = s
			return nil
		case string:
			*d = []byte(s)
			return nil
		}
	case *string:
		switch s := src.(type) {
		case int64:
			*d = strconv.FormatInt(s, 10)
			return nil
		case float64:
			*d = strconv.FormatFloat(s, 'g', -1, 64)
			return nil
		}
	}
	dv := reflect.ValueOf(dest)
	if dv.Kind() != reflect.Pointer || dv.IsNil() {
		return fmt.Errorf("sqlite: cannot scan into %T", dest)
	}
	e := dv.Elem()
	if src == nil {
		return fmt.Errorf("sqlite: NULL into %T", dest)
	}
	switch e.Kind() {
	case reflect.String:
		switch s := src.(type) {
		case string:
			e.SetString(s)
		case []byte:
			e.SetString(string(s))
		default:
			return fmt.Errorf("sqlite: %T into %T", src, dest)
		}
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := asInt64(src)
		if err != nil {
			return err
		}
		if e.OverflowInt(n) {
			return fmt.Errorf("sqlite: %d overflows %T", n, dest)
		}
		e.SetInt(n)
		return nil
	case reflect.Bool:
		b, err := driver.Bool.ConvertValue(src)
		if err != nil {
			return err
		}
		e.SetBool(b.(bool))
		return nil
	case reflect.Float64:
		switch s := src.(type) {
		case float64:
			e.SetFloat(s)
		case int64:
			e.SetFloat(float64(s))
		default:
			return fmt.Errorf("sqlite: %T into %T", src, dest)
		}
		return nil
	}
	return fmt.Errorf("sqlite: cannot scan into %T", dest)
}

func asInt64(src driver.Value) (int64, error) {
	switch s := src.(type) {
	case int64:
		return s, nil
	case string:
		return strconv.ParseInt(s, 10, 64)
	case []byte:
		return strconv.ParseInt(string(s), 10, 64)
	}
	return 0, fmt.Errorf("sqlite: %T is not an integer", src)
}

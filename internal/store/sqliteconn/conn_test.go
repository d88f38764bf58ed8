package sqliteconn

import (
	"context"
	"database/sql"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	sqlite3 "modernc.org/sqlite/lib"
)

// openTestWriter opens a fresh SQLite database and its writer.
func openTestWriter(t *testing.T) (*Pools, *Writer) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lite.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	w, err := OpenWriter(path, db.Checkpoints)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	return db, w
}

// TestLiteWriter holds the writer's own connection (conn.go) to what
// the store relied on when it wrote through database/sql and the driver.
func TestLiteWriter(t *testing.T) {
	ctx := context.Background()

	t.Run("HasTheSettingsOfEveryConnection", func(t *testing.T) {
		_, w := openTestWriter(t)
		// synchronous=FULL is what makes a 2xx durable; the rest as
		// pragmas sets them.
		for pragma, want := range map[string]int64{
			"synchronous": 2, "foreign_keys": 1, "temp_store": 2,
			"busy_timeout": 10000, "wal_autocheckpoint": backstopPages,
		} {
			var got int64
			if err := w.Run("PRAGMA "+pragma, nil, func(r Rows) error { r.Next(); return r.Scan(&got) }); err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("PRAGMA %s = %d, want %d", pragma, got, want)
			}
		}
	})

	t.Run("ScansAsDatabaseSQLDoes", func(t *testing.T) {
		db, w := openTestWriter(t)
		if _, err := db.Write.ExecContext(ctx, `CREATE TABLE v (i INTEGER, t TEXT, b BLOB, f REAL, n INTEGER)`); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Write.ExecContext(ctx, `INSERT INTO v VALUES (1, '42', x'00ff', 1.5, NULL), (0, '7', x'', -2.0, NULL)`); err != nil {
			t.Fatal(err)
		}
		type row struct {
			I      int64
			IBool  bool
			IUnits stockroom.Units
			IType  stockroom.TxType
			T      string // from an integer: formatted
			TInt   int
			B      []byte
			F      float64
			N      sql.NullInt64
			NAny   any
		}
		const query = `SELECT i, i, i, t, i, t, b, f, n, n FROM v ORDER BY i DESC`
		scan := func(next func() bool, scan func(...any) error) []row {
			var out []row
			for next() {
				var r row
				if err := scan(&r.I, &r.IBool, &r.IUnits, &r.IType, &r.T, &r.TInt, &r.B, &r.F, &r.N, &r.NAny); err != nil {
					t.Fatal(err)
				}
				out = append(out, r)
			}
			return out
		}
		rs, err := db.Read.QueryContext(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		want := scan(rs.Next, rs.Scan)
		rs.Close()
		var got []row
		if err := w.Run(query, nil, func(r Rows) error { got = scan(r.Next, r.Scan); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(want) != 2 || !reflect.DeepEqual(got, want) {
			t.Errorf("writer scanned\n%+v\ndatabase/sql\n%+v", got, want)
		}
	})

	t.Run("BindsAsDatabaseSQLDoes", func(t *testing.T) {
		db, w := openTestWriter(t)
		if _, err := db.Write.ExecContext(ctx, `CREATE TABLE v (i INTEGER, t TEXT NOT NULL, b BLOB, n INTEGER)`); err != nil {
			t.Fatal(err)
		}
		// An empty string is text, not NULL; a Valuer binds its value; a
		// named type its kind; the same parameter may appear twice.
		args := []any{stockroom.Whole(3), "", []byte{1, 2}, nil, stockroom.TxType("issue")}
		if err := w.Run(`INSERT INTO v VALUES ($1, $2, $3, $4), (length($5), $5, $3, $4)`, args, nil); err != nil {
			t.Fatal(err)
		}
		var got []string
		if err := w.Run(`SELECT quote(i) || quote(t) || quote(b) || quote(n) FROM v`, nil, func(r Rows) error {
			for r.Next() {
				var s string
				if err := r.Scan(&s); err != nil {
					return err
				}
				got = append(got, s)
			}
			return r.Err()
		}); err != nil {
			t.Fatal(err)
		}
		want := []string{"3000000''X'0102'NULL", "5'issue'X'0102'NULL"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("stored %q, want %q", got, want)
		}
		if err := w.Run(`INSERT INTO v VALUES ($1, $2, $3, $4)`, []any{1, "x"}, nil); err == nil {
			t.Error("a statement given fewer arguments than parameters ran")
		}
	})

	t.Run("RefusesMoreThanOneStatement", func(t *testing.T) {
		_, w := openTestWriter(t)
		if err := w.Run(`SELECT 1; SELECT 2`, nil, nil); err == nil {
			t.Error("a text of two statements ran")
		}
	})

	t.Run("ErrorsCarrySQLiteCodes", func(t *testing.T) {
		db, w := openTestWriter(t)
		if _, err := db.Write.ExecContext(ctx, `CREATE TABLE u (k TEXT PRIMARY KEY)`); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			err := w.Run(`INSERT INTO u VALUES ($1)`, []any{"a"}, nil)
			if c, _ := Code(err); err != nil && c != sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY {
				t.Fatalf("second insert: %v, want a unique violation", err)
			}
		}
	})

	t.Run("BeginGivesUpAtTheDeadline", func(t *testing.T) {
		db, w := openTestWriter(t)
		// Another connection holds the write lock, as another process
		// might; the writer would wait for it up to the busy timeout
		// (10 s), but not past its transaction's deadline.
		conn, err := db.Write.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
			t.Fatal(err)
		}
		defer conn.ExecContext(ctx, `ROLLBACK`)
		dctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		err = w.Begin(dctx)
		if !IsBusy(err) || time.Since(start) > 5*time.Second {
			t.Errorf("begin: %v after %v, want busy at the deadline", err, time.Since(start))
		}
	})
}

package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The databases OpenExisting refuses. Administration commands use them to
// tell an operator who mistyped --db to start the server or migrate first,
// instead of creating an empty database under the wrong name.
var (
	ErrNoDatabase = errors.New("database does not exist")
	ErrNoSchema   = errors.New("database has no Stockroom schema")
)

// OpenExisting is Open for a database that must already be Stockroom's: a
// SQLite file that does not exist is ErrNoDatabase (and is not created), and a
// database without the schema's version table, or with no migration applied,
// is ErrNoSchema. It neither creates nor migrates anything; whether the schema
// is current is for the caller to judge with SchemaVersion.
func OpenExisting(ctx context.Context, dsn string) (*DB, error) {
	if path, ok := strings.CutPrefix(dsn, "sqlite:"); ok && path != "" && !strings.ContainsAny(path, "?#") && path != ":memory:" {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w", dsn, ErrNoDatabase)
		}
	}
	db, err := Open(ctx, dsn)
	if err != nil {
		return nil, err
	}
	have, _, err := db.SchemaVersion(ctx)
	if err == nil && have == 0 {
		err = fmt.Errorf("%s: %w", redact(dsn), ErrNoSchema)
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// SchemaVersion returns the schema version the database has (0 when it has
// none) and the one this binary's migrations lead to. Unlike the migration
// library's own query it creates no version table when there is none.
func (db *DB) SchemaVersion(ctx context.Context) (have, want int64, err error) {
	p, err := db.provider()
	if err != nil {
		return 0, 0, fmt.Errorf("migrations: %w", err)
	}
	for _, s := range p.ListSources() {
		want = max(want, s.Version)
	}
	exists := `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'goose_db_version'`
	if db.engine == Postgres {
		exists = `SELECT count(*) FROM (SELECT to_regclass('goose_db_version') AS t) AS r WHERE t IS NOT NULL`
	}
	var n int
	if err := db.read.QueryRowContext(ctx, exists).Scan(&n); err != nil {
		return 0, want, fmt.Errorf("read schema version: %w", db.classify(err))
	}
	if n == 0 {
		return 0, want, nil
	}
	var v sql.NullInt64
	if err := db.read.QueryRowContext(ctx, `SELECT max(version_id) FROM goose_db_version`).Scan(&v); err != nil {
		return 0, want, fmt.Errorf("read schema version: %w", db.classify(err))
	}
	return v.Int64, want, nil
}

// BackupSQLite writes a consistent copy of a SQLite database to the new file
// path while other connections, in this process or others, go on writing: the
// copy is one read transaction's snapshot (VACUUM INTO), made on a read
// connection so writers are not held up behind it. It refuses a path that
// exists, and makes the copy durable before it returns.
func (db *DB) BackupSQLite(ctx context.Context, path string) error {
	if db.engine != SQLite {
		return fmt.Errorf("backup: not a SQLite database")
	}
	// Creating the file first, exclusively, refuses an existing one without
	// a race and makes it ours to remove if the copy fails (VACUUM INTO
	// accepts an empty file).
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	f.Close()
	if err := db.vacuumInto(ctx, path); err != nil {
		_ = os.Remove(path)
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	return syncFile(path)
}

// vacuumInto runs VACUUM INTO on a connection of the read pool.
func (db *DB) vacuumInto(ctx context.Context, path string) error {
	conn, err := db.read.Conn(ctx)
	if err != nil {
		return db.classify(err)
	}
	defer conn.Close()
	// The read pool is query_only; VACUUM INTO writes only its target, but
	// SQLite counts it as a write, so the guard is lifted on this one
	// connection and restored before it goes back to the pool.
	if _, err := conn.ExecContext(ctx, "PRAGMA query_only = 0"); err != nil {
		return db.classify(err)
	}
	_, err = conn.ExecContext(ctx, "VACUUM INTO ?", path)
	if _, rerr := conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA query_only = 1"); rerr != nil {
		_ = conn.Raw(func(any) error { return driver.ErrBadConn }) // never reuse it unguarded
		err = errors.Join(err, rerr)
	}
	if err != nil {
		return db.classify(err)
	}
	return nil
}

// syncFile flushes a new file and its directory entry to disk.
func syncFile(path string) error {
	for _, p := range []string{path, filepath.Dir(path)} {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		err = f.Sync()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("sync %s: %w", p, err)
		}
	}
	return nil
}

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
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
		err = ErrNoSchema
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
// path while other connections, in this process or others, go on writing
// (sqliteconn.Pools.Backup). It refuses a path that exists, and makes the
// copy durable before it returns.
func (db *DB) BackupSQLite(ctx context.Context, path string) error {
	if db.engine != SQLite {
		return fmt.Errorf("backup: not a SQLite database")
	}
	return db.classify(db.sqlite.Backup(ctx, path))
}

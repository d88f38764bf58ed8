// Package store keeps Stockroom's data in SQLite or PostgreSQL. Both engines
// run the same SQL text (positional $N parameters, ON CONFLICT, RETURNING);
// what differs between them, the schema files and the recognition of driver
// errors, sits behind the small seam in dialect.go. Business rules live in the
// service package, above the engines, so they cannot drift apart.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	_ "modernc.org/sqlite"             // registers the pure-Go "sqlite" driver
)

// Engine names.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// DB is an open Stockroom database. Its methods are safe for concurrent use;
// each runs in one transaction of its own.
type DB struct {
	engine string
	// outcomeWait bounds how long a lost COMMIT answer is asked about
	// (commitlost.go); 0 means commitOutcomeWait.
	outcomeWait time.Duration
	// write serves transactions that change data on PostgreSQL. On SQLite
	// the write path runs on the writer (lite) and write serves what runs
	// outside it: migrations, pings and checkpoints; its transactions begin
	// IMMEDIATE, so they queue instead of failing with SQLITE_BUSY on a
	// lock upgrade.
	write *sql.DB
	// read serves read-only work; on PostgreSQL it is the same pool as write.
	read *sql.DB
	// directOffset: see SetDirectOffset.
	directOffset int64
	// observeSends, when set (by tests), is told how many pipelines each
	// committed PostgreSQL transaction sent.
	observeSends func(int)
	// observeCompiles, when set (by tests), is told each time SQLite's
	// writer compiles a kept statement again (litewriter.go).
	observeCompiles func(query string)
	// batch runs every write transaction (batch.go).
	batch *batcher
	// lite is SQLite's writer, held by the holder of its one lane, and
	// litePath the file it opens.
	lite     *liteWriter
	litePath string
	// checkpoints copies SQLite's log into the file beside the writer.
	checkpoints *checkpointer
}

// Open connects to the database named by dsn: "sqlite:PATH" or a
// "postgres://" / "postgresql://" URL. It does not migrate; call Migrate.
func Open(ctx context.Context, dsn string) (*DB, error) {
	var db *DB
	switch {
	case strings.HasPrefix(dsn, "sqlite:"):
		path := strings.TrimPrefix(dsn, "sqlite:")
		if path == "" || strings.ContainsAny(path, "?#") || path == ":memory:" {
			return nil, fmt.Errorf("sqlite database %q: want sqlite:PATH with a file path without '?' or '#'", path)
		}
		w, err := openSQLite(path, "immediate", false)
		if err != nil {
			return nil, err
		}
		// The writer is a connection of its own (liteWriter); this pool
		// serves what runs outside the write path: migrations, pings and
		// checkpoints (checkpoint.go).
		w.SetMaxOpenConns(2)
		if err := setWAL(ctx, w); err != nil {
			w.Close()
			return nil, fmt.Errorf("sqlite %s: %w", path, err)
		}
		r, err := openSQLite(path, "deferred", true)
		if err != nil {
			w.Close()
			return nil, err
		}
		r.SetMaxOpenConns(max(4, runtime.GOMAXPROCS(0)))
		db = &DB{engine: SQLite, write: w, read: r, litePath: path, checkpoints: startCheckpointer(w)}
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		if _, err := url.Parse(dsn); err != nil {
			return nil, fmt.Errorf("postgres url: %w", err)
		}
		p, err := sql.Open("pgx", dsn)
		if err != nil {
			return nil, fmt.Errorf("postgres: %w", err)
		}
		p.SetMaxOpenConns(32)
		p.SetMaxIdleConns(32)
		p.SetConnMaxIdleTime(5 * time.Minute)
		db = &DB{engine: Postgres, write: p, read: p}
	default:
		return nil, fmt.Errorf("database %q: want sqlite:PATH or a postgres:// URL", redact(dsn))
	}
	db.directOffset = DefaultDirectOffset
	db.batch = newBatcher(db, writeLanes(db.engine))
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.Ping(pingCtx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to %s database: %w", db.engine, err)
	}
	return db, nil
}

func openSQLite(path, txlock string, queryOnly bool) (*sql.DB, error) {
	vfs, err := liteVFS()
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	for _, p := range litePragmas(queryOnly) {
		q.Add("_pragma", p)
	}
	if vfs != "" {
		q.Set("vfs", vfs)
	}
	q.Set("_txlock", txlock)
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	return db, nil
}

// litePragmas are the settings of every connection to a SQLite database:
// the pools' (openSQLite) and the writer's (liteWriter).
func litePragmas(queryOnly bool) []string {
	p := []string{
		fmt.Sprintf("busy_timeout(%d)", liteBusyTimeout.Milliseconds()),
		// A 2xx means the change is on disk (contract §14). In WAL mode
		// NORMAL syncs only at checkpoints, so a commit acknowledged since
		// the last one can vanish on power loss; FULL syncs the WAL at
		// every commit. The read-only pool gets FULL too, for one setting
		// everywhere: it commits nothing, and the checkpoint it may run
		// when it closes last syncs the same under NORMAL and FULL, so it
		// costs the readers nothing.
		"synchronous(" + sqliteSync + ")",
		"foreign_keys(1)",
		// A savepoint (each member of a batch runs in one, batch.go) keeps
		// the pages it changes in a subjournal, a temporary file unless
		// temporary storage is in memory: then it costs no writes. It
		// holds only what a rollback to the savepoint would need, and
		// nothing of it is durable.
		"temp_store(MEMORY)",
	}
	if queryOnly {
		return append(p, "query_only(1)")
	}
	// The writer's own checkpoint is a backstop (checkpoint.go).
	return append(p, fmt.Sprintf("wal_autocheckpoint(%d)", liteBackstopPages))
}

// liteBusyTimeout is how long a SQLite connection waits for a lock another
// holds (another process's write lock, at the writer's BEGIN).
const liteBusyTimeout = 10 * time.Second

// liteVFS is the VFS SQLite databases are opened through: walVFS, which
// writes a commit's log frames in one write (walvfs.go) and relies on
// FULL's sync at every commit; SQLite's default under any other setting.
func liteVFS() (string, error) {
	if sqliteSync != "FULL" {
		return "", nil
	}
	if err := registerWALVFS(); err != nil {
		return "", err
	}
	return walVFSName, nil
}

// setWAL switches the file to write-ahead logging, which lets readers work
// while a writer commits. The mode is stored in the file, so this matters once
// per database; but processes opening a new file at the same moment can get
// SQLITE_BUSY from the switch without SQLite's busy handler waiting, so it is
// retried here.
func setWAL(ctx context.Context, db *sql.DB) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for {
		var mode string
		err := db.QueryRowContext(ctx, "PRAGMA journal_mode=WAL").Scan(&mode)
		if err == nil {
			return nil
		}
		if !isBusy(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// sqliteSync is SQLite's synchronous setting: FULL, so that a 2xx means the
// change is on disk (contract §14). It is a variable only so that
// bench/sqlite.sh can build a NORMAL binary of the same code, to measure what
// FULL costs (-ldflags -X .../internal/store.sqliteSync=NORMAL); no flag or
// setting of a normal build changes it.
var sqliteSync = "FULL"

// redact hides a password in a URL-shaped DSN for error messages.
func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.User == nil {
		return dsn
	}
	return u.Redacted()
}

// Pools names the connection pools, for their figures in metrics: one on
// PostgreSQL, a writer and a reader on SQLite.
func (db *DB) Pools() map[string]*sql.DB {
	if db.read == db.write {
		return map[string]*sql.DB{db.engine: db.write}
	}
	return map[string]*sql.DB{db.engine + "-write": db.write, db.engine + "-read": db.read}
}

// Engine returns SQLite or Postgres.
func (db *DB) Engine() string { return db.engine }

// Close releases every connection.
func (db *DB) Close() error {
	if db.checkpoints != nil {
		db.checkpoints.stop()
	}
	db.dropLiteWriter()
	err := db.write.Close()
	if db.read != db.write {
		err = errors.Join(err, db.read.Close())
	}
	return err
}

// Ping checks that the database answers.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.write.PingContext(ctx); err != nil {
		return db.classify(err)
	}
	return nil
}

// scanner is what *sql.Row and *sql.Rows have in common.
type scanner interface{ Scan(dest ...any) error }

// querier is what *sql.DB and *sql.Tx have in common.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// inReadTx runs fn in a read-only transaction that sees one snapshot, so a
// count and the page that follows it agree.
func (db *DB) inReadTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	opts := &sql.TxOptions{ReadOnly: true}
	if db.engine == Postgres {
		opts.Isolation = sql.LevelRepeatableRead
	} else {
		opts = nil // the read pool is query_only; SQLite rejects isolation levels
	}
	return db.inTx(ctx, db.read, opts, fn)
}

func (db *DB) inTx(ctx context.Context, pool *sql.DB, opts *sql.TxOptions, fn func(tx *sql.Tx) error) error {
	tx, err := pool.BeginTx(ctx, opts)
	if err != nil {
		return db.classify(err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return db.classify(err)
	}
	return db.classify(tx.Commit())
}

// ObserveRoundTripsForTest has f told how many round trips (pipelines
// sent) each committed PostgreSQL write transaction took. The behaviour
// suite uses it to hold the write path to its count; nothing else should.
func (db *DB) ObserveRoundTripsForTest(f func(int)) { db.observeSends = f }

// ObserveRecompilesForTest has f told the text of every statement SQLite's
// writer had prepared and kept, each time SQLite compiles it again. Set it
// before the first write.
func (db *DB) ObserveRecompilesForTest(f func(query string)) { db.observeCompiles = f }

// ExecForTest runs a statement outside the store's methods. The behaviour
// suite uses it to prove that the ledger refuses changes; nothing else should.
func (db *DB) ExecForTest(ctx context.Context, query string) error {
	_, err := db.write.ExecContext(ctx, query)
	return err
}

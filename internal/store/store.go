// Package store keeps Stockroom's data in SQLite or PostgreSQL. Both engines
// run the same SQL text (positional $N parameters, ON CONFLICT, RETURNING);
// what differs between them, the schema files and the recognition of driver
// errors, sits behind the small seam in dialect.go. Business rules live in the
// service package, above the engines, so they cannot drift apart.
//
// This package is the domain's SQL, by noun. How a write runs (lanes, group
// commit, PostgreSQL's lockstep, savepoints, lost COMMITs) is the write
// engine's, package txn below it: a write is a method on *Tx that queues
// its statements, run by update or updateItem (write.go).
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver

	"github.com/stockroom/stockroom/internal/store/sqliteconn"
	"github.com/stockroom/stockroom/internal/store/txn"
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
	// write serves transactions that change data on PostgreSQL. On SQLite
	// the write path runs on the writer (lite) and write serves what runs
	// outside it: migrations, pings and checkpoints (sqliteconn.Pools).
	write *sql.DB
	// read serves read-only work; on PostgreSQL it is the same pool as write.
	read *sql.DB
	// directOffset: see SetDirectOffset.
	directOffset int64
	// txn runs every write transaction (update).
	txn *txn.Engine
	// sqlite is SQLite's pools (write and read) and checkpointer; nil on
	// PostgreSQL.
	sqlite *sqliteconn.Pools
	// feed wakes the readers waiting for events (eventwake.go).
	feed *eventFeed
	// replica is the read pool of reports and exports on a streaming
	// replica (OpenReplica); nil without one.
	replica *replica
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
		p, err := sqliteconn.Open(ctx, path)
		if err != nil {
			return nil, err
		}
		db = &DB{engine: SQLite, write: p.Write, read: p.Read, sqlite: p}
		db.txn = txn.New(txn.Config{SQLite: path, Checkpoints: p.Checkpoints})
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		p, err := openPostgresPool(dsn)
		if err != nil {
			return nil, err
		}
		db = &DB{engine: Postgres, write: p, read: p, txn: txn.New(txn.Config{Postgres: p})}
	default:
		// Not the DSN itself: it may hold a password.
		return nil, errors.New("the database must be sqlite:PATH or a postgres:// URL")
	}
	db.directOffset = DefaultDirectOffset
	db.feed = newEventFeed()
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.Ping(pingCtx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to %s database: %w", db.engine, err)
	}
	return db, nil
}

// openPostgresPool opens a pool of connections to the PostgreSQL database
// at dsn, a postgres:// URL.
func openPostgresPool(dsn string) (*sql.DB, error) {
	if _, err := url.Parse(dsn); err != nil {
		// Not a word of err: it quotes the URL, or a piece of it,
		// which may be a piece of the password (contract §14).
		return nil, errors.New("the postgres:// URL does not parse (a user name or password holding / ? # @ % or the like must have them %-escaped)")
	}
	p, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	p.SetMaxOpenConns(32)
	p.SetMaxIdleConns(32)
	p.SetConnMaxIdleTime(5 * time.Minute)
	return p, nil
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
	db.feed.stop()
	db.txn.Close()
	_ = db.replica.close()
	if db.sqlite != nil {
		return db.sqlite.Close()
	}
	return db.write.Close()
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
	return db.inSnapshot(ctx, db.read, fn)
}

// inSnapshot is inReadTx on pool rd (the read pool or the replica's).
func (db *DB) inSnapshot(ctx context.Context, rd *sql.DB, fn func(tx *sql.Tx) error) error {
	opts := &sql.TxOptions{ReadOnly: true}
	if db.engine == Postgres {
		opts.Isolation = sql.LevelRepeatableRead
	} else {
		opts = nil // the read pool is query_only; SQLite rejects isolation levels
	}
	return db.inTx(ctx, rd, opts, fn)
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

// WriteStats counts what the write path has done since the store opened.
type WriteStats = txn.Stats

// WriteStats returns the write path's counts (for metrics and tests).
func (db *DB) WriteStats() WriteStats { return db.txn.Stats() }

// ObserveRoundTripsForTest has f told how many round trips (pipelines
// sent) each committed PostgreSQL write transaction took. The behaviour
// suite uses it to hold the write path to its count; nothing else should.
func (db *DB) ObserveRoundTripsForTest(f func(int)) { db.txn.ObserveSendsForTest(f) }

// ObserveRecompilesForTest has f told the text of every statement SQLite's
// writer had prepared and kept, each time SQLite compiles it again. Set it
// before the first write.
func (db *DB) ObserveRecompilesForTest(f func(query string)) { db.txn.ObserveRecompilesForTest(f) }

// HoldWritesForTest takes every lane once it is free, so that the writes
// that follow queue; queued tells how many are waiting, and release runs
// them on one lane in the order queued, as one batch when they are no more
// than a batch holds. The behaviour suite uses it to make a batch of its
// choice; nothing else should.
func (db *DB) HoldWritesForTest() (queued func() int, release func()) { return db.txn.HoldForTest() }

// SetCommitOutcomeWaitForTest sets how long a lost COMMIT answer is asked
// about, so that the behaviour suite can lose the database too without
// waiting; nothing else should.
func (db *DB) SetCommitOutcomeWaitForTest(d time.Duration) { db.txn.SetOutcomeWaitForTest(d) }

// ExecForTest runs a statement outside the store's methods. The behaviour
// suite uses it to prove that the ledger refuses changes; nothing else should.
func (db *DB) ExecForTest(ctx context.Context, query string) error {
	_, err := db.write.ExecContext(ctx, query)
	return err
}

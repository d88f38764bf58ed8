package store

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// replicaCheckEvery is how often the replica is asked whether it answers,
// so that reads leave it soon after it goes down and come back soon after
// it returns.
const replicaCheckEvery = 2 * time.Second

// replica is a read pool on a PostgreSQL streaming replica (serve
// --db-replica), which reports and CSV exports read from while it answers.
// When it does not, they read from the primary: the first failure of an
// outage is logged at WARN, its end at INFO, never once per request.
type replica struct {
	pool   *sql.DB
	logger *slog.Logger
	down   atomic.Bool
	mu     sync.Mutex // orders the state changes and their log lines
	stop   context.CancelFunc
	done   chan struct{}
}

// OpenReplica adds a read pool on the PostgreSQL streaming replica at dsn,
// for reports and exports (ReportReader). It fails when the database is not
// PostgreSQL or the URL does not parse; a replica that does not answer yet
// is not an error: reads use the primary until it does, with a warning.
func (db *DB) OpenReplica(ctx context.Context, dsn string, logger *slog.Logger) error {
	if db.engine != Postgres {
		return errors.New("a replica (--db-replica) needs a PostgreSQL database")
	}
	if !strings.HasPrefix(dsn, "postgres://") && !strings.HasPrefix(dsn, "postgresql://") {
		return errors.New("the replica must be a postgres:// URL")
	}
	p, err := openPostgresPool(dsn)
	if err != nil {
		return err
	}
	cctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	r := &replica{pool: p, logger: logger, stop: stop, done: make(chan struct{})}
	if err := r.check(cctx); err == nil {
		r.standbyCheck(cctx)
	}
	db.replica = r
	go r.watch(cctx)
	return nil
}

// ReportReader returns the pool reports and exports read from, and whether
// it is the replica's: the replica while it answers, else the primary's
// read pool. A read on the replica that fails to reach it should tell
// ReplicaFailed, and read again from the primary when it says so.
func (db *DB) ReportReader() (*sql.DB, bool) {
	if r := db.replica; r != nil && !r.down.Load() {
		return r.pool, true
	}
	return db.read, false
}

// inReportSnapshot runs fn in one snapshot on the reports' reader
// (ReportReader): the replica while it answers, else the primary. When the
// replica fails to answer before began reports that anything was handed
// on, fn runs again on the primary; once something was, the error stands.
func (db *DB) inReportSnapshot(ctx context.Context, began func() bool, fn func(tx *sql.Tx) error) error {
	rd, fromReplica := db.ReportReader()
	err := db.inSnapshot(ctx, rd, fn)
	if err != nil && fromReplica && !began() && db.replica.failed(ctx, err) {
		err = db.inSnapshot(ctx, db.read, fn)
	}
	return err
}

// ReplicaFailed reports whether err, returned by a read on the replica, is
// the replica not answering (rather than a refusal of the query or the end
// of the request), and if so marks it down, logging once per outage.
func (db *DB) ReplicaFailed(ctx context.Context, err error) bool {
	return db.replica.failed(ctx, err)
}

// failed is ReplicaFailed.
func (r *replica) failed(ctx context.Context, err error) bool {
	if r == nil || err == nil || ctx.Err() != nil || !isUnavailable(err) {
		return false
	}
	r.set(false, err)
	return true
}

// set records whether the replica answers, logging a change.
func (r *replica) set(up bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.down.Load() == !up {
		return
	}
	r.down.Store(!up)
	if up {
		r.logger.Info("database replica answering again; reports and exports read from it")
		return
	}
	r.logger.Warn("database replica not answering; reports and exports read from the primary until it does",
		"error", err.Error())
}

// check asks the replica whether it answers and records the answer.
func (r *replica) check(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, replicaCheckEvery)
	defer cancel()
	err := r.pool.PingContext(cctx)
	if ctx.Err() == nil {
		r.set(err == nil, err)
	}
	return err
}

// standbyCheck warns when the replica is not a standby: a URL naming the
// primary (or another database) by mistake would read what it holds.
func (r *replica) standbyCheck(ctx context.Context) {
	var standby bool
	err := r.pool.QueryRowContext(ctx, "SELECT pg_is_in_recovery()").Scan(&standby)
	if err == nil && !standby {
		r.logger.Warn("the database replica is not a standby (pg_is_in_recovery() is false); reports and exports read from it anyway")
	}
}

// watch checks the replica every replicaCheckEvery until Close.
func (r *replica) watch(ctx context.Context) {
	defer close(r.done)
	t := time.NewTicker(replicaCheckEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_ = r.check(ctx)
		}
	}
}

// close stops the checks and closes the pool.
func (r *replica) close() error {
	if r == nil {
		return nil
	}
	r.stop()
	<-r.done
	return r.pool.Close()
}

package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/stockroom/stockroom"
)

// exportBatch is how many records an export reads at a time: what it holds
// in memory, whatever the number of rows. A batch is completed (lines,
// totals) with one query per batch before its records are handed on.
const exportBatch = 1000

// export is one export's reading: the list's query (filters and sort, no
// paging), how to scan a row, and what completes a batch of records with
// queries of its own in the same snapshot (nil: nothing).
type export[T any] struct {
	q    pageQuery
	req  stockroom.PageRequest
	scan func(scanner) (T, error)
	load func(ctx context.Context, qr querier, batch []T) error
	// text is the statement that reads it, made from q and req (each).
	text string
}

// each passes every record of the export to fn, in the list's order, read in
// one snapshot from the reports' reader (ReportReader): a replica when one
// is configured and answers, else the primary. A failure to reach the
// replica before anything is handed on reads from the primary instead.
// An error of fn ends the export and is returned as it is.
func each[T any](ctx context.Context, db *DB, e export[T], fn func(T) error) error {
	if len(e.q.branches) > 0 {
		panic("store: an export of a list read by branches") // no exported list is
	}
	if e.q.sort.modified != "" && !e.req.ModifiedSince.IsZero() {
		e.q.where = append(e.q.where, e.q.sort.modified+" >= "+e.q.args.add(micros(e.req.ModifiedSince)))
	}
	e.text = "SELECT " + e.q.columns + " FROM " + e.q.from + e.q.whereClause() +
		" ORDER BY " + e.q.sort.orderBy(e.req, false)
	started := false
	emit := func(v T) error {
		started = true
		return fn(v)
	}
	err := db.inReportSnapshot(ctx, func() bool { return started }, func(tx *sql.Tx) error {
		return readExport(ctx, db, tx, e, emit)
	})
	if ce, ok := errors.AsType[callerError](err); ok {
		return ce.err
	}
	return err
}

// callerError is an error of the export's fn, returned unclassified.
type callerError struct{ err error }

func (e callerError) Error() string { return e.err.Error() }
func (e callerError) Unwrap() error { return e.err }

// readExport reads an export in tx, a read-only snapshot. An export with
// nothing to complete (lots, levels) is one statement whose rows are
// handed on as they come: on PostgreSQL the backend produces rows while
// the server writes the ones before (with a cursor each waited for the
// other, a batch at a time: 99,000-119,000 lots a second against
// 162,000-173,000, docs/performance.md). One whose batches are completed by queries of
// their own (lines, totals) needs tx between batches: on PostgreSQL it
// reads through a cursor fetched a batch at a time, on SQLite as one
// statement read a batch at a time. An error of fn is a callerError.
func readExport[T any](ctx context.Context, db *DB, tx *sql.Tx, e export[T], fn func(T) error) error {
	batch := make([]T, 0, exportBatch)
	hand := func() error {
		if e.load != nil && len(batch) > 0 {
			if err := e.load(ctx, tx, batch); err != nil {
				return err
			}
		}
		for _, v := range batch {
			if err := fn(v); err != nil {
				return callerError{err}
			}
		}
		batch = batch[:0]
		return nil
	}
	read := func(rows *sql.Rows, handEach bool) error {
		defer rows.Close()
		for rows.Next() {
			v, err := e.scan(rows)
			if err != nil {
				return err
			}
			if batch = append(batch, v); handEach && len(batch) == exportBatch {
				if err := hand(); err != nil {
					return err
				}
			}
		}
		return rows.Err()
	}
	if db.engine == SQLite || e.load == nil {
		rows, err := tx.QueryContext(ctx, e.text, e.q.args...)
		if err != nil {
			return err
		}
		if err := read(rows, true); err != nil {
			return err
		}
		return hand()
	}
	if _, err := tx.ExecContext(ctx, "DECLARE export NO SCROLL CURSOR FOR "+e.text, e.q.args...); err != nil {
		return err
	}
	for {
		// Described at each fetch: the text is every export's, its
		// columns the cursor's, so pgx must not cache what it returns.
		rows, err := tx.QueryContext(ctx, "FETCH "+strconv.Itoa(exportBatch)+" FROM export", pgx.QueryExecModeDescribeExec)
		if err != nil {
			return err
		}
		if err := read(rows, false); err != nil {
			return err
		}
		n := len(batch)
		if err := hand(); err != nil || n < exportBatch {
			return err
		}
	}
}

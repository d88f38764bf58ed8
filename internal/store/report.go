package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"

	"github.com/stockroom/stockroom"
)

// Reports (contract §13). A run reads one snapshot: every statement of it,
// the count with the rows, in one read transaction (REPEATABLE READ on
// PostgreSQL; on SQLite a read transaction sees one snapshot). Rows go to
// a callback as they are made, so that a writer may stream them (CSV)
// instead of holding a page.

// reportRun is a run as the store's methods read it.
type reportRun stockroom.ReportRun

// limit is the run's LIMIT: every row when none is set.
func (r reportRun) limit() int64 {
	if r.Limit <= 0 {
		return math.MaxInt64
	}
	return r.Limit
}

// ownerCond restricts column col to the run's owners; "" for every owner.
func (r reportRun) ownerCond(col string, a *args) string {
	if r.Owners == nil {
		return ""
	}
	return scopeCond(col, *r.Owners, a)
}

// reportRunner runs one report in tx, emitting the window's rows, and
// returns how many rows the report has in all.
type reportRunner func(ctx context.Context, tx *sql.Tx, r reportRun, emit func(stockroom.ReportRow) error) (int64, error)

// reportRunners are the runners by report.
var reportRunners = map[stockroom.ReportID]reportRunner{
	stockroom.ReportStockValuation:     runValuation,
	stockroom.ReportInventoryActivity:  runActivity,
	stockroom.ReportOpenPurchaseOrders: runOpenPurchase,
	stockroom.ReportStockAgeing:        runAgeing,
	stockroom.ReportExpiringLots:       runExpiring,
	stockroom.ReportStorageByOwner:     runStorage,
	stockroom.ReportOpenShippingOrders: runOpenShipping,
	stockroom.ReportLotTrace:           runTrace,
}

// RunReport runs a report in one snapshot, passing each row of the run's
// window to emit, and returns the number of rows the report has. A run
// without a window (Limit 0) is every row, as an export reads them: rows
// go to emit as they are made, a window of exportBatch at a time for the
// reports figured in Go (valuation, ageing), so that memory does not grow
// with the rows. Reports read from the reports' reader (a replica when one
// answers, ReportReader).
func (db *DB) RunReport(ctx context.Context, r stockroom.ReportRun, emit func(stockroom.ReportRow) error) (int64, error) {
	run, ok := reportRunners[r.Report]
	if !ok {
		return 0, fmt.Errorf("report %d has no runner", r.Report)
	}
	var total int64
	began := false
	err := db.inReportSnapshot(ctx, func() bool { return began }, func(tx *sql.Tx) error {
		var err error
		total, err = run(ctx, tx, reportRun(r), func(row stockroom.ReportRow) error {
			began = true
			return emit(row)
		})
		return err
	})
	return total, err
}

// countedQuery is a statement of a report's rows whose last column is the
// count of all its rows (COUNT(*) OVER ()), and a statement of that count
// alone, for a window that holds no row to carry it.
type countedQuery struct {
	text      string
	args      args
	countText string
	countArgs args
}

// windowed is the countedQuery of text, whose arguments a end with its
// window's two (window), and count, which takes the ones before.
func windowed(text string, a args, count string) countedQuery {
	return countedQuery{text: text, args: a, countText: count, countArgs: a[:len(a)-2]}
}

// run runs the query, scanning each row with scan into emit, and returns
// the count.
func (q countedQuery) run(ctx context.Context, tx *sql.Tx, scan func(scanner) (stockroom.ReportRow, error), emit func(stockroom.ReportRow) error) (int64, error) {
	rows, err := tx.QueryContext(ctx, q.text, q.args...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	total, seen := int64(0), false
	for rows.Next() {
		row, err := scan(withExtra{rows, &total})
		if err != nil {
			return 0, err
		}
		if err := emit(row); err != nil {
			return 0, err
		}
		seen = true
	}
	if err := rows.Err(); err != nil || seen {
		return total, err
	}
	err = tx.QueryRowContext(ctx, q.countText, q.countArgs...).Scan(&total)
	return total, err
}

// window appends LIMIT and OFFSET parameters for the run's window (last in
// a, as windowed expects).
func (r reportRun) window(a *args) string {
	return " LIMIT " + a.add(r.limit()) + " OFFSET " + a.add(r.Offset)
}

// emitWindow emits the rows of the run's window from rows the report made
// whole, returning their number.
func emitWindow[T stockroom.ReportRow](r reportRun, rows []T, emit func(stockroom.ReportRow) error) (int64, error) {
	total := int64(len(rows))
	for i := r.Offset; i < total && (r.Limit <= 0 || i-r.Offset < r.Limit); i++ {
		if err := emit(rows[i]); err != nil {
			return 0, err
		}
	}
	return total, nil
}

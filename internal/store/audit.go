package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/stockroom/stockroom"
)

// Audit checks the invariants of the inventory over the whole database and
// returns every discrepancy it finds (none when all hold):
//
//   - every lot's item and warehouse exist, every ledger row's item, every
//     ledger line's row and lot;
//   - an entry lists among its items (transaction_items) exactly the items
//     of its lines and figures other than its own;
//   - no lot holds fewer than zero units;
//   - an emptied lot is inactive and has a shipped date, a lot in stock has
//     neither mark;
//   - every lot's units equal the sum of its ledger lines;
//   - every ledger line's lot belongs to its transaction's owner;
//   - per item, warehouse and owner, the kept in-stock figure equals the sum
//     of the lots' units and the sum of the ledger's signed units, and the
//     kept on-hold figure equals the units of its held lots;
//   - per item and warehouse, every figure of the level summed over owners
//     equals the sum of the owners' levels; each item's all-warehouse total,
//     and each owner's, equals the sum of its warehouses;
//   - per item, warehouse and owner, onOrder equals what open purchase
//     lines still have due and what the ledger's figures add up to, and aSN
//     what open transits still carry and the ledger's figures; each
//     purchase line's units in transit are what its open notices carry;
//   - a transit's status fits what its lines have due;
//   - per lot, the allocated units equal the sum of its allocations and are
//     no more than its units, none on a held lot; an allocation's lot is of
//     its line's item, warehouse and owner, and its order open;
//   - per outbound order line, committed and packed equal its allocations',
//     committed + packed + shipped are no more than its units, and shipped
//     equals what its ship entries in the ledger add up to;
//   - per item, warehouse and owner, committed and packed equal the
//     allocations' and what the ledger's figures add up to;
//   - the kept counts equal the rows they count.
//
// It reads everything in one snapshot; it is an operator's tool, not a hot
// path.
func (db *DB) Audit(ctx context.Context) ([]stockroom.Discrepancy, error) {
	var found []stockroom.Discrepancy
	report := func(format string, args ...any) {
		found = append(found, stockroom.Discrepancy{What: fmt.Sprintf(format, args...)})
	}
	err := db.inReadTx(ctx, func(tx *sql.Tx) error {
		for _, c := range auditChecks {
			if err := c.run(ctx, tx, report); err != nil {
				return err
			}
		}
		if err := auditShipped(ctx, tx, report); err != nil {
			return err
		}
		return db.auditCounts(ctx, tx, report)
	})
	return found, err
}

// auditCheck is one invariant: a query for the rows that break it, whose
// columns are all integers, the first ids of them identifiers and the rest
// figures (counts of millionths), and the format that describes such a row,
// with the values in column order.
type auditCheck struct {
	query  string
	ids    int
	format string
}

var auditChecks = slices.Concat(lotChecks, levelSumChecks(), orderChecks, transitChecks, allocChecks)

// lotChecks hold the lots, their ledger lines and the kept figures of their
// units to one another.
var lotChecks = []auditCheck{
	// The references of appended rows (foreign keys on SQLite only, see
	// migration 10).
	{`SELECT l.rec_no, l.part_no, l.wid FROM lots l
	  WHERE NOT EXISTS (SELECT 1 FROM items i WHERE i.part_no = l.part_no)
		OR NOT EXISTS (SELECT 1 FROM warehouses w WHERE w.wid = l.wid)`,
		3, "lot %d names item %d or warehouse %d, which does not exist"},
	{`SELECT t.id, t.part_no FROM transactions t
	  WHERE NOT EXISTS (SELECT 1 FROM items i WHERE i.part_no = t.part_no)`,
		2, "transaction %d names item %d, which does not exist"},
	{`SELECT g.transaction_id, g.line, g.rec_no FROM transaction_lines g
	  WHERE NOT EXISTS (SELECT 1 FROM transactions t WHERE t.id = g.transaction_id)
		OR NOT EXISTS (SELECT 1 FROM lots l WHERE l.rec_no = g.rec_no)`,
		3, "transaction %d line %d names lot %d, and one of the two does not exist"},
	// An entry's items besides its own are listed, and only those, so that
	// the ledger filtered by item finds exactly the entries that change it.
	{`SELECT g.transaction_id, g.part_no FROM (
		SELECT transaction_id, part_no FROM transaction_lines
		UNION SELECT transaction_id, part_no FROM transaction_figures
	  ) g JOIN transactions t ON t.id = g.transaction_id
	  WHERE g.part_no <> t.part_no
		AND NOT EXISTS (SELECT 1 FROM transaction_items x WHERE x.transaction_id = g.transaction_id AND x.part_no = g.part_no)`,
		2, "transaction %d changes item %d, which it does not list among its items"},
	{`SELECT x.transaction_id, x.part_no FROM transaction_items x
	  WHERE NOT EXISTS (SELECT 1 FROM transaction_lines g WHERE g.transaction_id = x.transaction_id AND g.part_no = x.part_no)
		AND NOT EXISTS (SELECT 1 FROM transaction_figures f WHERE f.transaction_id = x.transaction_id AND f.part_no = x.part_no)`,
		2, "transaction %d lists item %d among its items but changes none of it"},
	{`SELECT rec_no, units FROM lots WHERE units < 0`, 1, "lot %d holds %s units"},
	{`SELECT rec_no FROM lots WHERE units = 0 AND (active OR shipped IS NULL)`,
		1, "lot %d is empty but is not marked inactive and shipped"},
	{`SELECT rec_no, units FROM lots WHERE units > 0 AND (NOT active OR shipped IS NOT NULL)`,
		1, "lot %d holds %s units but is marked inactive or shipped"},
	{`SELECT l.rec_no, l.units, COALESCE(g.units, 0)
	  FROM lots l LEFT JOIN (
		SELECT rec_no, SUM(units) AS units FROM transaction_lines GROUP BY rec_no
	  ) g ON g.rec_no = l.rec_no
	  WHERE l.units <> COALESCE(g.units, 0)`,
		1, "lot %d holds %s units but its ledger lines sum to %s"},
	{`SELECT g.transaction_id, g.line, l.rec_no, l.owner, t.owner
	  FROM transaction_lines g
	  JOIN transactions t ON t.id = g.transaction_id
	  JOIN lots l ON l.rec_no = g.rec_no
	  WHERE l.owner <> t.owner`,
		5, "transaction %d line %d: lot %d belongs to owner %d, the transaction to owner %d"},
	{`SELECT k.part_no, k.wid, k.owner, COALESCE(s.in_stock, 0), COALESCE(l.units, 0), COALESCE(g.units, 0),
		COALESCE(s.on_hold, 0), COALESCE(l.held, 0)
	  FROM (
		SELECT part_no, wid, owner FROM owner_levels
		UNION SELECT part_no, wid, owner FROM lots
		UNION SELECT g.part_no, g.wid, t.owner FROM transaction_lines g JOIN transactions t ON t.id = g.transaction_id
	  ) k
	  LEFT JOIN owner_levels s ON s.part_no = k.part_no AND s.wid = k.wid AND s.owner = k.owner
	  LEFT JOIN (
		SELECT part_no, wid, owner, SUM(units) AS units, SUM(CASE WHEN hold THEN units ELSE 0 END) AS held
		FROM lots GROUP BY part_no, wid, owner
	  ) l ON l.part_no = k.part_no AND l.wid = k.wid AND l.owner = k.owner
	  LEFT JOIN (
		SELECT g.part_no, g.wid, t.owner, SUM(g.units) AS units
		FROM transaction_lines g JOIN transactions t ON t.id = g.transaction_id
		GROUP BY g.part_no, g.wid, t.owner
	  ) g ON g.part_no = k.part_no AND g.wid = k.wid AND g.owner = k.owner
	  WHERE COALESCE(s.in_stock, 0) <> COALESCE(l.units, 0)
		OR COALESCE(s.in_stock, 0) <> COALESCE(g.units, 0)
		OR COALESCE(s.on_hold, 0) <> COALESCE(l.held, 0)`,
		3, "item %d in warehouse %d, owner %d: inStock %s, lots %s, ledger %s; onHold %s, held lots %s"},
}

// run reports every row the check finds.
func (c auditCheck) run(ctx context.Context, tx *sql.Tx, report func(string, ...any)) error {
	return eachRow(ctx, tx, c.query, func(r *sql.Rows) error {
		cols, err := r.Columns()
		if err != nil {
			return err
		}
		vals := make([]int64, len(cols))
		dest := make([]any, len(cols))
		for i := range vals {
			dest[i] = &vals[i]
		}
		if err := r.Scan(dest...); err != nil {
			return err
		}
		args := make([]any, len(vals))
		for i, v := range vals {
			if i < c.ids {
				args[i] = v
			} else {
				args[i] = stockroom.FromMicros(v)
			}
		}
		report(c.format, args...)
		return nil
	})
}

// auditCounts compares every kept count with a count of its rows.
func (db *DB) auditCounts(ctx context.Context, tx *sql.Tx, report func(string, ...any)) error {
	kept := map[string]int64{}
	if err := eachRow(ctx, tx, `SELECT name, CAST(SUM(value) AS BIGINT) FROM counters GROUP BY name`, func(r *sql.Rows) error {
		var (
			name string
			n    int64
		)
		err := r.Scan(&name, &n)
		kept[name] = n
		return err
	}); err != nil {
		return err
	}
	actual := map[string]int64{}
	byWarehouse := func(name func(int64) string) func(int64, int64) string {
		return func(wid, _ int64) string { return name(wid) }
	}
	for _, q := range []struct {
		query string // rows of wid, owner, count
		name  func(wid, owner int64) string
	}{
		{`SELECT 0, 0, COUNT(*) FROM items`, func(int64, int64) string { return countItems }},
		{`SELECT 0, 0, COUNT(*) FROM items WHERE NOT discontinued`, func(int64, int64) string { return countActiveItems }},
		{`SELECT 0, dflt_owner, COUNT(*) FROM items GROUP BY dflt_owner`, func(_, o int64) string { return itemCounter(o, false) }},
		{`SELECT 0, dflt_owner, COUNT(*) FROM items WHERE NOT discontinued GROUP BY dflt_owner`, func(_, o int64) string { return itemCounter(o, true) }},
		{`SELECT 0, 0, COUNT(*) FROM lots`, func(int64, int64) string { return lotCounter(0, false) }},
		{`SELECT 0, 0, COUNT(*) FROM lots WHERE units > 0`, func(int64, int64) string { return lotCounter(0, true) }},
		{`SELECT wid, 0, COUNT(*) FROM lots GROUP BY wid`, func(w, _ int64) string { return lotCounter(w, false) }},
		{`SELECT wid, 0, COUNT(*) FROM lots WHERE units > 0 GROUP BY wid`, func(w, _ int64) string { return lotCounter(w, true) }},
		{`SELECT wid, 0, COUNT(*) FROM stock_levels WHERE ` + listedRow + ` GROUP BY wid`, byWarehouse(stockedCounter)},
		{`SELECT 0, 0, COUNT(*) FROM stock_totals WHERE ` + listedRow, byWarehouse(stockedCounter)},
		{`SELECT wid, owner, COUNT(*) FROM owner_levels WHERE ` + listedRow + ` GROUP BY wid, owner`, ownerStockedCounter},
		{`SELECT 0, owner, COUNT(*) FROM owner_totals WHERE ` + listedRow + ` GROUP BY owner`, ownerStockedCounter},
	} {
		if err := eachRow(ctx, tx, q.query, func(r *sql.Rows) error {
			var wid, owner, n int64
			err := r.Scan(&wid, &owner, &n)
			actual[q.name(wid, owner)] = n
			return err
		}); err != nil {
			return err
		}
	}
	for name := range kept {
		if _, ok := actual[name]; !ok {
			actual[name] = 0
		}
	}
	for name, n := range actual {
		if kept[name] != n {
			report("count %s is kept as %d but there are %d", name, kept[name], n)
		}
	}
	return nil
}

// eachRow runs a query with arguments a and passes each row to scan.
func eachRow(ctx context.Context, tx *sql.Tx, query string, scan func(*sql.Rows) error, a ...any) error {
	rows, err := tx.QueryContext(ctx, query, a...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
)

// Stock levels and kept counts, as every stock transaction changes them.

// bumpModified is the SQL for a modified time that moves forward only.
func bumpModified(col, param string) string {
	return "CASE WHEN " + param + " > " + col + " THEN " + param + " ELSE " + col + " + 1 END"
}

// levelChange is a change to one stock level row.
type levelChange struct {
	partNo, wid     int64
	inStock, onHold stockroom.Units
}

// adjustLevels runs the writes already queued in b together with level
// changes, applied in item-then-warehouse order, then the items'
// all-warehouse totals. It adds the changes to the counts of stocked items to
// counts, for the caller to apply with its own.
func adjustLevels(ctx context.Context, tx *sql.Tx, b *batch, now time.Time, counts countChanges, changes ...levelChange) error {
	slices.SortFunc(changes, func(a, b levelChange) int {
		if a.partNo != b.partNo {
			return cmp.Compare(a.partNo, b.partNo)
		}
		return cmp.Compare(a.wid, b.wid)
	})
	var (
		rows   []levelRow
		totals []levelChange // one per item, wid 0
	)
	for _, c := range changes {
		if c.inStock == 0 && c.onHold == 0 {
			continue
		}
		rows = append(rows, warehouseLevel(c))
		if n := len(totals); n > 0 && totals[n-1].partNo == c.partNo {
			totals[n-1].inStock += c.inStock
			totals[n-1].onHold += c.onHold
		} else {
			totals = append(totals, levelChange{partNo: c.partNo, inStock: c.inStock, onHold: c.onHold})
		}
	}
	for _, c := range totals {
		if c.inStock != 0 || c.onHold != 0 {
			rows = append(rows, totalLevel(c))
		}
	}
	after := make([]sql.NullInt64, len(rows))
	for i, r := range rows {
		b.add(&after[i], func(a *args) string { return levelSQL(a, r, now) })
		if err := b.runIfFull(ctx, tx); err != nil { // a bulk load's many rows
			return err
		}
	}
	if err := b.run(ctx, tx); err != nil {
		return err
	}
	for i, r := range rows {
		if !after[i].Valid {
			return fmt.Errorf("%s row %v is missing", r.table, r.vals)
		}
		before := stockroom.Units(after[i].Int64) - r.change.inStock
		counts[stockedCounter(r.change.wid)] += stockedChange(before, r.change.inStock)
	}
	return nil
}

// stockedChange is the change in "items with stock" when in_stock goes from
// before to before+by.
func stockedChange(before, by stockroom.Units) int64 {
	switch after := before + by; {
	case before == 0 && after != 0:
		return 1
	case before != 0 && after == 0:
		return -1
	}
	return 0
}

// stockedCounter names the count of items with stock in a warehouse (0: in
// any warehouse).
func stockedCounter(wid int64) string { return "stocked:" + strconv.FormatInt(wid, 10) }

// levelRow is a change to one row of stock_levels (by item and warehouse) or
// of stock_totals (by item).
type levelRow struct {
	table  string
	keys   []string
	vals   []any
	change levelChange
}

func warehouseLevel(c levelChange) levelRow {
	return levelRow{"stock_levels", []string{"part_no", "wid"}, []any{c.partNo, c.wid}, c}
}

func totalLevel(c levelChange) levelRow {
	return levelRow{"stock_totals", []string{"part_no"}, []any{c.partNo}, c}
}

// levelSQL returns the statement that changes one level row and returns its
// in_stock after the change, with its parameters added to a. Stock arriving
// may create the row; anything else updates a row that must exist, and
// returns no row if it does not. (An upsert would not do for the rest: CHECK
// constraints judge the row proposed for insertion.)
func levelSQL(a *args, row levelRow, now time.Time) string {
	var (
		c     = row.change
		keyPh = make([]string, len(row.keys))
		match = make([]string, len(row.keys))
	)
	for i, k := range row.keys {
		keyPh[i] = a.add(row.vals[i])
		match[i] = k + " = " + keyPh[i]
	}
	in, hold, mod := a.add(c.inStock), a.add(c.onHold), a.add(micros(now))
	if c.inStock <= 0 {
		return `
			UPDATE ` + row.table + ` SET
				in_stock = in_stock + ` + in + `,
				on_hold = on_hold + ` + hold + `,
				modified = ` + bumpModified("modified", mod) + `
			WHERE ` + strings.Join(match, " AND ") + `
			RETURNING in_stock`
	}
	keys := strings.Join(row.keys, ", ")
	return `
		INSERT INTO ` + row.table + ` (` + keys + `, in_stock, on_hold, committed, packed, on_order, asn, modified)
		VALUES (` + strings.Join(keyPh, ", ") + `, ` + in + `, ` + hold + `, 0, 0, 0, 0, ` + mod + `)
		ON CONFLICT (` + keys + `) DO UPDATE SET
			in_stock = ` + row.table + `.in_stock + excluded.in_stock,
			on_hold = ` + row.table + `.on_hold + excluded.on_hold,
			modified = ` + bumpModified(row.table+".modified", "excluded.modified") + `
		RETURNING in_stock`
}

// countChanges accumulates changes to kept counts (lots and stocked items) over
// a transaction, to be applied in one statement at its end.
type countChanges map[string]int64

// lot records a lot appearing (+1) or leaving (-1) warehouse wid; inStock
// says whether it counts towards the in-stock count too.
func (c countChanges) lot(wid int64, by int64, all, inStock bool) {
	for _, w := range []int64{wid, 0} {
		if all {
			c[lotCounter(w, false)] += by
		}
		if inStock {
			c[lotCounter(w, true)] += by
		}
	}
}

// deltas lists the changes in name order, the order counter rows are locked
// in.
func (c countChanges) deltas() []delta {
	var ds []delta
	for name, by := range c {
		ds = append(ds, delta{name, by})
	}
	slices.SortFunc(ds, func(a, b delta) int { return cmp.Compare(a.name, b.name) })
	return ds
}

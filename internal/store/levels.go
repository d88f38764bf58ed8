package store

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/stockroom/stockroom"
)

// Stock levels, kept in the same transaction as every change to what they
// sum: per item and warehouse in stock_levels, per item over every warehouse
// in stock_totals. Rows are changed in item-then-warehouse order, the totals
// after the warehouses, so concurrent transactions lock them in one order.

// levelChange is a change to the figures of one item in one warehouse.
type levelChange struct {
	partNo, wid     int64
	inStock, onHold stockroom.Units
}

// grows reports whether the change, applied to an empty row, makes a valid
// row: only such a change may create its row. (An upsert would not do for
// the others: CHECK constraints judge the row proposed for insertion.)
func (c levelChange) grows() bool {
	return c.inStock.Sign() >= 0 && c.onHold.Sign() >= 0 && !c.inStock.Less(c.onHold)
}

func (c levelChange) isZero() bool { return c.inStock.IsZero() && c.onHold.IsZero() }

// The statements that change one row and return its in_stock afterwards.
const (
	levelGrow = `
		INSERT INTO stock_levels (part_no, wid, in_stock, on_hold, committed, packed, on_order, asn, modified)
		VALUES ($1, $2, $3, $4, 0, 0, 0, 0, $5)
		ON CONFLICT (part_no, wid) DO UPDATE SET
			in_stock = stock_levels.in_stock + excluded.in_stock,
			on_hold = stock_levels.on_hold + excluded.on_hold,
			modified = ` + laterOf + `
		RETURNING in_stock`
	levelChangeRow = `
		UPDATE stock_levels SET
			in_stock = in_stock + $3,
			on_hold = on_hold + $4,
			modified = CASE WHEN $5 > modified THEN $5 ELSE modified + 1 END
		WHERE part_no = $1 AND wid = $2
		RETURNING in_stock`
	totalGrow = `
		INSERT INTO stock_totals (part_no, in_stock, on_hold, committed, packed, on_order, asn, modified)
		VALUES ($1, $2, $3, 0, 0, 0, 0, $4)
		ON CONFLICT (part_no) DO UPDATE SET
			in_stock = stock_totals.in_stock + excluded.in_stock,
			on_hold = stock_totals.on_hold + excluded.on_hold,
			modified = ` + laterOfTotal + `
		RETURNING in_stock`
	totalChangeRow = `
		UPDATE stock_totals SET
			in_stock = in_stock + $2,
			on_hold = on_hold + $3,
			modified = CASE WHEN $4 > modified THEN $4 ELSE modified + 1 END
		WHERE part_no = $1
		RETURNING in_stock`

	// A modified time moves forward only, even against another instance's
	// clock.
	laterOf      = `CASE WHEN excluded.modified > stock_levels.modified THEN excluded.modified ELSE stock_levels.modified + 1 END`
	laterOfTotal = `CASE WHEN excluded.modified > stock_totals.modified THEN excluded.modified ELSE stock_totals.modified + 1 END`
)

// levelUpdate is a set of queued level changes whose results arrive with the
// next flush.
type levelUpdate struct {
	changes []levelChange // wid 0: the item's total
	after   []stockroom.Units
	found   []bool
}

// changeLevels queues level changes, and the totals they add up to.
func (t *Tx) changeLevels(now time.Time, changes ...levelChange) *levelUpdate {
	slices.SortFunc(changes, func(a, b levelChange) int {
		return cmp.Or(cmp.Compare(a.partNo, b.partNo), cmp.Compare(a.wid, b.wid))
	})
	u := &levelUpdate{}
	var totals []levelChange
	for _, c := range changes {
		if c.isZero() {
			continue
		}
		u.changes = append(u.changes, c)
		if n := len(totals); n > 0 && totals[n-1].partNo == c.partNo {
			totals[n-1].inStock = totals[n-1].inStock.Add(c.inStock)
			totals[n-1].onHold = totals[n-1].onHold.Add(c.onHold)
		} else {
			totals = append(totals, levelChange{partNo: c.partNo, inStock: c.inStock, onHold: c.onHold})
		}
	}
	for _, c := range totals {
		if !c.isZero() {
			u.changes = append(u.changes, c)
		}
	}
	u.after = make([]stockroom.Units, len(u.changes))
	u.found = make([]bool, len(u.changes))
	mod := micros(now)
	for i, c := range u.changes {
		switch {
		case c.wid != 0 && c.grows():
			t.queryRow(&u.found[i], levelGrow, []any{c.partNo, c.wid, c.inStock, c.onHold, mod}, &u.after[i])
		case c.wid != 0:
			t.queryRow(&u.found[i], levelChangeRow, []any{c.partNo, c.wid, c.inStock, c.onHold, mod}, &u.after[i])
		case c.grows():
			t.queryRow(&u.found[i], totalGrow, []any{c.partNo, c.inStock, c.onHold, mod}, &u.after[i])
		default:
			t.queryRow(&u.found[i], totalChangeRow, []any{c.partNo, c.inStock, c.onHold, mod}, &u.after[i])
		}
	}
	return u
}

// settle checks the changed rows once they have been sent: each existed, and
// each figure stays within what is kept (stockroom.ErrFigureTooLarge
// otherwise; the caller rolls back). It adds the changes in the number of
// items with stock to counts.
func (u *levelUpdate) settle(counts countChanges) error {
	for i, c := range u.changes {
		if !u.found[i] {
			return fmt.Errorf("stock level of item %d in warehouse %d is missing", c.partNo, c.wid)
		}
		if !u.after[i].IsFigure() {
			return stockroom.ErrFigureTooLarge
		}
		counts[stockedCounter(c.wid)] += stockedChange(u.after[i].Sub(c.inStock), c.inStock)
	}
	return nil
}

// stockedChange is the change in "items with stock" when in_stock goes from
// before to before+by.
func stockedChange(before, by stockroom.Units) int64 {
	switch after := before.Add(by); {
	case before.IsZero() && !after.IsZero():
		return 1
	case !before.IsZero() && after.IsZero():
		return -1
	}
	return 0
}

// stockedCounter names the count of items with stock in a warehouse (0: in
// any warehouse).
func stockedCounter(wid int64) string { return "stocked:" + strconv.FormatInt(wid, 10) }

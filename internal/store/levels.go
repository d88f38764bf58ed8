package store

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
)

// Stock levels, kept in the same transaction as every change to what they
// sum, in four grains: per item, warehouse and owner (owner_levels), per
// item and owner over every warehouse (owner_totals), and the sums over
// owners that lists read when they show no owner: per item and warehouse
// (stock_levels) and per item (stock_totals). Rows are changed grain by
// grain in that order, each grain's rows in key order, so concurrent
// transactions lock them in one order.

// levelChange is a change to the figures of one item in one warehouse for
// one owner.
type levelChange struct {
	partNo, wid, owner int64
	inStock, onHold    stockroom.Units
}

// grows reports whether the change, applied to an empty row, makes a valid
// row: only such a change may create its row. (An upsert would not do for
// the others: CHECK constraints judge the row proposed for insertion.)
func (c levelChange) grows() bool {
	return c.inStock.Sign() >= 0 && c.onHold.Sign() >= 0 && !c.inStock.Less(c.onHold)
}

func (c levelChange) isZero() bool { return c.inStock.IsZero() && c.onHold.IsZero() }

// levelGrain is one of the four tables of levels: its name and key columns.
// Its statements change one row and return its in_stock afterwards.
type levelGrain struct {
	table string
	keys  []string // key columns, in order
	// byOwner: the grain keeps owners apart.
	byOwner, byWarehouse bool
	grow, change         string
}

func newGrain(table string, byWarehouse, byOwner bool) levelGrain {
	g := levelGrain{table: table, byOwner: byOwner, byWarehouse: byWarehouse, keys: []string{"part_no"}}
	if byWarehouse {
		g.keys = append(g.keys, "wid")
	}
	if byOwner {
		g.keys = append(g.keys, "owner")
	}
	n := len(g.keys)
	keys := strings.Join(g.keys, ", ")
	conds := make([]string, n)
	for i, k := range g.keys {
		conds[i] = k + " = $" + strconv.Itoa(i+1)
	}
	figures := "$" + strconv.Itoa(n+1) + ", $" + strconv.Itoa(n+2)
	mod := "$" + strconv.Itoa(n+3)
	g.grow = `
		INSERT INTO ` + table + ` (` + keys + `, in_stock, on_hold, committed, packed, on_order, asn, modified)
		VALUES (` + params(1, n) + `, ` + figures + `, 0, 0, 0, 0, ` + mod + `)
		ON CONFLICT (` + keys + `) DO UPDATE SET
			in_stock = ` + table + `.in_stock + excluded.in_stock,
			on_hold = ` + table + `.on_hold + excluded.on_hold,
			modified = CASE WHEN excluded.modified > ` + table + `.modified THEN excluded.modified ELSE ` + table + `.modified + 1 END
		RETURNING in_stock`
	g.change = `
		UPDATE ` + table + ` SET
			in_stock = in_stock + $` + strconv.Itoa(n+1) + `,
			on_hold = on_hold + $` + strconv.Itoa(n+2) + `,
			modified = CASE WHEN ` + mod + ` > modified THEN ` + mod + ` ELSE modified + 1 END
		WHERE ` + strings.Join(conds, " AND ") + `
		RETURNING in_stock`
	return g
}

// The four grains, in the order their rows are locked. (A modified time
// moves forward only, even against another instance's clock.)
var levelGrains = []levelGrain{
	newGrain("owner_levels", true, true),
	newGrain("stock_levels", true, false),
	newGrain("owner_totals", false, true),
	newGrain("stock_totals", false, false),
}

// key returns the change's key in the grain, and the change with the
// columns the grain does not keep set to 0.
func (g levelGrain) key(c levelChange) (levelChange, []any) {
	k := []any{c.partNo}
	if g.byWarehouse {
		k = append(k, c.wid)
	} else {
		c.wid = 0
	}
	if g.byOwner {
		k = append(k, c.owner)
	} else {
		c.owner = 0
	}
	return c, k
}

// counter names the count of items with stock that a row of the grain is
// part of.
func (g levelGrain) counter(c levelChange) string {
	if g.byOwner {
		return ownerStockedCounter(c.wid, c.owner)
	}
	return stockedCounter(c.wid)
}

// levelUpdate is a set of queued level changes whose results arrive with the
// next flush.
type levelUpdate struct {
	changes []levelChange
	grains  []levelGrain
	after   []stockroom.Units
	found   []bool
}

// changeLevels queues level changes in every grain.
func (t *Tx) changeLevels(now time.Time, changes ...levelChange) *levelUpdate {
	u := &levelUpdate{}
	for _, g := range levelGrains {
		sum := map[levelChange]levelChange{} // key (figures zero) -> summed change
		for _, c := range changes {
			c, _ = g.key(c)
			k := levelChange{partNo: c.partNo, wid: c.wid, owner: c.owner}
			s := sum[k]
			s.partNo, s.wid, s.owner = c.partNo, c.wid, c.owner
			s.inStock, s.onHold = s.inStock.Add(c.inStock), s.onHold.Add(c.onHold)
			sum[k] = s
		}
		rows := make([]levelChange, 0, len(sum))
		for _, c := range sum {
			if !c.isZero() {
				rows = append(rows, c)
			}
		}
		slices.SortFunc(rows, func(a, b levelChange) int {
			return cmp.Or(cmp.Compare(a.partNo, b.partNo), cmp.Compare(a.wid, b.wid), cmp.Compare(a.owner, b.owner))
		})
		for _, c := range rows {
			u.changes = append(u.changes, c)
			u.grains = append(u.grains, g)
		}
	}
	u.after = make([]stockroom.Units, len(u.changes))
	u.found = make([]bool, len(u.changes))
	mod := micros(now)
	for i, c := range u.changes {
		g := u.grains[i]
		_, key := g.key(c)
		stmt := g.change
		if c.grows() {
			stmt = g.grow
		}
		t.queryRow(&u.found[i], stmt, append(key, c.inStock, c.onHold, mod), &u.after[i])
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
			return fmt.Errorf("%s row of item %d, warehouse %d, owner %d is missing", u.grains[i].table, c.partNo, c.wid, c.owner)
		}
		if !u.after[i].IsFigure() {
			return stockroom.ErrFigureTooLarge
		}
		counts[u.grains[i].counter(c)] += stockedChange(u.after[i].Sub(c.inStock), c.inStock)
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

// ownerStockedCounter names the count of an owner's items with stock in a
// warehouse (0: in any warehouse).
func ownerStockedCounter(wid, owner int64) string {
	return stockedCounter(wid) + ":" + strconv.FormatInt(owner, 10)
}

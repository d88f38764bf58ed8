package store

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store/txn"
)

// Stock levels, kept in the same transaction as every change to what they
// sum, in four grains: per item, warehouse and owner (owner_levels), per
// item and owner over every warehouse (owner_totals), and the sums over
// owners that lists read when they show no owner: per item and warehouse
// (stock_levels) and per item (stock_totals). Rows are changed in the order
// of their keys in levels, so concurrent transactions lock them in one
// order.

// levelChange is a change to the figures of one item in one warehouse for
// one owner.
type levelChange struct {
	partNo, wid, owner int64
	inStock, onHold    stockroom.Units
	// committed and packed are allocated units; onOrder is due on open
	// purchase order lines, asn on its way in open transits.
	committed, packed, onOrder, asn stockroom.Units
}

// figures returns the change's six figures in the tables' column order.
func (c levelChange) figures() []stockroom.Units {
	return []stockroom.Units{c.inStock, c.onHold, c.committed, c.packed, c.onOrder, c.asn}
}

// add returns the sum of two changes to the same row.
func (c levelChange) add(d levelChange) levelChange {
	c.inStock, c.onHold = c.inStock.Add(d.inStock), c.onHold.Add(d.onHold)
	c.committed, c.packed = c.committed.Add(d.committed), c.packed.Add(d.packed)
	c.onOrder, c.asn = c.onOrder.Add(d.onOrder), c.asn.Add(d.asn)
	return c
}

// grows reports whether the change, applied to an empty row, makes a valid
// row: only such a change may create its row. (An upsert would not do for
// the others: CHECK constraints judge the row proposed for insertion.)
func (c levelChange) grows() bool {
	for _, f := range c.figures() {
		if f.Sign() < 0 {
			return false
		}
	}
	return !c.inStock.Less(c.onHold)
}

func (c levelChange) isZero() bool { return !anyNonZero(c.figures()) }

func anyNonZero(fs []stockroom.Units) bool {
	for _, f := range fs {
		if !f.IsZero() {
			return true
		}
	}
	return false
}

// levelFigures are the tables' figure columns, in levelChange.figures order.
var levelFigures = []string{"in_stock", "on_hold", "committed", "packed", "on_order", "asn"}

// The four grains are rows of one table, levels (migration 13), keyed by
// item, warehouse and owner: warehouse 0 stands for every warehouse, owner -1
// for every owner. An item's rows of every grain are neighbours in the key,
// so on SQLite the rows a change updates share a page. Each grain is read by
// its own name, a view of its rows.
const (
	everyWarehouse = 0
	everyOwner     = -1
)

// levelGrain is one of the four grains of levels: its view's name and which
// keys it keeps apart. Its statements change one row of levels and return
// its figures afterwards.
type levelGrain struct {
	view                 string
	byOwner, byWarehouse bool
}

// levelKeys are the key columns of levels.
const levelKeys = "part_no, wid, owner"

// The statements of changes to rows of levels. changeLevel changes one
// existing row: $1..$3 its key, $4..$9 the changes to its figures
// (levelFigures), $10 the time; it finds no row if there is none.
// growLevels(n) changes n rows, creating those there are not yet, with ten
// parameters per row in the same order. Both return each row changed: its
// key, then its figures afterwards.
var changeLevel = levelChangeStatement()

// maxGrowRows is the most rows one growLevels statement changes.
const maxGrowRows = 8

// growStatements holds growLevels(n) for n up to maxGrowRows, built once.
var growStatements = func() []string {
	s := make([]string, maxGrowRows+1)
	for n := 1; n <= maxGrowRows; n++ {
		s[n] = levelGrowStatement(n)
	}
	return s
}()

func growLevels(n int) string { return growStatements[n] }

func levelGrowStatement(n int) string {
	nf := len(levelFigures)
	per := 3 + nf + 1
	grown := make([]string, nf)
	for i, f := range levelFigures {
		grown[i] = f + " = levels." + f + " + excluded." + f
	}
	values := make([]string, n)
	for i := range values {
		values[i] = "(" + params(i*per+1, (i+1)*per) + ")"
	}
	cols := strings.Join(levelFigures, ", ")
	return `
		INSERT INTO levels (` + levelKeys + `, ` + cols + `, modified)
		VALUES ` + strings.Join(values, ", ") + `
		ON CONFLICT (` + levelKeys + `) DO UPDATE SET
			` + strings.Join(grown, ",\n\t\t\t") + `,
			modified = CASE WHEN excluded.modified > levels.modified THEN excluded.modified ELSE levels.modified + 1 END
		RETURNING ` + levelKeys + `, ` + cols
}

func levelChangeStatement() string {
	nf := len(levelFigures)
	mod := "$" + strconv.Itoa(3+nf+1)
	changed := make([]string, nf)
	for i, f := range levelFigures {
		changed[i] = f + " = " + f + " + $" + strconv.Itoa(3+1+i)
	}
	return `
		UPDATE levels SET
			` + strings.Join(changed, ",\n\t\t\t") + `,
			modified = CASE WHEN ` + mod + ` > modified THEN ` + mod + ` ELSE modified + 1 END
		WHERE part_no = $1 AND wid = $2 AND owner = $3
		RETURNING ` + levelKeys + `, ` + strings.Join(levelFigures, ", ")
}

// The four grains. (A modified time moves forward only, even against
// another instance's clock.)
var levelGrains = []levelGrain{
	{view: "owner_levels", byWarehouse: true, byOwner: true},
	{view: "stock_levels", byWarehouse: true},
	{view: "owner_totals", byOwner: true},
	{view: "stock_totals"},
}

// key returns the change's key in levels for the grain, and the change with
// the columns the grain does not keep set to 0.
func (g levelGrain) key(c levelChange) (levelChange, [3]int64) {
	k := [3]int64{c.partNo, everyWarehouse, everyOwner}
	if g.byWarehouse {
		k[1] = c.wid
	} else {
		c.wid = 0
	}
	if g.byOwner {
		k[2] = c.owner
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
	rows []levelRow
}

// levelRow is the change of one row of levels and, once sent, its result.
type levelRow struct {
	change levelChange // the grain's columns only (levelGrain.key)
	grain  levelGrain
	key    [3]int64          // its key in levels
	after  []stockroom.Units // its figures afterwards
	found  bool
}

// changeLevels queues level changes in every grain. The rows are changed in
// the order of their keys in levels, whichever grain they belong to, by
// every transaction: that is the order their locks are taken in. Rows next
// to each other that the change may create go in one statement. After them
// it queues a stocklevel.changed event of each row of item, warehouse and
// owner changed, from the row as it then is (queueLevelEvents), made by e's
// client at e's time.
func (t *Tx) changeLevels(e stockroom.LedgerEntry, changes ...levelChange) *levelUpdate {
	now := e.Time
	u := &levelUpdate{}
	for _, g := range levelGrains {
		sum := map[[3]int64]levelChange{} // key in levels -> summed change
		for _, c := range changes {
			c, key := g.key(c)
			sum[key] = c.add(sum[key])
		}
		for key, c := range sum {
			if !c.isZero() {
				u.rows = append(u.rows, levelRow{change: c, grain: g, key: key})
			}
		}
	}
	slices.SortFunc(u.rows, func(a, b levelRow) int {
		return cmp.Or(cmp.Compare(a.key[0], b.key[0]), cmp.Compare(a.key[1], b.key[1]), cmp.Compare(a.key[2], b.key[2]))
	})
	mod := micros(now)
	for rest := u.rows; len(rest) > 0; {
		n, statement := 1, changeLevel
		if rest[0].change.grows() {
			for n < len(rest) && (n < maxGrowRows || t.Postgres()) && rest[n].change.grows() {
				n++
			}
			if n > maxGrowRows { // PostgreSQL: many neighbours, one statement (levelrun.go)
				t.growRows(rest[:n], mod)
				rest = rest[n:]
				continue
			}
			statement = growLevels(n)
		}
		t.changeLevelRows(rest[:n], statement, mod)
		rest = rest[n:]
	}
	t.queueLevelEvents(e, changes)
	return u
}

// values returns the row's parameters of changeLevel, in its order: its
// key, its figures' changes (in micros, as Units binds them) and the time.
// A lone statement binds them one by one, a merged one as arrays
// (levelmerge.go).
func (r *levelRow) values(mod int64) []int64 {
	vals := []int64{r.key[0], r.key[1], r.key[2]}
	for _, f := range r.change.figures() {
		vals = append(vals, f.Micros())
	}
	return append(vals, mod)
}

// changeLevelRows queues one statement of the rows' changes, changeLevel
// for one row or growLevels for several; each row it returns is matched to
// its change by its key, and a row it does not return stays not found. A
// changeLevel statement carries its rows, so that a lockstep may send it
// merged with others (levelmerge.go); a growLevels one is marked as not to
// be merged, so that no later changeLevel of its transaction is merged
// ahead of it.
func (t *Tx) changeLevelRows(lr []levelRow, statement string, mod int64) {
	var args []any
	for i := range lr {
		for _, v := range lr[i].values(mod) {
			args = append(args, v)
		}
	}
	var part any
	if statement == changeLevel {
		part = &levelStmt{rows: lr, mod: mod}
	}
	t.Queue(txn.Stmt{SQL: statement, Args: args, Merger: levelMerger{}, Part: part,
		Read: func(rs rows) error {
			return readLevelRows(rs, func(key [3]int64) *levelRow {
				if i := slices.IndexFunc(lr, func(r levelRow) bool { return r.key == key }); i >= 0 {
					return &lr[i]
				}
				return nil
			})
		}})
}

// levelStmt is what a changeLevel statement changes: its rows, at the time
// mod.
type levelStmt struct {
	rows []levelRow
	mod  int64
}

// readLevelRows reads the rows a level statement returned, each its key
// and then its figures afterwards, into the row of that key that find
// gives: a key it gives none for, or a row returned twice, is an error.
func readLevelRows(rs rows, find func(key [3]int64) *levelRow) error {
	for rs.Next() {
		var key [3]int64
		after := make([]stockroom.Units, len(levelFigures))
		dest := []any{&key[0], &key[1], &key[2]}
		for j := range after {
			dest = append(dest, &after[j])
		}
		if err := rs.Scan(dest...); err != nil {
			return err
		}
		r := find(key)
		if r == nil || r.found {
			return fmt.Errorf("levels returned row %v, which the statement did not change once", key)
		}
		r.after, r.found = after, true
	}
	return rs.Err()
}

// settle checks the changed rows once they have been sent: each existed, and
// each figure stays within what is kept (stockroom.ErrFigureTooLarge
// otherwise; the caller rolls back). It adds the changes in the number of
// items with stock to counts.
func (u *levelUpdate) settle(counts countChanges) error {
	for _, r := range u.rows {
		c := r.change
		if !r.found {
			return fmt.Errorf("%s row of item %d, warehouse %d, owner %d is missing", r.grain.view, c.partNo, c.wid, c.owner)
		}
		before := make([]stockroom.Units, len(levelFigures))
		for j, f := range c.figures() {
			if !r.after[j].IsFigure() {
				return stockroom.ErrFigureTooLarge
			}
			before[j] = r.after[j].Sub(f)
		}
		counts[r.grain.counter(c)] += listedChange(anyNonZero(before), anyNonZero(r.after))
	}
	return nil
}

// listedChange is the change in the number of listed rows (rows with any
// figure non-zero) when a row goes from listed before to listed after.
func listedChange(before, after bool) int64 {
	switch {
	case !before && after:
		return 1
	case before && !after:
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

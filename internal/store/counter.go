package store

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom/internal/store/txn"
)

// Kept counts: the number of rows a list has, kept in the same transaction as
// each change to it, so the totalCount of an unfiltered list costs a few rows
// however large the table. Each count is spread over shards, so concurrent
// writers seldom wait for one another's row.

// Counter names.
const (
	countItems       = "items"
	countActiveItems = "items_active"
)

// itemCounter names the count of the items of one catalogue (their
// dfltOwner): all of them, or the active ones. Lists of some catalogues sum
// theirs.
func itemCounter(owner int64, activeOnly bool) string {
	if activeOnly {
		return countActiveItems + ":" + strconv.FormatInt(owner, 10)
	}
	return countItems + ":" + strconv.FormatInt(owner, 10)
}

// item records n items of one catalogue, active or not, appearing (n > 0)
// or leaving (n < 0): the counts of every item and of its catalogue.
func (c countChanges) item(owner int64, discontinued bool, n int64) {
	c[countItems] += n
	c[itemCounter(owner, false)] += n
	if !discontinued {
		c[countActiveItems] += n
		c[itemCounter(owner, true)] += n
	}
}

// lotCounter names the count of a warehouse's lots: in stock (units > 0), or
// all of them. Lists of lots in a scope sum the counters of its warehouses.
func lotCounter(wid int64, inStockOnly bool) string {
	if inStockOnly {
		return "lots_in_stock:" + strconv.FormatInt(wid, 10)
	}
	return "lots:" + strconv.FormatInt(wid, 10)
}

// counterShards spreads each count over this many rows.
const counterShards = 64

// countChanges accumulates changes to kept counts over a transaction, to be
// applied in one statement at its end.
type countChanges map[string]int64

// lot records a lot appearing (+1) or leaving (-1) warehouse wid; all and
// inStock say which of its counts it changes.
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

// addCounts records changes to kept counts, written at the transaction's
// commit (countChanges.Queue): however many changes it makes, and however
// many members a batch has (each member's counts join its batch's once it
// succeeds), a transaction writes each counter row once.
func (t *Tx) addCounts(c countChanges) {
	if len(c) == 0 {
		return
	}
	own, _ := t.Deferred().(countChanges)
	if own == nil {
		own = countChanges{}
		t.Defer(own)
	}
	own.add(c)
}

// add adds d to c.
func (c countChanges) add(d countChanges) {
	for name, by := range d {
		c[name] += by
	}
}

// Merge adds d, a batch member's counts, to c, its batch's
// (txn.Deferred).
func (c countChanges) Merge(d txn.Deferred) { c.add(d.(countChanges)) }

// Queue queues the changes to kept counts on t at its commit
// (txn.Deferred), in one statement whose rows are locked in name order
// (the counters are shared by every transaction, so they are best changed
// last, and held until the commit only). Each change lands on the shard of
// its transaction's lane (txn.Tx.Lane), so that transactions of different
// lanes never wait for one another's row.
func (c countChanges) Queue(t *txn.Tx) {
	names := make([]string, 0, len(c))
	for name, by := range c {
		if by != 0 {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return
	}
	slices.SortFunc(names, cmp.Compare)
	shard := t.Lane() % counterShards
	rows := make([]string, len(names))
	args := make([]any, 0, 3*len(names))
	for i, name := range names {
		n := len(args)
		rows[i] = "($" + strconv.Itoa(n+1) + ", $" + strconv.Itoa(n+2) + ", $" + strconv.Itoa(n+3) + ")"
		args = append(args, name, shard, c[name])
	}
	t.Exec(`
		INSERT INTO counters (name, shard, value)
		VALUES `+strings.Join(rows, ", ")+`
		ON CONFLICT (name, shard) DO UPDATE SET value = counters.value + excluded.value`, args...)
}

package store

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Counter names.
const (
	countItems       = "items"
	countActiveItems = "items_active"
)

// lotCounter names the count of a warehouse's lots: in stock (units > 0), or
// all of them. Lists of lots in a scope sum the counters of its warehouses.
func lotCounter(wid int64, inStockOnly bool) string {
	if inStockOnly {
		return "lots_in_stock:" + strconv.FormatInt(wid, 10)
	}
	return "lots:" + strconv.FormatInt(wid, 10)
}

// counterShards spreads each count over this many rows, so concurrent
// writers seldom wait for one another's row.
const counterShards = 64

// delta is a change to one kept count.
type delta struct {
	name string
	by   int64
}

// addCounts changes kept counts inside the caller's transaction, in one
// statement. Each change lands on a random shard of its count.
func addCounts(ctx context.Context, q querier, deltas ...delta) error {
	var a args
	stmt := countsSQL(&a, deltas)
	if stmt == "" {
		return nil
	}
	_, err := q.ExecContext(ctx, stmt, a...)
	return err
}

// countsSQL returns the statement that adds deltas to their counts, with its
// parameters added to a, or "" when nothing changes. Each change lands on a
// random shard of its count; deltas must name each count once.
func countsSQL(a *args, deltas []delta) string {
	var rows []string
	shard := rand.IntN(counterShards)
	for _, d := range deltas {
		if d.by != 0 {
			rows = append(rows, "("+a.add(d.name)+", "+a.add(shard)+", "+a.add(d.by)+")")
		}
	}
	if len(rows) == 0 {
		return ""
	}
	return `
		INSERT INTO counters (name, shard, value)
		VALUES ` + strings.Join(rows, ", ") + `
		ON CONFLICT (name, shard) DO UPDATE SET value = counters.value + excluded.value`
}

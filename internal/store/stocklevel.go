package store

import (
	"context"

	"github.com/stockroom/stockroom"
)

const levelColumns = `
	i.part_no,
	i.short_id,
	COALESCE(s.in_stock, 0),
	COALESCE(s.on_hold, 0),
	COALESCE(s.committed, 0),
	COALESCE(s.packed, 0),
	COALESCE(s.on_order, 0),
	COALESCE(s.asn, 0),
	COALESCE(s.available, 0),
	COALESCE(s.modified, i.modified)`

const levelNonZero = `(s.in_stock <> 0 OR s.on_hold <> 0 OR s.committed <> 0 OR s.packed <> 0 OR s.on_order <> 0 OR s.asn <> 0)`

// listedRow is levelNonZero for an unaliased row: a row a stock level list
// shows, and the stocked counters count.
const listedRow = `(in_stock <> 0 OR on_hold <> 0 OR committed <> 0 OR packed <> 0 OR on_order <> 0 OR asn <> 0)`

var levelSort = sortSpec{
	fields: map[string]string{
		"partno":    "i.part_no",
		"shortid":   "i.short_id_key",
		"available": "COALESCE(s.available, 0)",
		"instock":   "COALESCE(s.in_stock, 0)",
		"onhold":    "COALESCE(s.on_hold, 0)",
		"committed": "COALESCE(s.committed, 0)",
		"packed":    "COALESCE(s.packed, 0)",
		"onorder":   "COALESCE(s.on_order, 0)",
		"asn":       "COALESCE(s.asn, 0)",
		"modified":  "COALESCE(s.modified, i.modified)",
	},
	defField: "partno",
	key:      "i.part_no",
	unique:   []string{"i.short_id_key"},
	modified: "COALESCE(s.modified, i.modified)",
}

func scanLevel(row scanner) (stockroom.StockLevel, error) {
	var (
		l        stockroom.StockLevel
		modified int64
	)
	err := row.Scan(&l.PartNo, &l.ShortID, &l.InStock, &l.OnHold, &l.Committed, &l.Packed, &l.OnOrder, &l.ASN,
		&l.Available, &modified)
	l.Modified = fromMicros(modified)
	return l, err
}

// ListStockLevels returns a page of stock levels: of one warehouse, or summed
// over the warehouses in scope. It reads the kept levels, never the lots.
func (db *DB) ListStockLevels(ctx context.Context, scope stockroom.Scope, f stockroom.StockFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.StockLevel], error) {
	return queryPage(ctx, db, levelQuery(scope, f), req, scanLevel)
}

// EachStockLevel passes every stock level ListStockLevels lists, in its
// order, to fn (an export: no paging), read in one snapshot from the
// reports' reader.
func (db *DB) EachStockLevel(ctx context.Context, scope stockroom.Scope, f stockroom.StockFilter, req stockroom.PageRequest, fn func(stockroom.StockLevel) error) error {
	return each(ctx, db, export[stockroom.StockLevel]{q: levelQuery(scope, f), req: req, scan: scanLevel}, fn)
}

// levelQuery is the query of the stock levels in scope that f keeps.
func levelQuery(scope stockroom.Scope, f stockroom.StockFilter) pageQuery {
	q := pageQuery{columns: levelColumns, sort: levelSort}
	var levels string
	if f.Owners == nil || f.Owners.All {
		levels = summedLevels(&q, scope, f.WID)
	} else {
		levels = ownerLevels(&q, scope, f.WID, *f.Owners)
	}
	if f.IncludeZero {
		q.from = "items i LEFT JOIN " + levels + " s ON s.part_no = i.part_no"
		q.where = append(q.where, "(NOT i.discontinued OR "+levelNonZero+")")
		q.counters = nil
	} else {
		// The stocked counters count the rows with any figure non-zero
		// (levelUpdate.settle).
		q.from = "items i JOIN " + levels + " s ON s.part_no = i.part_no"
		q.where = append(q.where, levelNonZero)
	}
	if f.ItemShortID != "" {
		q.where = append(q.where, "i.short_id_key = "+q.args.add(stockroom.FoldKey(f.ItemShortID)))
		q.counters = nil
	}
	return q
}

// summedLevels returns the levels summed over owners, of one warehouse or
// summed over the warehouses in scope, and sets the counters that count them.
func summedLevels(q *pageQuery, scope stockroom.Scope, wid int64) string {
	switch {
	case wid != 0:
		q.counters = []string{stockedCounter(wid)}
		return "(SELECT * FROM stock_levels WHERE wid = " + q.args.add(wid) + ")"
	case scope.All:
		q.counters = []string{stockedCounter(0)}
		return "stock_totals"
	}
	return sumLevels("stock_levels", scopeCond("wid", scope, &q.args))
}

// ownerLevels returns the levels of some owners: of one owner as kept, of
// several summed; of one warehouse, or summed over the warehouses in scope.
func ownerLevels(q *pageQuery, scope stockroom.Scope, wid int64, owners stockroom.Scope) string {
	one := len(owners.IDs) == 1
	switch {
	case one && wid != 0:
		q.counters = []string{ownerStockedCounter(wid, owners.IDs[0])}
		return "(SELECT * FROM owner_levels WHERE wid = " + q.args.add(wid) + " AND owner = " + q.args.add(owners.IDs[0]) + ")"
	case one && scope.All:
		q.counters = []string{ownerStockedCounter(0, owners.IDs[0])}
		return "(SELECT * FROM owner_totals WHERE owner = " + q.args.add(owners.IDs[0]) + ")"
	case wid != 0:
		return sumLevels("owner_levels", "wid = "+q.args.add(wid)+" AND "+scopeCond("owner", owners, &q.args))
	case scope.All:
		return sumLevels("owner_totals", scopeCond("owner", owners, &q.args))
	}
	return sumLevels("owner_levels", scopeCond("wid", scope, &q.args)+" AND "+scopeCond("owner", owners, &q.args))
}

// sumLevels sums the rows of a table of levels that meet a condition, per
// item.
func sumLevels(table, cond string) string {
	return `(
			SELECT
				part_no,
				SUM(in_stock) AS in_stock,
				SUM(on_hold) AS on_hold,
				SUM(committed) AS committed,
				SUM(packed) AS packed,
				SUM(on_order) AS on_order,
				SUM(asn) AS asn,
				SUM(available) AS available,
				MAX(modified) AS modified
			FROM ` + table + `
			WHERE ` + cond + `
			GROUP BY part_no)`
}

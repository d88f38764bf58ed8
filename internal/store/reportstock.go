package store

import (
	"context"
	"database/sql"
	"slices"
	"strconv"
	"time"

	"github.com/stockroom/stockroom"
)

// Stock Valuation (15) and Stock Ageing (101) are rows per item and
// warehouse with stock, figured from the lots. A page of them costs what
// the page costs, not what the stock does: the page's rows are read from
// the kept levels in key order (part_no, wid: the primary key's order),
// and only then the lots of the page's items, through the index of lots in
// stock (lots_draw, led by part_no). The count is a count of level rows,
// never of lots.

// stockCell is an item's stock in one warehouse, for a row.
type stockCell struct {
	partNo, wid int64
	itemID      string
}

// stockLot is a lot in stock, as valuation and ageing read it.
type stockLot struct {
	partNo, wid int64
	units       stockroom.Units
	price       stockroom.Units
	received    time.Time
}

// stockedLevels is the run's item-warehouse pairs, those a stock level
// list shows (any figure not zero): the levels summed over owners (owner
// -1), or the run's owners' summed. count counts them: from the kept
// counters of the pairs with stock (stocked:<wid>, or of one owner
// stocked:<wid>:<owner>) where they answer, else COUNT(*).
func stockedLevels(r reportRun, a *args) (pairs, count string, countArgs args) {
	where := []string{"s.wid <> 0", scopeCond("s.wid", r.Warehouses, a)}
	if r.Owners == nil || len(r.Owners.IDs) == 1 {
		counter := "'stocked:' || CAST(wid AS TEXT)"
		if r.Owners == nil {
			where = append(where, "s.owner = -1", levelListed)
		} else {
			where = append(where, "s.owner = "+a.add(r.Owners.IDs[0]), levelListed)
			counter += " || ':' || " + strconv.FormatInt(r.Owners.IDs[0], 10)
		}
		count = `
			SELECT CAST(COALESCE(SUM(value), 0) AS BIGINT)
			FROM counters
			WHERE name IN (SELECT ` + counter + ` FROM warehouses` + whereOf([]string{scopeCond("wid", r.Warehouses, &countArgs)}) + `)`
		return `
			SELECT s.part_no, s.wid
			FROM levels s` + whereOf(where), count, countArgs
	}
	where = append(where, scopeCond("s.owner", *r.Owners, a), levelListed)
	pairs = `
		SELECT DISTINCT s.part_no, s.wid
		FROM levels s` + whereOf(where)
	return pairs, `SELECT COUNT(*) FROM (` + pairs + `) c`, slices.Clone(*a)
}

// levelListed is listedRow of levels s.
const levelListed = `(s.in_stock <> 0 OR s.on_hold <> 0 OR s.committed <> 0 OR s.packed <> 0 OR s.on_order <> 0 OR s.asn <> 0)`

// stockWindows reads the run's pairs in windows, the run's own or, for a
// run of every row (Limit 0), windows of exportBatch pairs read by key
// after the last one's, so that memory holds one window. For each window
// it calls add with each lot in stock of the window's pairs, then rows
// with the pairs in order. It returns the count of all pairs.
func stockWindows(ctx context.Context, tx *sql.Tx, r reportRun, add func(cell int, l stockLot), rows func([]stockCell) error) (int64, error) {
	var a args
	levels, count, countArgs := stockedLevels(r, &a)
	var total int64
	if err := tx.QueryRowContext(ctx, count, countArgs...).Scan(&total); err != nil {
		return 0, err
	}
	var last *stockCell
	for {
		wa := slices.Clone(a)
		var text string
		if r.Limit > 0 {
			text = levels + ` ORDER BY part_no, wid` + r.window(&wa)
		} else {
			text = `SELECT part_no, wid FROM (` + levels + `) k`
			if last != nil {
				text += ` WHERE (part_no, wid) > (` + wa.add(last.partNo) + `, ` + wa.add(last.wid) + `)`
			}
			text += ` ORDER BY part_no, wid LIMIT ` + wa.add(exportBatch)
		}
		cells, err := stockWindow(ctx, tx, text, wa)
		if err != nil || len(cells) == 0 {
			return total, err
		}
		if err := readStockLots(ctx, tx, r, cells, add); err != nil {
			return 0, err
		}
		if err := rows(cells); err != nil {
			return 0, err
		}
		if r.Limit > 0 || len(cells) < exportBatch {
			return total, nil
		}
		last = &cells[len(cells)-1]
	}
}

// stockWindow reads the pairs of window, a statement of (part_no, wid)
// in order, with their items' ShortIDs.
func stockWindow(ctx context.Context, tx *sql.Tx, window string, a args) ([]stockCell, error) {
	rows, err := tx.QueryContext(ctx, `
		SELECT
			p.part_no,
			p.wid,
			(SELECT i.short_id FROM items i WHERE i.part_no = p.part_no)
		FROM (`+window+`) p
		ORDER BY p.part_no, p.wid`, a...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cells []stockCell
	for rows.Next() {
		var c stockCell
		if err := rows.Scan(&c.partNo, &c.wid, &c.itemID); err != nil {
			return nil, err
		}
		cells = append(cells, c)
	}
	return cells, rows.Err()
}

// readStockLots reads the lots in stock of the items from the first cell's
// to the last's (one range of lots_draw) and passes those of a cell to add.
func readStockLots(ctx context.Context, tx *sql.Tx, r reportRun, cells []stockCell, add func(cell int, l stockLot)) error {
	type pair struct{ partNo, wid int64 }
	index := make(map[pair]int, len(cells))
	for i, c := range cells {
		index[pair{c.partNo, c.wid}] = i
	}
	var a args
	where := []string{"shipped IS NULL",
		"part_no >= " + a.add(cells[0].partNo), "part_no <= " + a.add(cells[len(cells)-1].partNo),
		scopeCond("wid", r.Warehouses, &a), r.ownerCond("owner", &a)}
	rows, err := tx.QueryContext(ctx, `
		SELECT
			part_no,
			wid,
			units,
			price,
			received
		FROM lots`+whereOf(where), a...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			l        stockLot
			received int64
		)
		if err := rows.Scan(&l.partNo, &l.wid, &l.units, &l.price, &received); err != nil {
			return err
		}
		l.received = fromMicros(received)
		if i, ok := index[pair{l.partNo, l.wid}]; ok {
			add(i, l)
		}
	}
	return rows.Err()
}

// runValuation is Stock Valuation: each pair's lots valued at their
// prices (stockroom.Valuation: exact, rounded once).
func runValuation(ctx context.Context, tx *sql.Tx, r reportRun, emit func(stockroom.ReportRow) error) (int64, error) {
	sums := map[int]*stockroom.Valuation{}
	return stockWindows(ctx, tx, r, func(i int, l stockLot) {
		if sums[i] == nil {
			sums[i] = new(stockroom.Valuation)
		}
		sums[i].Add(l.units, l.price)
	}, func(cells []stockCell) error {
		for i, c := range cells {
			v := sums[i]
			if v == nil {
				v = new(stockroom.Valuation)
			}
			row := stockroom.ValuationRow{PartNo: c.partNo, ItemID: c.itemID, WID: c.wid,
				Units: v.Units(), UnitCost: v.UnitCost(), TotalValue: v.TotalValue()}
			if err := emit(row); err != nil {
				return err
			}
		}
		clear(sums)
		return nil
	})
}

// runAgeing is Stock Ageing: each pair's lots by whole days since received,
// counted to the run's moment.
func runAgeing(ctx context.Context, tx *sql.Tx, r reportRun, emit func(stockroom.ReportRow) error) (int64, error) {
	buckets := map[int]*[4]stockroom.Units{}
	return stockWindows(ctx, tx, r, func(i int, l stockLot) {
		b := buckets[i]
		if b == nil {
			b = new([4]stockroom.Units)
			buckets[i] = b
		}
		k := stockroom.AgeBucket(stockroom.WholeDays(l.received, r.Now))
		b[k] = b[k].Add(l.units)
	}, func(cells []stockCell) error {
		for i, c := range cells {
			var b [4]stockroom.Units
			if buckets[i] != nil {
				b = *buckets[i]
			}
			row := stockroom.AgeingRow{PartNo: c.partNo, ItemID: c.itemID, WID: c.wid,
				Units: b[0].Add(b[1]).Add(b[2]).Add(b[3]), Days0To30: b[0], Days31To60: b[1], Days61To90: b[2], Over90: b[3]}
			if err := emit(row); err != nil {
				return err
			}
		}
		clear(buckets)
		return nil
	})
}

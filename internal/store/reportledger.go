package store

import (
	"cmp"
	"context"
	"database/sql"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
)

// Inventory Activity (22) and Storage by Owner (103) read the ledger from
// the period's start to now, and no further back: the units at the end of
// the period are the kept levels less what the ledger changed since, and
// the units at its start those less what it changed within. The entries
// come through transactions_time (time, id), a range from `from`, and
// their lines through the lines' primary key (transaction_id, line), a
// range from the least id of those entries (ledgerStart); no index is
// added to the tables every stock change writes. Of a page, only its rows
// look up their items and kept levels.

// ledgerStart is the least id of the entries at or after from (0: none),
// below which no line of them is. It reads the entries from `from` on in
// transactions_time (time, id), index only, as the report then does.
// Written MIN(id) PostgreSQL takes it for the first id in the primary key
// whose time is late enough, expecting one soon since it takes time and id
// as independent; ids follow time, so that read every entry before the
// period (898,000 of 1,000,000 for a month holding a tenth of the ledger:
// 174 ms against 18, docs/performance.md). `id + 0` is not a key, which
// leaves the planner only the range of times.
func ledgerStart(ctx context.Context, tx *sql.Tx, from time.Time) (int64, error) {
	var id sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT MIN(id + 0) FROM transactions WHERE time >= $1`, micros(from)).Scan(&id)
	return id.Int64, err
}

// ledgerLines is the ledger's lines from `from` on (entries from first,
// ledgerStart's), each of a kind: 1 received, 2 issued, 3 moved in, 4
// moved out, 0 none (a move within one warehouse). Units coming back from
// a transit (a transfer's receipt, detailed with its transitSlip; a
// canceled transfer) moved in; a move or transfer's units going out moved
// out. Lines of the run's warehouses, of entries of its owners (an entry
// is one owner's).
func ledgerLines(r reportRun, from time.Time, first int64, a *args) string {
	since, start := a.add(micros(from)), a.add(first)
	where := []string{"l.transaction_id >= " + start, scopeCond("l.wid", r.Warehouses, a), r.ownerCond("t.owner", a)}
	// Each entry's kind for its lines in and out is figured from the entry
	// alone, before the join, so that the join's hash holds narrow rows
	// (not the entries' details): a tenth faster over a month of 1,000,000
	// lines (docs/performance.md).
	return `
		SELECT
			l.part_no,
			l.wid,
			t.owner,
			t.time,
			l.units,
			CASE WHEN l.units > 0 THEN t.in_kind ELSE t.out_kind END AS kind
		FROM (
			SELECT
				id,
				owner,
				time,
				CASE
					WHEN type = 'move' AND to_wid = wid THEN 0
					WHEN type IN ('move', 'transit-cancel')
						OR type = 'transit-receive' AND details LIKE '%"transitSlip":%' THEN 3
					ELSE 1
				END AS in_kind,
				CASE
					WHEN type = 'move' AND to_wid = wid THEN 0
					WHEN type IN ('move', 'transfer') THEN 4
					ELSE 2
				END AS out_kind
			FROM transactions
			WHERE time >= ` + since + ` AND id >= ` + start + `
		) t
		JOIN transaction_lines l ON l.transaction_id = t.id` + whereOf(where)
}

// activity is Inventory Activity's rows, per item and warehouse with
// movement in the period: its movements and what changed after it
// (later).
func activity(r reportRun, first int64, a *args) string {
	to := a.add(micros(r.Params.To))
	sum := func(kind, sign string) string {
		return "SUM(CASE WHEN e.time < " + to + " AND e.kind = " + kind + " THEN " + sign + "e.units ELSE 0 END)"
	}
	return `
		SELECT
			e.part_no,
			e.wid,
			` + sum("1", "") + ` AS received,
			` + sum("2", "-") + ` AS issued,
			` + sum("3", "") + ` AS moved_in,
			` + sum("4", "-") + ` AS moved_out,
			SUM(CASE WHEN e.time >= ` + to + ` THEN e.units ELSE 0 END) AS later
		FROM (` + ledgerLines(r, r.Params.From, first, a) + `) e
		GROUP BY e.part_no, e.wid
		HAVING SUM(CASE WHEN e.time < ` + to + ` AND e.kind <> 0 THEN 1 ELSE 0 END) > 0`
}

// keptOf is the condition on levels s of the kept units of the run's
// owners: the row summed over owners, or the owners' rows. (The owners are
// the principal's, integers written as literals, never a client's text.)
func keptOf(r reportRun) string {
	if r.Owners == nil {
		return "s.owner = -1"
	}
	if r.Owners.All {
		return "s.owner >= 0"
	}
	if len(r.Owners.IDs) == 0 {
		return "1 = 0"
	}
	ids := make([]string, len(r.Owners.IDs))
	for i, id := range r.Owners.IDs {
		ids[i] = strconv.FormatInt(id, 10)
	}
	return "s.owner IN (" + strings.Join(ids, ", ") + ")"
}

// runActivity is Inventory Activity: closing = kept - later; opening =
// closing less the period's movements.
func runActivity(ctx context.Context, tx *sql.Tx, r reportRun, emit func(stockroom.ReportRow) error) (int64, error) {
	first, err := ledgerStart(ctx, tx, r.Params.From)
	if err != nil {
		return 0, err
	}
	var a, ca args
	countSQL := `SELECT COUNT(*) FROM (` + activity(r, first, &ca) + `) c`
	text := `
		SELECT
			g.part_no,
			(SELECT i.short_id FROM items i WHERE i.part_no = g.part_no),
			g.wid,
			g.received,
			g.issued,
			g.moved_in,
			g.moved_out,
			g.later,
			(SELECT COALESCE(SUM(s.in_stock), 0) FROM levels s
				WHERE s.part_no = g.part_no AND s.wid = g.wid AND ` + keptOf(r) + `),
			g.total
		FROM (
			SELECT x.*, COUNT(*) OVER () AS total
			FROM (` + activity(r, first, &a) + `) x
			ORDER BY x.part_no, x.wid` + r.window(&a) + `) g
		ORDER BY g.part_no, g.wid`
	q := countedQuery{text: text, args: a, countText: countSQL, countArgs: ca}
	return q.run(ctx, tx,
		func(row scanner) (stockroom.ReportRow, error) {
			var (
				v           stockroom.ActivityRow
				later, kept stockroom.Units
			)
			err := row.Scan(&v.PartNo, &v.ItemID, &v.WID, &v.Received, &v.Issued, &v.MovedIn, &v.MovedOut, &later, &kept)
			v.Closing = kept.Sub(later)
			v.Opening = v.Closing.Sub(v.Received).Add(v.Issued).Sub(v.MovedIn).Add(v.MovedOut)
			return v, err
		}, emit)
}

// storageKey is an owner's stock in a warehouse.
type storageKey struct{ owner, wid int64 }

// storageCell is what Storage by Owner gathers of one key.
type storageCell struct {
	kept, later, period stockroom.Units
	// weighted sums each of the period's changes by how long after the
	// period's start it came.
	weighted stockroom.UnitDays
}

// runStorage is Storage by Owner: units at the period's end (closing) are
// kept less later changes; unit-days are closing × the period less each
// change × the time from the period's start to it (a change of u at s
// held u for to - s, and closing counts it for the whole period).
func runStorage(ctx context.Context, tx *sql.Tx, r reportRun, emit func(stockroom.ReportRow) error) (int64, error) {
	cells, err := storageCells(ctx, tx, r)
	if err != nil {
		return 0, err
	}
	keys := make([]storageKey, 0, len(cells))
	for k := range cells {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y storageKey) int {
		return cmp.Or(cmp.Compare(x.owner, y.owner), cmp.Compare(x.wid, y.wid))
	})
	var rows []stockroom.StorageRow
	for _, k := range keys {
		c := cells[k]
		closing := c.kept.Sub(c.later)
		var days stockroom.UnitDays
		days.Add(closing, r.Params.From, r.Params.To)
		days.Sub(&c.weighted)
		row := stockroom.StorageRow{Owner: k.owner, WID: k.wid, Opening: closing.Sub(c.period), Closing: closing, UnitDays: days.Total()}
		if !row.Opening.IsZero() || !row.Closing.IsZero() || !row.UnitDays.IsZero() {
			rows = append(rows, row)
		}
	}
	return emitWindow(r, rows, emit)
}

// storageCells reads the kept units per owner and warehouse and the
// ledger's changes to them since the period's start.
func storageCells(ctx context.Context, tx *sql.Tx, r reportRun) (map[storageKey]*storageCell, error) {
	cells := map[storageKey]*storageCell{}
	cell := func(k storageKey) *storageCell {
		if cells[k] == nil {
			cells[k] = &storageCell{}
		}
		return cells[k]
	}
	var a args
	where := []string{"wid <> 0", "owner >= 0", scopeCond("wid", r.Warehouses, &a), r.ownerCond("owner", &a)}
	err := eachRow(ctx, tx, `
		SELECT owner, wid, SUM(in_stock)
		FROM levels`+whereOf(where)+`
		GROUP BY owner, wid`, func(row *sql.Rows) error {
		var (
			k    storageKey
			kept stockroom.Units
		)
		err := row.Scan(&k.owner, &k.wid, &kept)
		cell(k).kept = kept
		return err
	}, a...)
	if err != nil {
		return nil, err
	}
	first, err := ledgerStart(ctx, tx, r.Params.From)
	if err != nil {
		return nil, err
	}
	a = nil
	err = eachRow(ctx, tx, `
		SELECT e.owner, e.wid, e.time, SUM(e.units)
		FROM (`+ledgerLines(r, r.Params.From, first, &a)+`) e
		GROUP BY e.owner, e.wid, e.time`, func(row *sql.Rows) error {
		var (
			k     storageKey
			at    int64
			units stockroom.Units
		)
		if err := row.Scan(&k.owner, &k.wid, &at, &units); err != nil {
			return err
		}
		c, when := cell(k), fromMicros(at)
		if !when.Before(r.Params.To) {
			c.later = c.later.Add(units)
			return nil
		}
		c.period = c.period.Add(units)
		c.weighted.Add(units, r.Params.From, when)
		return nil
	}, a...)
	return cells, err
}

package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"time"

	"github.com/stockroom/stockroom"
)

// runExpiring is Expiring Lots: lots in stock expiring at or before the
// run's moment plus days × 24 h, soonest first. (Lots have no index by
// expiry: this reads the lots in stock of the run's warehouses, which
// an index on a column of the table every draw writes would not save
// enough to pay for.)
func runExpiring(ctx context.Context, tx *sql.Tx, r reportRun, emit func(stockroom.ReportRow) error) (int64, error) {
	var a args
	horizon := r.Now.Add(time.Duration(r.Params.Days) * 24 * time.Hour)
	where := []string{"l.shipped IS NULL", "l.expires IS NOT NULL", "l.expires <= " + a.add(micros(horizon)),
		scopeCond("l.wid", r.Warehouses, &a), r.ownerCond("l.owner", &a)}
	from := `
		FROM lots l
		JOIN items i ON i.part_no = l.part_no` + whereOf(where)
	text := `
		SELECT
			l.rec_no,
			l.part_no,
			i.short_id,
			l.wid,
			l.owner,
			l.spot,
			l.serial,
			l.units,
			l.expires,
			COUNT(*) OVER ()` + from + `
		ORDER BY l.expires, l.rec_no` + r.window(&a)
	return windowed(text, a, `SELECT COUNT(*)`+from).run(ctx, tx, func(row scanner) (stockroom.ReportRow, error) {
		var (
			v       stockroom.ExpiringLotRow
			expires int64
		)
		err := row.Scan(&v.RecNo, &v.PartNo, &v.ItemID, &v.WID, &v.Owner, &v.Spot, &v.Serial, &v.Units, &expires)
		v.Expires = fromMicros(expires)
		v.DaysLeft = stockroom.WholeDays(r.Now, v.Expires)
		return v, err
	}, emit)
}

// Lot Trace (105) follows lots through the ledger of their items: the
// item's entries (by transactions_part_no, and transaction_items for
// entries of several items) with their lines (by the lines' key), in id
// order, in which a lot is always made before an entry names it. A move's
// lines come in pairs, the lot drawn then the lot put: a put lot that is
// not the drawn one was split from it. A transfer's receipt copies the
// lot its details name (recno). The ledger's lines have no index by lot,
// and gain none here: every stock change writes them.

// traceLine is one ledger line of a traced item.
type traceLine struct {
	row     stockroom.TraceRow
	owner   int64
	details string
}

// runTrace is Lot Trace: the lines of the lots followed, those of the
// run's warehouses and owners.
func runTrace(ctx context.Context, tx *sql.Tx, r reportRun, emit func(stockroom.ReportRow) error) (int64, error) {
	roots, err := traceRoots(ctx, tx, r.Params)
	if err != nil {
		return 0, err
	}
	var rows []stockroom.TraceRow
	for partNo, recNos := range roots.byItem() {
		lines, err := itemLedger(ctx, tx, partNo)
		if err != nil {
			return 0, err
		}
		for _, l := range followLots(lines, recNos) {
			if r.Warehouses.Contains(l.row.WID) && (r.Owners == nil || r.Owners.Contains(l.owner)) {
				rows = append(rows, l.row)
			}
		}
	}
	sortTrace(rows)
	return emitWindow(r, rows, emit)
}

// traceRoot is a lot a trace starts from.
type traceRoot struct{ recNo, partNo int64 }

type lotRoots []traceRoot

// byItem groups the roots' lots by item.
func (rs lotRoots) byItem() map[int64]map[int64]bool {
	out := map[int64]map[int64]bool{}
	for _, r := range rs {
		if out[r.partNo] == nil {
			out[r.partNo] = map[int64]bool{}
		}
		out[r.partNo][r.recNo] = true
	}
	return out
}

// traceRoots finds the lots a trace starts from: the one lot, or every
// lot with the serial (lots split or copied keep it).
func traceRoots(ctx context.Context, tx *sql.Tx, p stockroom.ReportParams) (lotRoots, error) {
	query, arg := `SELECT rec_no, part_no FROM lots WHERE rec_no = $1`, any(p.RecNo)
	if p.Serial != "" {
		query, arg = `SELECT rec_no, part_no FROM lots WHERE serial = $1`, p.Serial
	}
	var roots lotRoots
	err := eachRow(ctx, tx, query, func(row *sql.Rows) error {
		var r traceRoot
		err := row.Scan(&r.recNo, &r.partNo)
		roots = append(roots, r)
		return err
	}, arg)
	return roots, err
}

// itemLedger reads the ledger lines of an item, in entry and line order.
func itemLedger(ctx context.Context, tx *sql.Tx, partNo int64) ([]traceLine, error) {
	var lines []traceLine
	err := eachRow(ctx, tx, `
		SELECT
			t.id,
			l.line,
			t.time,
			t.type,
			l.rec_no,
			l.part_no,
			i.short_id,
			l.wid,
			l.spot,
			l.units,
			t.reference,
			t.owner,
			t.details
		FROM transactions t
		JOIN transaction_lines l ON l.transaction_id = t.id
		JOIN items i ON i.part_no = l.part_no
		WHERE (t.part_no = $1 OR t.id IN (SELECT transaction_id FROM transaction_items WHERE part_no = $1))
			AND l.part_no = $1
		ORDER BY t.id, l.line`, func(row *sql.Rows) error {
		var (
			l  traceLine
			at int64
		)
		err := row.Scan(&l.row.TransactionID, &l.row.Line, &at, &l.row.Type, &l.row.RecNo, &l.row.PartNo, &l.row.ItemID,
			&l.row.WID, &l.row.Spot, &l.row.Units, &l.row.Reference, &l.owner, &l.details)
		l.row.Time = fromMicros(at)
		lines = append(lines, l)
		return err
	}, partNo)
	return lines, err
}

// followLots returns the lines of the lots in traced and of every lot
// split or copied from one of them, adding those to traced as it meets
// them.
func followLots(lines []traceLine, traced map[int64]bool) []traceLine {
	var out []traceLine
	for i, l := range lines {
		if !traced[l.row.RecNo] && l.row.Units.Sign() > 0 {
			switch {
			case l.row.Type == stockroom.TxMove && i > 0 && lines[i-1].row.TransactionID == l.row.TransactionID &&
				traced[lines[i-1].row.RecNo]:
				traced[l.row.RecNo] = true
			case l.row.Type == stockroom.TxTransitReceive && traced[copiedLot(l.details)]:
				traced[l.row.RecNo] = true
			}
		}
		if traced[l.row.RecNo] {
			out = append(out, l)
		}
	}
	return out
}

// copiedLot is the lot a transfer's receipt copied, from its details; 0
// for none.
func copiedLot(details string) int64 {
	var d struct {
		RecNo int64 `json:"recno"`
	}
	_ = json.Unmarshal([]byte(details), &d) // details are the ledger's own JSON; anything else copied no lot
	return d.RecNo
}

// sortTrace puts the lines of several items' traces in ledger order.
func sortTrace(rows []stockroom.TraceRow) {
	slices.SortFunc(rows, func(x, y stockroom.TraceRow) int {
		return cmp.Or(cmp.Compare(x.TransactionID, y.TransactionID), cmp.Compare(x.Line, y.Line))
	})
}

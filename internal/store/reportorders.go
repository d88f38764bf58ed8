package store

import (
	"context"
	"database/sql"

	"github.com/stockroom/stockroom"
)

// Open Purchase Orders (47) and Open Shipping Orders (104): lines of open
// orders, in order and line order, each line judged by its warehouse and
// owner as the run's scope says (Principal.SeesLine's rule, as SQL).

// openLines is the FROM and WHERE of the lines of open orders of kind
// with units still open (cond), as the run's scope sees them.
func openLines(r reportRun, kind, cond string, a *args) string {
	where := []string{"o.kind = '" + kind + "'", openOrder, cond,
		scopeCond("l.wid", r.Warehouses, a), r.ownerCond("l.owner", a)}
	return `
		FROM orders o
		JOIN order_lines l ON l.order_id = o.id
		JOIN items i ON i.part_no = l.part_no` + whereOf(where)
}

// runOpenPurchase is Open Purchase Orders: lines with units still to
// arrive; due is what is neither in transit nor arrived
// (PurchaseLine.Due).
func runOpenPurchase(ctx context.Context, tx *sql.Tx, r reportRun, emit func(stockroom.ReportRow) error) (int64, error) {
	var a args
	from := openLines(r, "purchase", "l.units - l.received - l.rejected > 0", &a)
	text := `
		SELECT
			o.order_no,
			l.line_no,
			COALESCE((SELECT p.short_id FROM parties p WHERE p.id = o.party), ''),
			o.due_date,
			l.part_no,
			i.short_id,
			l.wid,
			l.owner,
			l.units,
			l.received,
			l.in_transit,
			l.rejected,
			COUNT(*) OVER ()` + from + `
		ORDER BY o.id, l.line_no` + r.window(&a)
	return windowed(text, a, `SELECT COUNT(*)`+from).run(ctx, tx, func(row scanner) (stockroom.ReportRow, error) {
		var (
			v   stockroom.OpenPurchaseRow
			due sql.NullInt64
		)
		err := row.Scan(&v.PONo, &v.Line, &v.VendorID, &due, &v.PartNo, &v.ItemID, &v.WID, &v.Owner,
			&v.Units, &v.Received, &v.InTransit, &v.Rejected)
		v.DueDate = optTime(due)
		line := stockroom.PurchaseLine{OrderLine: stockroom.OrderLine{Units: v.Units}, UnitsReceived: v.Received, UnitsInTransit: v.InTransit, UnitsRejected: v.Rejected}
		v.Due = line.Due(stockroom.OrderOpen)
		return v, err
	}, emit)
}

// runOpenShipping is Open Shipping Orders: lines not fully shipped, with
// the available units of the line's item, warehouse and owner, and what of
// the line's unallocated units they do not cover (short).
func runOpenShipping(ctx context.Context, tx *sql.Tx, r reportRun, emit func(stockroom.ReportRow) error) (int64, error) {
	var a args
	from := openLines(r, "shipping", "l.units > l.shipped", &a)
	text := `
		SELECT
			o.order_no,
			l.line_no,
			o.due_date,
			l.part_no,
			i.short_id,
			l.wid,
			l.owner,
			l.units,
			l.committed,
			l.packed,
			l.shipped,
			COALESCE((SELECT s.available FROM levels s WHERE s.part_no = l.part_no AND s.wid = l.wid AND s.owner = l.owner), 0),
			COUNT(*) OVER ()` + from + `
		ORDER BY o.id, l.line_no` + r.window(&a)
	return windowed(text, a, `SELECT COUNT(*)`+from).run(ctx, tx, func(row scanner) (stockroom.ReportRow, error) {
		var (
			v   stockroom.OpenShippingRow
			due sql.NullInt64
		)
		err := row.Scan(&v.SONo, &v.Line, &due, &v.PartNo, &v.ItemID, &v.WID, &v.Owner,
			&v.Units, &v.Committed, &v.Packed, &v.Shipped, &v.Available)
		v.DueDate = optTime(due)
		v.Open = v.Units.Sub(v.Shipped)
		unallocated := v.Open.Sub(v.Committed).Sub(v.Packed)
		if short := unallocated.Sub(v.Available); short.Sign() > 0 {
			v.Short = short
		}
		return v, err
	}, emit)
}

package store

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/stockroom/stockroom"
)

// allocLines are the allocations with their lines' item, warehouse and
// owner: rows of part_no, wid, owner and the figure named.
func allocLines(figure string) string {
	return `
		SELECT l.part_no, l.wid, l.owner, a.` + figure + ` AS units
		FROM allocations a JOIN order_lines l ON l.order_id = a.order_id AND l.line_no = a.line_no`
}

// allocChecks hold the lots' allocated units, the lines' committed and
// packed, and the levels' committed and packed to the allocations behind
// them, and the levels' to the ledger.
var allocChecks = []auditCheck{
	{`SELECT l.rec_no, l.allocated, COALESCE(a.units, 0), l.units
	  FROM lots l LEFT JOIN (
		SELECT rec_no, SUM(committed + packed) AS units FROM allocations GROUP BY rec_no
	  ) a ON a.rec_no = l.rec_no
	  WHERE l.allocated <> COALESCE(a.units, 0) OR l.allocated > l.units OR l.allocated < 0`,
		1, "lot %d: %s units allocated, its allocations sum to %s, it holds %s"},
	{`SELECT rec_no, allocated FROM lots WHERE hold AND allocated <> 0`,
		1, "lot %d is on hold with %s units allocated"},
	{`SELECT a.order_id, a.line_no, a.rec_no
	  FROM allocations a
	  JOIN order_lines l ON l.order_id = a.order_id AND l.line_no = a.line_no
	  JOIN lots s ON s.rec_no = a.rec_no
	  WHERE s.part_no <> l.part_no OR s.wid <> l.wid OR s.owner <> l.owner`,
		3, "order %d line %d: its allocated lot %d is not of its item, warehouse and owner"},
	{`SELECT a.order_id, a.line_no, a.rec_no
	  FROM allocations a JOIN orders o ON o.id = a.order_id
	  WHERE o.status IN ('Closed', 'Canceled') OR o.kind = 'purchase'`,
		3, "order %d line %d: lot %d is allocated to an order that has ended or takes no stock out"},
	{`SELECT l.order_id, l.line_no, l.committed, COALESCE(a.committed, 0), l.packed, COALESCE(a.packed, 0)
	  FROM order_lines l LEFT JOIN (
		SELECT order_id, line_no, SUM(committed) AS committed, SUM(packed) AS packed
		FROM allocations GROUP BY order_id, line_no
	  ) a ON a.order_id = l.order_id AND a.line_no = l.line_no
	  WHERE l.committed <> COALESCE(a.committed, 0) OR l.packed <> COALESCE(a.packed, 0)`,
		2, "order %d line %d: committed %s, its allocations %s; packed %s, its allocations %s"},
	{`SELECT order_id, line_no, committed, packed, shipped, units
	  FROM order_lines
	  WHERE committed + packed + shipped > units`,
		2, "order %d line %d: committed %s, packed %s and shipped %s are more than its %s units"},
	figureAgreement("committed", allocLines("committed"), "allocations"),
	figureAgreement("packed", allocLines("packed"), "allocations"),
}

// auditShipped holds each outbound line's shipped units to what the
// ledger's ship and assemble entries for it add up to, and each work
// order's completed units to its assemble entries' units (the products
// received). A ship entry's details name the order's number and the line;
// an assemble entry's the work order's number and, per component line
// (components), the units it consumed. (Completions before migration 15
// wrote an entry per component, with the line in its details, and one for
// the products, without.)
func auditShipped(ctx context.Context, tx *sql.Tx, report func(string, ...any)) error {
	type lineKey struct {
		kind stockroom.OrderKind
		no   string // case-folded
		line int64
	}
	ledger := map[lineKey]stockroom.Units{}
	built := map[string]stockroom.Units{} // work order's folded number -> products received
	err := eachRow(ctx, tx, `SELECT units, details FROM transactions WHERE type IN ('ship', 'assemble')`, func(r *sql.Rows) error {
		var (
			units   stockroom.Units
			details string
			d       struct {
				SONo       *string `json:"soNo"`
				WONo       *string `json:"woNo"`
				Line       int64   `json:"line"`
				Components []struct {
					Line  int64           `json:"line"`
					Units stockroom.Units `json:"units"`
				} `json:"components"`
			}
		)
		if err := r.Scan(&units, &details); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(details), &d); err != nil {
			return err
		}
		k := lineKey{line: d.Line}
		switch {
		case d.SONo != nil:
			k.kind, k.no = stockroom.OrderKindShipping, stockroom.FoldKey(*d.SONo)
		case d.WONo != nil:
			k.kind, k.no = stockroom.OrderKindWork, stockroom.FoldKey(*d.WONo)
			for _, c := range d.Components {
				ck := lineKey{k.kind, k.no, c.Line}
				ledger[ck] = ledger[ck].Add(c.Units)
			}
			if d.Line == 0 {
				built[k.no] = built[k.no].Add(units)
				return nil
			}
		}
		ledger[k] = ledger[k].Add(units)
		return nil
	})
	if err != nil {
		return err
	}
	err = eachRow(ctx, tx, `
		SELECT o.kind, o.order_no, l.line_no, l.shipped
		FROM order_lines l JOIN orders o ON o.id = l.order_id
		WHERE o.kind <> 'purchase'`, func(r *sql.Rows) error {
		var (
			k       lineKey
			no      string
			shipped stockroom.Units
		)
		if err := r.Scan(&k.kind, &no, &k.line, &shipped); err != nil {
			return err
		}
		k.no = stockroom.FoldKey(no)
		if got := ledger[k]; got != shipped {
			report("%s %s line %d: shipped %s, its ship entries add up to %s", k.kind.Noun(), no, k.line, shipped, got)
		}
		delete(ledger, k)
		return nil
	})
	for k, units := range ledger {
		report("ship entries of %s line %d add up to %s, but it has no such line", k.no, k.line, units)
	}
	if err != nil {
		return err
	}
	return auditCompleted(ctx, tx, built, report)
}

// auditCompleted holds each work order's completed units to what its
// products' assemble entries add up to (built, by folded number).
func auditCompleted(ctx context.Context, tx *sql.Tx, built map[string]stockroom.Units, report func(string, ...any)) error {
	err := eachRow(ctx, tx, `
		SELECT o.order_no, w.completed
		FROM work_orders w JOIN orders o ON o.id = w.order_id`, func(r *sql.Rows) error {
		var (
			no        string
			completed stockroom.Units
		)
		if err := r.Scan(&no, &completed); err != nil {
			return err
		}
		if got := built[stockroom.FoldKey(no)]; got != completed {
			report("Work order %s: completed %s, its products' assemble entries add up to %s", no, completed, got)
		}
		delete(built, stockroom.FoldKey(no))
		return nil
	})
	for no, units := range built {
		report("assemble entries of work order %s's products add up to %s, but there is no such order", no, units)
	}
	return err
}

package store

import "fmt"

// levelSumChecks compare, figure by figure, the levels summed over owners
// (per item and warehouse), over warehouses per owner, and over both, with
// the sums of the finer grain they are kept beside.
func levelSumChecks() []auditCheck {
	var checks []auditCheck
	for _, f := range levelFigures {
		checks = append(checks,
			sumAgreement(f, grainSum{"stock_levels", "owner_levels", "part_no, wid",
				2, "item %d in warehouse %d: " + f + " %s, owners sum to %s"}),
			sumAgreement(f, grainSum{"owner_totals", "owner_levels", "part_no, owner",
				2, "item %d, owner %d: all-warehouse " + f + " %s, warehouses sum to %s"}),
			sumAgreement(f, grainSum{"stock_totals", "stock_levels", "part_no",
				1, "item %d: all-warehouse " + f + " %s, warehouses sum to %s"}),
		)
	}
	return checks
}

// grainSum is a grain of levels kept beside the finer one it sums: the
// views kept and finer, the key columns kept has one row per, and the
// audit's report of a row that disagrees (its ids key columns first).
type grainSum struct {
	kept, finer, key string
	ids              int
	format           string
}

// sumAgreement returns the check that figure of each row of g.kept (one
// row per key) equals the sum of figure over the rows of g.finer with that
// key, a missing row counting as 0. Both sides go into one grouping rather
// than a FULL OUTER JOIN of kept with finer's sums: SQLite plans that join
// as a scan of the sums for each kept row (minutes at 50,000 levels), while
// one pass over both tables takes a few milliseconds on either engine.
func sumAgreement(figure string, g grainSum) auditCheck {
	return auditCheck{fmt.Sprintf(`SELECT %[3]s, SUM(kept), SUM(finer)
	  FROM (
		SELECT %[3]s, %[4]s AS kept, 0 AS finer FROM %[1]s
		UNION ALL SELECT %[3]s, 0, %[4]s FROM %[2]s
	  ) b
	  GROUP BY %[3]s
	  HAVING SUM(kept) <> SUM(finer)`, g.kept, g.finer, g.key, figure), g.ids, g.format}
}

// openOrder is the condition of an order (alias o) still open.
const openOrder = `o.status NOT IN ('Closed', 'Canceled')`

// openTransit is the condition of a transit (alias r) still on its way.
const openTransit = `r.status IN ('InTransit', 'Partial')`

// figureAgreement returns the check that a kept figure of owner_levels
// equals what the orders or transits in due say is owed (rows of part_no,
// wid, owner, units) and what the ledger's figures add up to.
func figureAgreement(figure, due, what string) auditCheck {
	return auditCheck{`SELECT k.part_no, k.wid, k.owner, COALESCE(s.` + figure + `, 0), COALESCE(d.units, 0), COALESCE(g.units, 0)
	  FROM (
		SELECT part_no, wid, owner FROM owner_levels WHERE ` + figure + ` <> 0
		UNION SELECT part_no, wid, owner FROM (` + due + `) d0
		UNION SELECT f.part_no, f.wid, t.owner FROM transaction_figures f JOIN transactions t ON t.id = f.transaction_id
		WHERE f.` + figure + ` <> 0
	  ) k
	  LEFT JOIN owner_levels s ON s.part_no = k.part_no AND s.wid = k.wid AND s.owner = k.owner
	  LEFT JOIN (
		SELECT part_no, wid, owner, SUM(units) AS units FROM (` + due + `) d1 GROUP BY part_no, wid, owner
	  ) d ON d.part_no = k.part_no AND d.wid = k.wid AND d.owner = k.owner
	  LEFT JOIN (
		SELECT f.part_no, f.wid, t.owner, SUM(f.` + figure + `) AS units
		FROM transaction_figures f JOIN transactions t ON t.id = f.transaction_id
		GROUP BY f.part_no, f.wid, t.owner
	  ) g ON g.part_no = k.part_no AND g.wid = k.wid AND g.owner = k.owner
	  WHERE COALESCE(s.` + figure + `, 0) <> COALESCE(d.units, 0) OR COALESCE(s.` + figure + `, 0) <> COALESCE(g.units, 0)`,
		3, "item %d in warehouse %d, owner %d: " + figure + " %s, " + what + " %s, ledger %s"}
}

// orderChecks hold the inbound figures to the orders and transits behind
// them.
var orderChecks = []auditCheck{
	figureAgreement("on_order", `
		SELECT l.part_no, l.wid, l.owner,
			CASE WHEN l.units - l.received - l.in_transit - l.rejected > 0
				THEN l.units - l.received - l.in_transit - l.rejected ELSE 0 END AS units
		FROM order_lines l JOIN orders o ON o.id = l.order_id
		WHERE o.kind = 'purchase' AND `+openOrder, "open purchase lines due"),
	figureAgreement("asn", `
		SELECT l.part_no, r.to_wid AS wid, l.owner, l.units - l.received - l.rejected AS units
		FROM transit_lines l JOIN transits r ON r.id = l.transit_id
		WHERE `+openTransit, "open transits due"),
	{`SELECT o.id, l.line_no, l.in_transit, COALESCE(n.units, 0)
	  FROM order_lines l JOIN orders o ON o.id = l.order_id
	  LEFT JOIN (
		SELECT r.order_id, tl.order_line, SUM(tl.units - tl.received - tl.rejected) AS units
		FROM transit_lines tl JOIN transits r ON r.id = tl.transit_id
		WHERE r.kind = 'asn' AND ` + openTransit + `
		GROUP BY r.order_id, tl.order_line
	  ) n ON n.order_id = o.id AND n.order_line = l.line_no
	  WHERE o.kind = 'purchase' AND l.in_transit <> COALESCE(n.units, 0)`,
		2, "purchase order %d line %d: %s units in transit, its open notices carry %s"},
}

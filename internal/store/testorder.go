package store

import (
	"context"
	"time"

	"github.com/stockroom/stockroom"
)

// PurchaseLineForTest is a line of an order placed by
// PlacePurchaseOrderForTest.
type PurchaseLineForTest struct {
	PartNo, WID, Owner int64
	Units, UnitPrice   stockroom.Units
}

// PlacePurchaseOrderForTest places an open purchase order numbered no from
// vendor with lines numbered from 1, counting their units in onOrder (the
// levels and the ledger's figures, one entry per line) so that the audit
// holds. The tests of transits use it until purchase orders have an API;
// nothing else should.
func (db *DB) PlacePurchaseOrderForTest(ctx context.Context, no string, vendor int64, lines []PurchaseLineForTest, now time.Time) error {
	return db.updateNoResult(ctx, func(t *Tx) error {
		var id int64
		t.queryRow(nil, `
			INSERT INTO orders (kind, order_no, order_no_key, party, order_date, due_date, status, reference, remark, created, modified)
			VALUES ('purchase', $1, $2, $3, $4, NULL, 'Open', '', '', $4, $4)
			RETURNING id`, []any{no, stockroom.FoldKey(no), vendor, micros(now)}, &id)
		if err := t.flush(); err != nil {
			return err
		}
		var changes []levelChange
		heads := make([]int64, len(lines))
		for i, l := range lines {
			t.exec(`
				INSERT INTO order_lines (order_id, line_no, part_no, wid, owner, units, received, in_transit, rejected, unit_price)
				VALUES ($1, $2, $3, $4, $5, $6, 0, 0, 0, $7)`, id, i+1, l.PartNo, l.WID, l.Owner, l.Units, l.UnitPrice)
			changes = append(changes, levelChange{partNo: l.PartNo, wid: l.WID, owner: l.Owner, onOrder: l.Units})
			head := ledgerHead{typ: "purchase-order-for-test", partNo: l.PartNo, wid: l.WID, owner: l.Owner, units: l.Units,
				entry: stockroom.LedgerEntry{ClientID: "tester", Time: now, Reference: no}}
			if err := t.appendHead(head, &heads[i]); err != nil {
				return err
			}
		}
		lv := t.changeLevels(now, changes...)
		if err := t.flush(); err != nil {
			return err
		}
		counts := countChanges{}
		if err := lv.settle(counts); err != nil {
			return err
		}
		for i, l := range lines {
			t.appendFigures(heads[i], []ledgerFigure{{wid: l.WID, onOrder: l.Units}})
		}
		t.addCounts(counts)
		return nil
	})
}

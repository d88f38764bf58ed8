package store

import (
	"context"

	"github.com/stockroom/stockroom"
)

// Receive stores a new lot and returns it with its ledger transaction,
// recording key's answer in the same transaction. It returns
// stockroom.ErrDiscontinued for a discontinued item.
func (db *DB) Receive(ctx context.Context, key *stockroom.IdempotencyKey, r stockroom.Receipt, e stockroom.LedgerEntry) (stockroom.ReceiveResult, error) {
	var res stockroom.ReceiveResult
	var item int64 // a receipt against an order writes the order's line too
	if r.Order == nil {
		item = r.PartNo
	}
	err := db.updateItem(ctx, key, item, func(tx *Tx) (any, error) {
		all, err := tx.receive([]stockroom.Receipt{r}, e)
		if err != nil {
			return nil, err
		}
		res = all[0]
		return res, nil
	})
	return res, err
}

// ReceiveMany stores many receipts in one transaction, each as its own lot
// and ledger transaction, exactly as Receive would. It is for bulk loads (the
// demo command) and returns how many lots it stored.
func (db *DB) ReceiveMany(ctx context.Context, rs []stockroom.Receipt, e stockroom.LedgerEntry) (int, error) {
	err := db.updateNoResult(ctx, func(tx *Tx) error {
		_, err := tx.receive(rs, e)
		return err
	})
	if err != nil {
		return 0, err
	}
	return len(rs), nil
}

// receiveLot inserts a lot made by a receipt, but only while its item is not
// discontinued, its warehouse is active and its owner (a customer, $11) is
// active, and, for a receipt that took its item's default owner ($25 not
// 0), while that is still the item's default: checked in the same
// statement, so no change slips between. A receipt against a purchase order
// line (order number key $23, line $24) without a price ($18) or supplier
// ($20) takes the line's unit price and the order's vendor, as they are in
// the receipt's transaction. It returns the new row and the names it is
// shown with: its owner's (its associate), its item's ShortID and
// description, its warehouse's. (Those come with the row, rather than from
// statements of their own, because a receive is the commonest write.)
var receiveLot = `
	INSERT INTO lots (associate, ` + lotColumns + `)
	SELECT '', i.part_no, ` + params(2, 17) + `,
		CASE WHEN CAST($18 AS BIGINT) <> 0 THEN $18 ELSE COALESCE(l.unit_price, $18) END,
		$19,
		CASE WHEN CAST($20 AS BIGINT) <> 0 THEN $20 ELSE COALESCE(o.party, $20) END,
		` + params(21, len(lotValues(stockroom.Lot{}))) + `
	FROM items i
	LEFT JOIN orders o ON o.kind = 'purchase' AND o.order_no_key = $23
	LEFT JOIN order_lines l ON l.order_id = o.id AND l.line_no = $24
	WHERE i.part_no = $1
	  AND NOT i.discontinued
	  AND EXISTS (SELECT 1 FROM warehouses WHERE wid = $2 AND active)
	  AND (CAST($11 AS BIGINT) = 0 OR EXISTS (
		SELECT 1 FROM parties WHERE id = $11 AND kind = 'customer' AND active))
	  AND (CAST($25 AS BIGINT) = 0 OR i.dflt_owner = $11)
	RETURNING rec_no, ` + lotColumns + `,
		COALESCE((SELECT p.name FROM parties p WHERE p.id = lots.owner), ''),
		(SELECT short_id FROM items WHERE part_no = lots.part_no),
		(SELECT description FROM items WHERE part_no = lots.part_no),
		(SELECT name FROM warehouses WHERE wid = lots.wid)`

// receivedNames lists where the names receiveLot returns after the row are
// scanned to.
func receivedNames(l *stockroom.Lot) []any {
	return []any{&l.Associate, &l.ShortID, &l.Description, &l.Warehouse}
}

// receiveLotArgs are receiveLot's arguments for a receipt's lot.
func receiveLotArgs(r stockroom.Receipt, lot stockroom.Lot) []any {
	var key, line any
	if r.Order != nil {
		key, line = stockroom.FoldKey(r.Order.PONo), r.Order.Line
	}
	isDefault := 0
	if r.OwnerIsDefault {
		isDefault = 1
	}
	return append(append([]any{r.PartNo}, lotValues(lot)[1:]...), key, line, isDefault)
}

// receive stores the receipts' lots in two round trips on PostgreSQL
// however many there are: the purchase order lines received against, the
// lots, ledger rows and levels, then the ledger lines, what the lines' orders
// owe (purchasereceive.go) and the counts with the commit.
func (t *Tx) receive(rs []stockroom.Receipt, e stockroom.LedgerEntry) ([]stockroom.ReceiveResult, error) {
	return t.receiveAs(stockroom.TxReceive, rs, e)
}

// receiveAs is receive recording the receipts under ledger type typ (a
// work order's products: assemble).
func (t *Tx) receiveAs(typ stockroom.TxType, rs []stockroom.Receipt, e stockroom.LedgerEntry) ([]stockroom.ReceiveResult, error) {
	out, _, err := t.receiveEach(typ, rs, func(int) stockroom.LedgerEntry { return e })
	return out, err
}

// receiveEach is receiveAs with a ledger entry of each receipt's own,
// entry(i) (an atomic batch's receipts, each with its own entry, in the
// same two round trips). On a refusal it also returns the index of the
// receipt refused, −1 when it is not one receipt's (a figure past the
// largest, which several may have made). A run of receipts goes as one
// statement per kind on PostgreSQL (receiverun.go), else statements of
// each receipt's own.
func (t *Tx) receiveEach(typ stockroom.TxType, rs []stockroom.Receipt, entry func(int) stockroom.LedgerEntry) ([]stockroom.ReceiveResult, int, error) {
	e := entry(0) // what the receipts share: their lots' time, their levels' events, the orders' time
	run, asRun := newReceiptRun(len(rs)), t.asRun(rs)
	orders := t.lockReceiptLines(rs, e.Time)
	at, err := -1, error(nil)
	if asRun {
		err = t.queueRun(typ, rs, entry, run)
	} else {
		at, err = t.queueEach(typ, rs, entry, run)
	}
	if err != nil {
		return nil, at, err
	}
	lv := t.changeLevels(e, receiptLevels(rs)...)
	if err := t.Flush(); err != nil {
		return nil, -1, err
	}
	for i, r := range rs { // before the levels: a receipt's expected onOrder counts only on its line
		if err := orders.check(i, r); err != nil {
			return nil, i, err
		}
	}
	counts := countChanges{}
	if err := lv.settle(counts); err != nil {
		return nil, -1, err
	}
	out := make([]stockroom.ReceiveResult, len(rs))
	for i, r := range rs {
		if !run.found[i] {
			return nil, i, t.receiptRefused(r)
		}
		lot := run.rows[i].value()
		counts.lot(r.WID, 1, true, true)
		out[i] = stockroom.ReceiveResult{TransactionID: run.ids[i], Type: typ, RecNo: lot.RecNo, Lot: lot}
	}
	if asRun {
		err = t.queueRunLines(typ, out, entry)
	} else {
		at, err = t.settleEach(rs, out, orders, entry)
	}
	if err != nil {
		return nil, at, err
	}
	t.addCounts(counts)
	return out, -1, nil
}

// queueEach queues the lots and ledger entries of receipts rs, statements
// of each one's own, into run. On an error it returns the receipt's index.
func (t *Tx) queueEach(typ stockroom.TxType, rs []stockroom.Receipt, entry func(int) stockroom.LedgerEntry, run *receiptRun) (int, error) {
	now := entry(0).Time
	for i, r := range rs {
		lot := r.Lot(now)
		t.QueryRow(&run.found[i], receiveLot, receiveLotArgs(r, lot), append(run.rows[i].dest(), receivedNames(&run.rows[i].lot)...)...)
		head := ledgerHead{typ: typ, partNo: r.PartNo, wid: r.WID, owner: r.Owner, spot: r.Spot, units: r.Units, entry: entry(i)}
		if err := t.appendHeadIf(head, &run.ids[i], new(bool)); err != nil {
			return i, err
		}
	}
	return -1, nil
}

// settleEach queues, receipt by receipt, the ledger line of receipts rs
// whose results are out, what their order lines owe and their events. On
// an error it returns the receipt's index.
func (t *Tx) settleEach(rs []stockroom.Receipt, out []stockroom.ReceiveResult, orders *receiptLines, entry func(int) stockroom.LedgerEntry) (int, error) {
	for i, r := range rs {
		id := out[i].TransactionID
		t.appendLines(id, []ledgerLine{{recNo: out[i].RecNo, partNo: r.PartNo, wid: r.WID, spot: r.Spot, units: r.Units}})
		t.settleReceiptLine(orders, i, r, id, entry(i))
		if out[i].Type == stockroom.TxReceive {
			if err := t.receiptEvent(entry(i), out[i]); err != nil {
				return i, err
			}
		}
		if r.Order != nil {
			if err := t.purchaseReadEvents(entry(i), r.Order.PONo, orders.status[i], "received"); err != nil {
				return i, err
			}
		}
	}
	return -1, nil
}

// receiptLevels are the level changes of receipts rs, one per item,
// warehouse and owner, in the order of their first receipt (which is the
// order of their stocklevel.changed events).
func receiptLevels(rs []stockroom.Receipt) []levelChange {
	at := map[[3]int64]int{}
	var out []levelChange
	for _, r := range rs {
		c := levelChange{partNo: r.PartNo, wid: r.WID, owner: r.Owner, inStock: r.Units}
		if r.Order != nil {
			c.onOrder = r.Order.OnOrder
		}
		k := [3]int64{r.PartNo, r.WID, r.Owner}
		if i, ok := at[k]; ok {
			out[i] = c.add(out[i])
			continue
		}
		at[k] = len(out)
		out = append(out, c)
	}
	return out
}

// receiptRefused says why receiveLot made no lot for r, from its item,
// warehouse and owner as the transaction sees them. A default owner taken
// from a stale item comes first, so the caller asks again with the item's
// current one.
func (t *Tx) receiptRefused(r stockroom.Receipt) error {
	var s receiptState
	t.QueryRow(nil, `
		SELECT i.discontinued, i.dflt_owner, w.active,
			EXISTS (SELECT 1 FROM parties WHERE id = $3 AND kind = 'customer' AND active)
		FROM items i, warehouses w
		WHERE i.part_no = $1 AND w.wid = $2`, []any{r.PartNo, r.WID, r.Owner}, &s.discontinued, &s.dfltOwner, &s.warehouseActive, &s.ownerActive)
	if err := t.Flush(); err != nil {
		return err
	}
	if err := s.refusal(r); err != nil {
		return err
	}
	return stockroom.ErrOwnerInactive // the condition left
}

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
	err := db.update(ctx, key, func(tx *Tx) (any, error) {
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
// active: checked in the same statement, so no change slips between. A
// receipt against a purchase order line (order number key $23, line $24)
// without a price ($18) or supplier ($20) takes the line's unit price and
// the order's vendor, as they are in the receipt's transaction. It returns
// the new row and its owner's name (its associate).
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
	RETURNING rec_no, ` + lotColumns + `,
		COALESCE((SELECT p.name FROM parties p WHERE p.id = lots.owner), '')`

// receiveLotArgs are receiveLot's arguments for a receipt's lot.
func receiveLotArgs(r stockroom.Receipt, lot stockroom.Lot) []any {
	var key, line any
	if r.Order != nil {
		key, line = stockroom.FoldKey(r.Order.PONo), r.Order.Line
	}
	return append(append([]any{r.PartNo}, lotValues(lot)[1:]...), key, line)
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
	var (
		rows   = make([]lotRow, len(rs))
		found  = make([]bool, len(rs))
		ids    = make([]int64, len(rs))
		levels = map[[3]int64]levelChange{}
	)
	names := t.lotNames(rs)
	orders := t.lockReceiptLines(rs, e.Time)
	for i, r := range rs {
		lot := r.Lot(e.Time)
		t.queryRow(&found[i], receiveLot, receiveLotArgs(r, lot), append(rows[i].dest(), &rows[i].lot.Associate)...)
		head := ledgerHead{typ: typ, partNo: r.PartNo, wid: r.WID, owner: r.Owner, spot: r.Spot, units: r.Units, entry: e}
		if err := t.appendHeadIf(head, &ids[i], new(bool)); err != nil {
			return nil, err
		}
		k := [3]int64{r.PartNo, r.WID, r.Owner}
		c := levelChange{partNo: r.PartNo, wid: r.WID, owner: r.Owner, inStock: r.Units}
		if r.Order != nil {
			c.onOrder = r.Order.OnOrder
		}
		levels[k] = c.add(levels[k])
	}
	changes := make([]levelChange, 0, len(levels))
	for _, c := range levels {
		changes = append(changes, c)
	}
	lv := t.changeLevels(e.Time, changes...)
	if err := t.flush(); err != nil {
		return nil, err
	}
	for i, r := range rs { // before the levels: a receipt's expected onOrder counts only on its line
		if err := orders.check(i, r); err != nil {
			return nil, err
		}
	}
	counts := countChanges{}
	if err := lv.settle(counts); err != nil {
		return nil, err
	}
	out := make([]stockroom.ReceiveResult, len(rs))
	for i, r := range rs {
		if err := names.check(r, found[i]); err != nil {
			return nil, err
		}
		lot := rows[i].value()
		t.appendLines(ids[i], []ledgerLine{{recNo: lot.RecNo, partNo: r.PartNo, wid: r.WID, spot: r.Spot, units: r.Units}})
		t.settleReceiptLine(orders, i, r, ids[i], e.Time)
		counts.lot(r.WID, 1, true, true)
		names.fill(&lot)
		out[i] = stockroom.ReceiveResult{TransactionID: ids[i], Type: typ, RecNo: lot.RecNo, Lot: lot}
	}
	t.addCounts(counts)
	return out, nil
}

// lotShownNames are what a receipt's lot is shown with and checked against,
// read in the transaction that makes the lots: its item's ShortID,
// description, state and default owner, its warehouse's name and state.
// (The owner's name, the lot's associate, comes back with the lot itself.)
type lotShownNames struct {
	items      map[int64]*itemFacts
	warehouses map[int64]*warehouseFacts
}

type itemFacts struct {
	shortID, description string
	discontinued         bool
	dfltOwner            int64
}

type warehouseFacts struct {
	name   string
	active bool
}

// lotNames queues the reading of the names of the receipts' items and
// warehouses, available after the next flush.
func (t *Tx) lotNames(rs []stockroom.Receipt) lotShownNames {
	n := lotShownNames{items: map[int64]*itemFacts{}, warehouses: map[int64]*warehouseFacts{}}
	for _, r := range rs {
		if _, ok := n.items[r.PartNo]; !ok {
			v := new(itemFacts)
			n.items[r.PartNo] = v
			t.queryRow(new(bool), `
				SELECT short_id, description, discontinued, dflt_owner
				FROM items
				WHERE part_no = $1`, []any{r.PartNo}, &v.shortID, &v.description, &v.discontinued, &v.dfltOwner)
		}
		if _, ok := n.warehouses[r.WID]; !ok {
			v := new(warehouseFacts)
			n.warehouses[r.WID] = v
			t.queryRow(new(bool), `SELECT name, active FROM warehouses WHERE wid = $1`, []any{r.WID}, &v.name, &v.active)
		}
	}
	return n
}

// check judges a receipt once the names are read: stored tells whether its
// lot was. A default owner taken from a stale item is refused before
// anything else, so the caller asks again with the item's current one.
func (n lotShownNames) check(r stockroom.Receipt, stored bool) error {
	it, w := n.items[r.PartNo], n.warehouses[r.WID]
	switch {
	case r.OwnerIsDefault && it.dfltOwner != r.Owner:
		return stockroom.ErrDefaultOwnerChanged
	case stored:
		return nil
	case it.discontinued:
		return stockroom.ErrDiscontinued
	case !w.active:
		return stockroom.ErrWarehouseInactive
	}
	return stockroom.ErrOwnerInactive
}

func (n lotShownNames) fill(l *stockroom.Lot) {
	if v := n.items[l.PartNo]; v != nil {
		l.ShortID, l.Description = v.shortID, v.description
	}
	if v := n.warehouses[l.WID]; v != nil {
		l.Warehouse = v.name
	}
}

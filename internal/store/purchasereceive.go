package store

import (
	"fmt"
	"time"

	"github.com/stockroom/stockroom"
)

// Receipts against purchase order lines. A receipt's line is locked and
// changed in the receipt's first round trip, with its lot, ledger row and
// in-stock levels; on_order, the order's status and the ledger's figure
// follow in the second, with the commit. Its line's item, warehouse and
// owner are the receipt's (the service checked them: they never change).

// receiptLines are the order lines of a transaction's receipts (by index;
// those without an order are left zero), locked and changed at the next
// flush.
type receiptLines struct {
	heads  []orderHead
	locked []bool
	found  []bool
	lines  []purchaseLine
}

// lockReceiptLines queues, for each receipt against an order line, the
// locking of its order and the change of its line by the units received.
// It runs before the receipts' lots are made, as the lock order asks.
func (t *Tx) lockReceiptLines(rs []stockroom.Receipt) *receiptLines {
	n := len(rs)
	rl := &receiptLines{heads: make([]orderHead, n), locked: make([]bool, n), found: make([]bool, n), lines: make([]purchaseLine, n)}
	for i, r := range rs {
		if r.Order == nil {
			continue
		}
		t.lockOrder("purchase", stockroom.FoldKey(r.Order.PONo), &rl.heads[i], &rl.locked[i])
		rl.lines[i].byReceived = r.Units
		t.changePurchaseLine(r.Order.ID, r.Order.Line, &rl.lines[i], &rl.found[i])
	}
	return rl
}

// check judges receipt i against its line once locked and changed: an
// ended order takes no receipts (stockroom.ErrOrderEnded).
func (rl *receiptLines) check(i int, r stockroom.Receipt) error {
	if r.Order == nil {
		return nil
	}
	l := rl.lines[i]
	switch {
	case !rl.locked[i] || !rl.found[i]:
		return fmt.Errorf("purchase order %s has no line %d", r.Order.PONo, r.Order.Line)
	case l.partNo != r.PartNo || l.wid != r.WID || l.owner != r.Owner:
		return fmt.Errorf("purchase order %s line %d is item %d, warehouse %d, owner %d; the receipt's %d, %d, %d",
			r.Order.PONo, r.Order.Line, l.partNo, l.wid, l.owner, r.PartNo, r.WID, r.Owner)
	case !rl.heads[i].status.IsOpen():
		return stockroom.ErrOrderEnded
	}
	return nil
}

// settleReceiptLine queues what receipt i (ledger transaction txID, lot
// lot) does to its line's order besides the line: the ledger's figure of
// what stopped being due; the correction of on_order, when the receipt's
// expected change (made with its in-stock change) was not what the locked
// line says; the order's status; the lot's price, when it took the line's
// and the line's changed since the service read it.
//
// The correction is not settled: it lands on the level rows the receipt's
// in-stock change has just made listed, so it changes no count, and it
// leaves on_order at what the line has due, within the largest figure.
func (t *Tx) settleReceiptLine(rl *receiptLines, i int, r stockroom.Receipt, txID int64, lot *stockroom.Lot, now time.Time) {
	if r.Order == nil {
		return
	}
	l := rl.lines[i]
	change := l.onOrderChange(rl.heads[i].status)
	if !change.onOrder.IsZero() {
		t.appendFigures(txID, []ledgerFigure{figureOf(change)})
	}
	if fix := change.onOrder.Sub(r.Order.OnOrder); !fix.IsZero() {
		change.onOrder = fix
		t.changeLevels(now, change)
	}
	t.settlePurchaseStatus(r.Order.ID, now)
	if r.Order.PriceFromLine && l.line.UnitPrice != lot.Price {
		t.exec(`UPDATE lots SET price = $2 WHERE rec_no = $1`, lot.RecNo, l.line.UnitPrice)
		lot.Price = l.line.UnitPrice
	}
}

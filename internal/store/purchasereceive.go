package store

import (
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
	orderID []int64
	status  []stockroom.OrderStatus
	found   []bool
	lines   []purchaseLine
}

// lockReceiptLines queues, for each receipt against an order line, the
// locking of its order and the change of its line by the units received.
// It runs before the receipts' lots are made, as the lock order asks.
func (t *Tx) lockReceiptLines(rs []stockroom.Receipt, now time.Time) *receiptLines {
	n := len(rs)
	rl := &receiptLines{orderID: make([]int64, n), status: make([]stockroom.OrderStatus, n), found: make([]bool, n),
		lines: make([]purchaseLine, n)}
	for i, r := range rs {
		if r.Order == nil {
			continue
		}
		rl.lines[i].byReceived = r.Units
		t.receiveLine(rl, i, r.Order, now)
	}
	return rl
}

// markArrived is what units arriving on a line do to its open purchase
// order's header (key $1, now $2): it is Partial (Closed only once the
// receipt settles that every line is delivered) and modified now; an ended
// order is left as it is. It returns the order's id and status.
const markArrived = `
	UPDATE orders SET
		status = CASE WHEN status IN ('Closed', 'Canceled') THEN status ELSE 'Partial' END,
		modified = CASE WHEN $2 > modified THEN $2 ELSE modified + 1 END
	WHERE kind = 'purchase' AND order_no_key = $1
	RETURNING id, status`

// receiveLine queues the change of the header of receipt i's purchase
// order o (markArrived: first, as the lock order asks) and of its line by
// the receipt's units (rl.lines[i].byReceived); rl's line, order id, status
// and found of receipt i are set at the next flush. The header stays locked
// to the commit, so the status this transaction settles is judged on every
// line's latest figures. On PostgreSQL it is one statement; SQLite, which
// has no UPDATE in WITH (and no round trips to save), runs two.
func (t *Tx) receiveLine(rl *receiptLines, i int, o *stockroom.ReceiptOrder, now time.Time) {
	key, lineNo := stockroom.FoldKey(o.PONo), o.Line
	l, orderID, status, found := &rl.lines[i], &rl.orderID[i], &rl.status[i], &rl.found[i]
	const returning = `
		RETURNING part_no, wid, owner, units, received, in_transit, rejected, unit_price, order_id`
	dest := []any{&l.partNo, &l.wid, &l.owner, &l.line.Units, &l.line.UnitsReceived, &l.line.UnitsInTransit,
		&l.line.UnitsRejected, &l.line.UnitPrice, orderID}
	if !t.Postgres() {
		t.QueryRow(new(bool), markArrived, []any{key, micros(now)}, orderID, status)
		t.QueryRow(found, `
			UPDATE order_lines SET received = received + $3
			WHERE order_id = (SELECT id FROM orders WHERE kind = 'purchase' AND order_no_key = $1) AND line_no = $2`+returning,
			[]any{key, lineNo, l.byReceived}, dest...)
		return
	}
	t.QueryRow(found, `
		WITH head AS (`+markArrived+`)
		UPDATE order_lines SET received = received + $4
		WHERE order_id = (SELECT id FROM head) AND line_no = $3`+returning+`,
			(SELECT status FROM head)`,
		[]any{key, micros(now), lineNo, l.byReceived}, append(dest, status)...)
}

// check judges receipt i against its line once locked and changed: the
// line must be there and be of the receipt's item, warehouse and owner
// (stockroom.ErrOrderLineMismatch), and an ended order takes no receipts
// (stockroom.ErrOrderEnded).
func (rl *receiptLines) check(i int, r stockroom.Receipt) error {
	if r.Order == nil {
		return nil
	}
	l := rl.lines[i]
	switch {
	case !rl.found[i] || l.partNo != r.PartNo || l.wid != r.WID || l.owner != r.Owner:
		return stockroom.ErrOrderLineMismatch
	case !rl.status[i].IsOpen():
		return stockroom.ErrOrderEnded
	}
	return nil
}

// settleReceiptLine queues what receipt i (ledger transaction txID) does to
// its line's order besides the line: the ledger's figure of what stopped
// being due; the correction of on_order, when the receipt's expected change
// (made with its in-stock change) was not what the locked line says; the
// order's status.
//
// The correction is not settled: it lands on the level rows the receipt's
// in-stock change has just made listed, so it changes no count, and it
// leaves on_order at what the line has due, within the largest figure.
func (t *Tx) settleReceiptLine(rl *receiptLines, i int, r stockroom.Receipt, txID int64, e stockroom.LedgerEntry) {
	if r.Order == nil {
		return
	}
	l := rl.lines[i]
	change := l.onOrderChange(rl.status[i])
	if !change.onOrder.IsZero() {
		t.appendFigures(txID, []ledgerFigure{figureOf(change)})
	}
	if fix := change.onOrder.Sub(r.Order.OnOrder); !fix.IsZero() {
		change.onOrder = fix
		t.changeLevels(e, change)
	}
	if l.justDelivered() { // the others left the order Partial (receiveLine)
		t.settlePurchaseStatus(rl.orderID[i], e.Time)
	}
}

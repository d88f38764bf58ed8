package store

import (
	"time"

	"github.com/stockroom/stockroom"
)

// The inbound core shared by purchase orders, receipts against their lines,
// advance ship notices and transits.
//
// Lock order of every transaction that touches orders or transits, after
// the idempotency key: the order's header (orders), its lines in line
// order, the transit (transits), its lines in line order; then lots in draw
// order and the levels grain by grain, as every stock change; the counters
// last. A writer of an order's lines always locks its header first, so two
// writers of one order never interleave.

// orderHead is an order's header as locked by lockOrder.
type orderHead struct {
	id     int64
	no     string
	status stockroom.OrderStatus
	party  int64
}

// lockOrder queues the locking of the order of a kind with the case-folded
// number key; h and found are set at the next flush.
func (t *Tx) lockOrder(kind, key string, h *orderHead, found *bool) {
	t.QueryRow(found, `
		SELECT id, order_no, status, party
		FROM orders
		WHERE kind = $1 AND order_no_key = $2`+t.forUpdate(),
		[]any{kind, key}, &h.id, &h.no, &h.status, &h.party)
}

// purchaseLine is a purchase order line's figures after a change, and the
// change.
type purchaseLine struct {
	partNo, wid, owner int64
	line               stockroom.PurchaseLine
	// by* are the change applied.
	byReceived, byInTransit, byRejected stockroom.Units
}

// changePurchaseLine queues a change to what has arrived of a line, and is
// on its way; l is filled in at the next flush. The order's header must be
// locked first (lockOrder).
func (t *Tx) changePurchaseLine(orderID, lineNo int64, l *purchaseLine, found *bool) {
	t.QueryRow(found, `
		UPDATE order_lines SET
			received = received + $3,
			in_transit = in_transit + $4,
			rejected = rejected + $5
		WHERE order_id = $1 AND line_no = $2
		RETURNING part_no, wid, owner, units, received, in_transit, rejected, unit_price`,
		[]any{orderID, lineNo, l.byReceived, l.byInTransit, l.byRejected},
		&l.partNo, &l.wid, &l.owner, &l.line.Units, &l.line.UnitsReceived, &l.line.UnitsInTransit,
		&l.line.UnitsRejected, &l.line.UnitPrice)
}

// onOrderChange is the change of the line's contribution to on_order made by
// its change, for an order in state s: what was due before less what is due
// now.
func (l purchaseLine) onOrderChange(s stockroom.OrderStatus) levelChange {
	before := l.line
	before.UnitsReceived = before.UnitsReceived.Sub(l.byReceived)
	before.UnitsInTransit = before.UnitsInTransit.Sub(l.byInTransit)
	before.UnitsRejected = before.UnitsRejected.Sub(l.byRejected)
	return levelChange{partNo: l.partNo, wid: l.wid, owner: l.owner, onOrder: l.line.Due(s).Sub(before.Due(s))}
}

// justDelivered reports whether the change delivered the line: every unit
// has arrived (received or rejected) now, and had not before.
func (l purchaseLine) justDelivered() bool {
	before := l.line
	before.UnitsReceived = before.UnitsReceived.Sub(l.byReceived)
	before.UnitsRejected = before.UnitsRejected.Sub(l.byRejected)
	return l.line.Delivered() && !before.Delivered()
}

// settlePurchaseStatus queues the recomputation of an open purchase order's
// status after units arrived: Closed once every line is delivered (received
// or rejected in full), Partial once anything has arrived, else Open. An
// ended order keeps its status. The header must be locked (lockOrder).
func (t *Tx) settlePurchaseStatus(orderID int64, now time.Time) {
	t.Exec(`
		UPDATE orders SET
			status = CASE
				WHEN status IN ('Closed', 'Canceled') THEN status
				WHEN NOT EXISTS (
					SELECT 1 FROM order_lines WHERE order_id = $1 AND received + rejected < units
				) THEN 'Closed'
				WHEN EXISTS (
					SELECT 1 FROM order_lines WHERE order_id = $1 AND (received > 0 OR rejected > 0)
				) THEN 'Partial'
				ELSE 'Open' END,
			modified = CASE WHEN $2 > modified THEN $2 ELSE modified + 1 END
		WHERE id = $1`, orderID, micros(now))
}

package store

import (
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/stockroom/stockroom"
)

// purchaseKind is the kind of a purchase order in the orders table.
const purchaseKind = "purchase"

// lockedTransit is a transit locked for a change, read with all its lines;
// for an advance ship notice, its purchase order's header was locked first
// and its lines read after.
type lockedTransit struct {
	stockroom.Transit
	order orderLines // an advance ship notice's order; zero for a transfer
}

// orderLines is a locked purchase order and its lines as they stand, by
// lineNo, kept up to date by the changes a transaction queues
// (orderLines.change).
type orderLines struct {
	head  orderHead
	lines map[int64]*purchaseLine
}

// lockPurchaseOrder queues the locking of the purchase order with the
// case-folded number key (lockOrder) and the reading of its lines after it;
// o and found are set at the next flush.
func (t *Tx) lockPurchaseOrder(key string, o *orderLines, found *bool) {
	t.lockOrder(purchaseKind, key, &o.head, found)
	o.lines = map[int64]*purchaseLine{}
	t.Query(func(r rows) error {
		for r.Next() {
			var (
				no int64
				pl purchaseLine
			)
			l := &pl.line
			if err := r.Scan(&no, &pl.partNo, &pl.wid, &pl.owner, &l.Units, &l.UnitsReceived, &l.UnitsInTransit,
				&l.UnitsRejected, &l.UnitPrice); err != nil {
				return err
			}
			l.LineNo, l.PartNo, l.Warehouse, l.Owner = no, pl.partNo, pl.wid, pl.owner
			o.lines[no] = &pl
		}
		return r.Err()
	}, `
		SELECT l.line_no, l.part_no, l.wid, l.owner, l.units, l.received, l.in_transit, l.rejected, l.unit_price
		FROM order_lines l JOIN orders o ON o.id = l.order_id
		WHERE o.kind = $1 AND o.order_no_key = $2
		ORDER BY l.line_no`, purchaseKind, key)
}

// change queues a change to order line lineNo (changePurchaseLine) and
// returns it with the change of onOrder it makes, computed from the line as
// it stands before: the line's figures are checked against the database's
// at settle.
func (o *orderLines) change(t *Tx, lineNo int64, byReceived, byInTransit, byRejected stockroom.Units) (*purchaseLine, levelChange, error) {
	cur, ok := o.lines[lineNo]
	if !ok {
		return nil, levelChange{}, fmt.Errorf("purchase order %s has no line %d", o.head.no, lineNo)
	}
	want := *cur
	want.byReceived, want.byInTransit, want.byRejected = byReceived, byInTransit, byRejected
	want.line.UnitsReceived = want.line.UnitsReceived.Add(byReceived)
	want.line.UnitsInTransit = want.line.UnitsInTransit.Add(byInTransit)
	want.line.UnitsRejected = want.line.UnitsRejected.Add(byRejected)
	*cur = want
	got := &purchaseLine{byReceived: byReceived, byInTransit: byInTransit, byRejected: byRejected}
	var found bool
	t.changePurchaseLine(o.head.id, lineNo, got, &found)
	t.Check(func() error {
		l, w := got.line, want.line
		if !found || l.UnitsReceived != w.UnitsReceived || l.UnitsInTransit != w.UnitsInTransit || l.UnitsRejected != w.UnitsRejected {
			return fmt.Errorf("purchase order %s line %d changed while locked", o.head.no, lineNo)
		}
		return nil
	})
	return &want, want.onOrderChange(o.head.status), nil
}

// orderChanges queues the changes a receipt or cancel of a notice makes to
// its order's lines, n of them, in the order in which order lines are
// locked (by lineNo), and returns the change of onOrder each makes, by
// index. For a transfer it changes nothing.
func (lt *lockedTransit) orderChanges(t *Tx, n int, change func(i int) (line int64, received, inTransit, rejected stockroom.Units)) ([]levelChange, error) {
	out := make([]levelChange, n)
	if lt.Kind != stockroom.TransitASN {
		return out, nil
	}
	lineOf := func(i int) int64 { line, _, _, _ := change(i); return line }
	for _, i := range sortedByOrderLine(lineOf, n) {
		line, received, inTransit, rejected := change(i)
		var err error
		if _, out[i], err = lt.order.change(t, line, received, inTransit, rejected); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// lockTransit locks transit id and reads it with all its lines; for an
// advance ship notice it locks the order's header first and reads the
// order's lines. (The order's lines are changed after the transit row is
// locked: the header, locked first by every writer of them, keeps that
// from deadlocking.) It flushes twice. A transit that does not exist is
// ErrNotFound.
func (t *Tx) lockTransit(id int64) (*lockedTransit, error) {
	var (
		kind  stockroom.TransitKind
		key   sql.NullString
		found bool
	)
	t.QueryRow(&found, `
		SELECT r.kind, o.order_no_key
		FROM transits r LEFT JOIN orders o ON o.id = r.order_id
		WHERE r.id = $1`, []any{id}, &kind, &key)
	if err := t.Flush(); err != nil {
		return nil, err
	}
	if !found {
		return nil, stockroom.ErrNotFound
	}
	lt := &lockedTransit{}
	var orderFound bool
	if kind == stockroom.TransitASN {
		t.lockPurchaseOrder(key.String, &lt.order, &orderFound)
	}
	t.Exec(`SELECT id FROM transits WHERE id = $1`+t.forUpdate(), id)
	t.readTransit(id, &lt.Transit, &found)
	if err := t.Flush(); err != nil {
		return nil, err
	}
	if !found || kind == stockroom.TransitASN && !orderFound {
		return nil, fmt.Errorf("transit %d or its order vanished", id)
	}
	return lt, nil
}

// setTransitStatus queues the end of a receipt or cancel: the transit's
// status (to, or for a receipt Received once every line is done, else
// Partial) and its modified time.
func (t *Tx) setTransitStatus(id int64, to stockroom.TransitStatus, now time.Time) {
	t.Exec(`
		UPDATE transits SET
			status = CASE
				WHEN $2 <> 'Received' THEN $2
				WHEN EXISTS (
					SELECT 1 FROM transit_lines WHERE transit_id = $1 AND received + rejected < units
				) THEN 'Partial'
				ELSE 'Received' END,
			modified = CASE WHEN $3 > modified THEN $3 ELSE modified + 1 END
		WHERE id = $1`, id, string(to), micros(now))
}

// transitEntry returns a transit's ledger entry: e with the transit's
// references in its details, and the reason code given.
func transitEntry(e stockroom.LedgerEntry, tr stockroom.Transit, l stockroom.TransitLine, reason int64) stockroom.LedgerEntry {
	d := map[string]any{"transitID": tr.ID, "transitLine": l.Line}
	if tr.Kind == stockroom.TransitASN {
		d["asn"], d["poNo"], d["line"] = tr.ASN, tr.PONo, *l.POLine
	} else {
		d["transitSlip"], d["recno"] = tr.TransitSlip, *l.RecNo
	}
	e = entryWith(e, d)
	e.ReasonCode = reason
	return e
}

// entryWith returns e with more details (in a copy of its details).
func entryWith(e stockroom.LedgerEntry, more map[string]any) stockroom.LedgerEntry {
	d := make(map[string]any, len(e.Details)+len(more))
	for k, v := range e.Details {
		d[k] = v
	}
	for k, v := range more {
		d[k] = v
	}
	e.Details = d
	return e
}

// sortedByOrderLine returns the indexes of lines in the order in which
// their purchase order lines are locked: by order line, then as given.
func sortedByOrderLine(orderLine func(i int) int64, n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return int(orderLine(a) - orderLine(b)) })
	return idx
}

package store

import (
	"context"

	"github.com/stockroom/stockroom"
)

// CancelTransit ends transit id: what its lines still have due returns to
// where it came from, a transfer's to its source warehouse (as new lots at
// the source lots' bins), a notice's to its order lines (onOrder again while
// the order is open). check sees the locked transit first and may refuse
// (the service judges visibility and scope there); a transit that has
// ended is ECONFLICT. It records key's answer in the same transaction. A
// transit that does not exist is ErrNotFound.
func (db *DB) CancelTransit(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.TransitAction, check func(stockroom.Transit) error) (stockroom.Transit, error) {
	var res stockroom.Transit
	err := db.update(ctx, key, func(tx *Tx) (any, error) {
		var err error
		res, err = tx.cancelTransit(a.ID, a.Entry, check)
		return res, err
	})
	return res, err
}

// cancelTransit locks the transit (two round trips) and writes everything
// in a third, as receiveTransit does.
func (t *Tx) cancelTransit(id int64, e stockroom.LedgerEntry, check func(stockroom.Transit) error) (stockroom.Transit, error) {
	lt, err := t.lockTransit(id)
	if err != nil {
		return stockroom.Transit{}, err
	}
	if err := check(lt.Transit); err != nil {
		return lt.Transit, err
	}
	if err := lt.CheckOpen("canceled"); err != nil {
		return lt.Transit, err
	}
	var due []stockroom.TransitLine
	for _, l := range lt.Lines {
		if l.UnitsDue.Sign() > 0 {
			due = append(due, l)
		}
	}
	isNotice := lt.Kind == stockroom.TransitASN
	onOrder, err := lt.orderChanges(t, len(due), func(i int) (int64, stockroom.Units, stockroom.Units, stockroom.Units) {
		return *due[i].POLine, stockroom.Units{}, due[i].UnitsDue.Neg(), stockroom.Units{}
	})
	if err != nil {
		return lt.Transit, err
	}
	var w transitWrites
	for i, l := range due {
		w.changes = append(w.changes, onOrder[i], levelChange{partNo: l.PartNo, wid: lt.ToWID, owner: l.Owner, asn: l.UnitsDue.Neg()})
		head := ledgerHead{typ: stockroom.TxTransitCancel, partNo: l.PartNo, wid: lt.ToWID, owner: l.Owner, units: l.UnitsDue,
			entry: transitEntry(e, lt.Transit, l, 0)}
		var lot *newLot
		if !isNotice {
			from := *lt.FromWID
			w.changes = append(w.changes, levelChange{partNo: l.PartNo, wid: from, owner: l.Owner, inStock: l.UnitsDue})
			lot = t.queueCopyLot(lotCopy{source: *l.RecNo, wid: from, keepSpot: true, units: l.UnitsDue}, micros(e.Time))
			head.wid, head.toWID = from, &lt.ToWID
		}
		if _, err := w.entry(t, head, lot, figureOf(onOrder[i]), ledgerFigure{partNo: l.PartNo, wid: lt.ToWID, asn: l.UnitsDue.Neg()}); err != nil {
			return lt.Transit, err
		}
	}
	lv := t.changeLevels(e, w.changes...)
	t.setTransitStatus(id, stockroom.TransitCanceled, e.Time)
	if isNotice {
		t.settlePurchaseStatus(lt.order.head.id, e.Time)
	}
	var (
		res   stockroom.Transit
		found bool
	)
	t.readTransit(id, &res, &found)
	if err := t.Flush(); err != nil {
		return res, err
	}
	if err := w.finish(t, lv, nil); err != nil {
		return res, err
	}
	if err := t.transitEvents(stockroom.EventTransitCanceled, e, res, func(owner int64) any { return transitOf(res, owner) }); err != nil {
		return res, err
	}
	if isNotice {
		return res, t.purchaseReadEvents(e, lt.PONo, lt.order.head.status, "updated")
	}
	return res, nil
}

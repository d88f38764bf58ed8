package store

import (
	"context"

	"github.com/stockroom/stockroom"
)

// ReceiveTransit receives transit a.ID at its destination: accepted units go
// into stock as new lots, rejected ones leave aSN as a loss. check sees the
// locked transit first and may refuse (the service judges visibility and
// scope there); then stockroom.Transit.PlanReceipt decides what each line
// takes, all or nothing. It records key's answer in the same transaction.
// A transit that does not exist is ErrNotFound.
func (db *DB) ReceiveTransit(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.TransitAction, req stockroom.TransitReceiveRequest, check func(stockroom.Transit) error) (stockroom.TransitReceiveResult, error) {
	var res stockroom.TransitReceiveResult
	err := db.update(ctx, key, func(tx *Tx) (any, error) {
		var err error
		res, err = tx.receiveTransit(a.ID, req, a.Entry, check)
		return res, err
	})
	return res, err
}

// updateTransitLine adds to what has arrived of a line ($1 transit, $2
// line): $3 received, $4 rejected, but never past its units.
const updateTransitLine = `
	UPDATE transit_lines SET
		received = received + $3,
		rejected = rejected + $4
	WHERE transit_id = $1 AND line = $2 AND received + rejected + $3 + $4 <= units
	RETURNING line`

// receiveTransit locks the transit (two round trips), then writes
// everything in a third: the order's lines (a notice's), the transit's
// lines, the lots, the levels, the ledger entries and the transit read back
// for the answer.
func (t *Tx) receiveTransit(id int64, req stockroom.TransitReceiveRequest, e stockroom.LedgerEntry, check func(stockroom.Transit) error) (stockroom.TransitReceiveResult, error) {
	var res stockroom.TransitReceiveResult
	lt, err := t.lockTransit(id)
	if err != nil {
		return res, err
	}
	if err := check(lt.Transit); err != nil {
		return res, err
	}
	takes, err := lt.PlanReceipt(req.Lines)
	if err != nil {
		return res, err
	}
	spot := lt.ToSpot
	if req.Spot != nil {
		spot = *req.Spot
	}
	onOrder, err := lt.orderChanges(t, len(takes), func(i int) (int64, stockroom.Units, stockroom.Units, stockroom.Units) {
		tk := takes[i]
		return *tk.Line.POLine, tk.Units, tk.Units.Add(tk.Rejected).Neg(), tk.Rejected
	})
	if err != nil {
		return res, err
	}
	done := make([]bool, len(takes))
	for i, tk := range takes {
		t.QueryRow(&done[i], updateTransitLine, []any{id, tk.Line.Line, tk.Units, tk.Rejected}, new(int64))
	}
	r := transitReceipt{lt: lt, takes: takes, spot: spot, e: e, onOrder: onOrder}
	if res.Lines, err = r.queue(t); err != nil {
		return res, err
	}
	lv := t.changeLevels(e, r.w.changes...)
	t.setTransitStatus(id, stockroom.TransitReceived, e.Time)
	if lt.Kind == stockroom.TransitASN {
		t.settlePurchaseStatus(lt.order.head.id, e.Time)
	}
	var found bool
	t.readTransit(id, &res.Transit, &found)
	if err := t.Flush(); err != nil {
		return res, err
	}
	if err := mustAll(done, "transit line"); err != nil {
		return res, err
	}
	if err := r.w.finish(t, lv, r.refused); err != nil {
		return res, err
	}
	if err := t.transitEvents(stockroom.EventTransitReceived, e, res.Transit, func(owner int64) any { return receiptOf(res, owner) }); err != nil {
		return res, err
	}
	if lt.Kind == stockroom.TransitASN {
		return res, t.purchaseReadEvents(e, lt.PONo, lt.order.head.status, "received")
	}
	return res, nil
}

// transitReceipt is a planned receipt of a locked transit while its
// writes are queued.
type transitReceipt struct {
	lt      *lockedTransit
	takes   []stockroom.TransitTake
	spot    string
	e       stockroom.LedgerEntry
	onOrder []levelChange // by take
	w       transitWrites
	// A notice's units are received as a receive would: receipts by take,
	// and the take of each lot.
	receipts   []stockroom.Receipt
	noticeLots map[*newLot]int
}

// queue queues each take's lot, level changes and ledger entries, and
// returns what the answer says of each line.
func (r *transitReceipt) queue(t *Tx) ([]stockroom.TransitReceipt, error) {
	lt, e := r.lt, r.e
	isNotice := lt.Kind == stockroom.TransitASN
	if isNotice {
		r.receipts, r.noticeLots = make([]stockroom.Receipt, len(r.takes)), map[*newLot]int{}
		for i, tk := range r.takes {
			r.receipts[i] = lt.noticeReceipt(tk, r.spot)
		}
	}
	out := make([]stockroom.TransitReceipt, len(r.takes))
	for i, tk := range r.takes {
		l := tk.Line
		r.w.changes = append(r.w.changes, r.onOrder[i],
			levelChange{partNo: l.PartNo, wid: lt.ToWID, owner: l.Owner, inStock: tk.Units, asn: tk.Units.Add(tk.Rejected).Neg()})
		rec := &out[i]
		rec.Line, rec.Units, rec.Rejected = l.Line, tk.Units, tk.Rejected
		figures := []ledgerFigure{figureOf(r.onOrder[i])}
		head := ledgerHead{partNo: l.PartNo, wid: lt.ToWID, owner: l.Owner, spot: r.spot}
		if tk.Units.Sign() > 0 {
			var lot *newLot
			if isNotice {
				lot = t.queueNoticeLot(r.receipts[i], e)
				r.noticeLots[lot] = i
			} else {
				lot = t.queueCopyLot(lotCopy{source: *l.RecNo, wid: lt.ToWID, spot: r.spot, units: tk.Units}, micros(e.Time))
			}
			head.typ, head.units, head.entry = stockroom.TxTransitReceive, tk.Units, transitEntry(e, lt.Transit, l, 0)
			entry, err := r.w.entry(t, head, lot, append(figures, ledgerFigure{partNo: l.PartNo, wid: lt.ToWID, asn: tk.Units.Neg()})...)
			if err != nil {
				return nil, err
			}
			rec.RecNo, rec.TransactionID, figures = &lot.recNo, &entry.id, nil
		}
		if tk.Rejected.Sign() > 0 {
			head.typ, head.units, head.entry = stockroom.TxTransitReject, tk.Rejected, transitEntry(e, lt.Transit, l, tk.ReasonCode)
			entry, err := r.w.entry(t, head, nil, append(figures, ledgerFigure{partNo: l.PartNo, wid: lt.ToWID, asn: tk.Rejected.Neg()})...)
			if err != nil {
				return nil, err
			}
			rec.RejectTransactionID = &entry.id
		}
	}
	return out, nil
}

// refused says why a lot of the receipt was not made: a notice's as a
// receive would; a transfer's because its warehouse is inactive.
func (r *transitReceipt) refused(t *Tx, l *transitLedger) error {
	if i, ok := r.noticeLots[l.lot]; ok {
		return t.receiptRefused(r.receipts[i])
	}
	return stockroom.ErrWarehouseInactive
}

// noticeReceipt is the receipt a notice's accepted units make: received
// now at the destination, at the order line's price, from the order's
// vendor, with the order's number as reference.
func (lt *lockedTransit) noticeReceipt(tk stockroom.TransitTake, spot string) stockroom.Receipt {
	l := tk.Line
	pl := lt.order.lines[*l.POLine]
	return stockroom.Receipt{PartNo: l.PartNo, Owner: l.Owner, ReceiveRequest: stockroom.ReceiveRequest{
		Units: tk.Units, WID: lt.ToWID, Spot: spot, Serial: l.Serial, Serial2: l.Serial2, RFIDTag: l.RFIDTag,
		Reference: lt.PONo, Price: pl.line.UnitPrice, Supplier: lt.order.head.party, Line: *l.POLine,
	}}
}

// queueNoticeLot queues the lot of a notice's receipt, made as a receive
// makes it (receiveLot: not for a discontinued item, an inactive warehouse
// or customer).
func (t *Tx) queueNoticeLot(r stockroom.Receipt, e stockroom.LedgerEntry) *newLot {
	n := &newLot{wid: r.WID}
	var row lotRow
	dest := append(row.dest(), receivedNames(&row.lot)...)
	dest[0], dest[3] = &n.recNo, &n.spot
	t.QueryRow(&n.stored, receiveLot, receiveLotArgs(r, r.Lot(e.Time)), dest...)
	return n
}

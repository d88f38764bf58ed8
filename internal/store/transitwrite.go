package store

import (
	"fmt"

	"github.com/stockroom/stockroom"
)

// copyLot makes a new lot of a transit's units from the lot they came from
// ($1): in warehouse $2, at the bin $3 (when $4, the source lot's own bin
// if it is still in that warehouse, else none), $5 units, at time $6; with
// the source's item, serials, owner, received time, price, supplier,
// weights and expiry; in stock and not held. Nothing is inserted when the
// warehouse is inactive, which takes no stock.
const copyLot = `
	INSERT INTO lots (associate, ` + lotColumns + `)
	SELECT associate, part_no, $2, CASE WHEN $4 THEN (CASE WHEN wid = $2 THEN spot ELSE '' END) ELSE $3 END,
		$5, received, NULL, serial, serial2, rfid_tag, remark, owner, $7, job_id, $8, reference, net_weight,
		gross_weight, price, expires, supplier, line, $6
	FROM lots
	WHERE rec_no = $1
	  AND EXISTS (SELECT 1 FROM warehouses WHERE wid = $2 AND active)
	RETURNING rec_no, spot`

// newLot is a lot a receipt or cancel of a transit makes; rec_no and spot
// arrive at the next flush.
type newLot struct {
	recNo  int64
	spot   string
	stored bool
	wid    int64
}

// lotCopy is a new lot of units of the lot source, in warehouse wid: at the
// source lot's bin when keepSpot (units returned), else at spot.
type lotCopy struct {
	source, wid int64
	spot        string
	keepSpot    bool
	units       stockroom.Units
}

// queueCopyLot queues copyLot of c at time now.
func (t *Tx) queueCopyLot(c lotCopy, now int64) *newLot {
	n := &newLot{wid: c.wid}
	t.QueryRow(&n.stored, copyLot, []any{c.source, c.wid, c.spot, c.keepSpot, c.units, now, false, true}, &n.recNo, &n.spot)
	return n
}

// transitWrites gathers what a receipt or cancel of a transit writes
// besides its lots and lines: level changes, and ledger entries whose lines
// and figures are appended once their ids (and their lots) are known.
type transitWrites struct {
	changes []levelChange
	entries []*transitLedger
}

// transitLedger is one ledger entry of a transit.
type transitLedger struct {
	id      int64
	head    ledgerHead
	lot     *newLot // the lot it put units in; nil for none
	figures []ledgerFigure
}

// entry queues a ledger entry (its head now), with the lot it fills, if
// any, and its figures.
func (w *transitWrites) entry(t *Tx, head ledgerHead, lot *newLot, figures ...ledgerFigure) (*transitLedger, error) {
	l := &transitLedger{head: head, lot: lot, figures: figures}
	w.entries = append(w.entries, l)
	return l, t.appendHead(head, &l.id)
}

// finish checks, after the flush that sent them, that every lot was made
// (refused lots: ErrWarehouseInactive unless refused says otherwise) and
// every level changed, then queues the ledger's lines and figures and the
// counts.
func (w *transitWrites) finish(t *Tx, lv *levelUpdate, refused func(*Tx, *transitLedger) error) error {
	counts := countChanges{}
	for _, l := range w.entries {
		if l.lot == nil {
			continue
		}
		if !l.lot.stored {
			if refused != nil {
				return refused(t, l)
			}
			return stockroom.ErrWarehouseInactive
		}
		counts.lot(l.lot.wid, 1, true, true)
	}
	if err := lv.settle(counts); err != nil {
		return err
	}
	for _, l := range w.entries {
		if l.lot != nil {
			t.appendLines(l.id, []ledgerLine{{recNo: l.lot.recNo, partNo: l.head.partNo, wid: l.lot.wid, spot: l.lot.spot, units: l.head.units}})
		}
		t.appendFigures(l.id, l.figures)
	}
	t.addCounts(counts)
	return nil
}

// mustAll refuses a transaction in which a conditional update found no row.
func mustAll(done []bool, what string) error {
	for i, ok := range done {
		if !ok {
			return fmt.Errorf("%s %d changed while locked", what, i)
		}
	}
	return nil
}

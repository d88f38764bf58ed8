package store

import (
	"fmt"

	"github.com/stockroom/stockroom"
)

// A transfer is a move with a transit slip to another warehouse: it draws
// lots as an issue does (they leave the source at once), and ships a
// transit with one line per lot drawn, counted in the destination's aSN
// until it is received (transitreceive.go) or canceled (transitcancel.go).

// insertTransit creates a transit on its way: $1 kind, $2 slip, $3 from_wid,
// $4 order_id, $5 to_wid, $6 to_spot, $7 the time.
const insertTransit = `
	INSERT INTO transits (kind, slip, from_wid, order_id, to_wid, to_spot, status, shipped, modified)
	VALUES ($1, $2, $3, $4, $5, $6, 'InTransit', $7, $7)
	RETURNING id`

// startTransfer queues the creation of a transfer's transit, whose id
// arrives at the next flush. It is queued before the draw locks its lots, so
// that the ledger entry can name it; a refused draw rolls it back.
func (t *Tx) startTransfer(w stockroom.Withdrawal, e stockroom.LedgerEntry, id *int64) {
	t.queryRow(nil, insertTransit, []any{string(stockroom.TransitTransfer), w.Slip, w.WID, nil, w.ToWID, w.ToSpot, micros(e.Time)}, id)
}

// insertTransferLine makes a transfer's line from the lot it drew from:
// $1 transit, $2 line, $3 units, $4 the lot.
const insertTransferLine = `
	INSERT INTO transit_lines (transit_id, line, part_no, owner, units, received, rejected, serial, serial2, rfid_tag, rec_no, order_line)
	SELECT $1, $2, part_no, owner, $3, 0, 0, serial, serial2, rfid_tag, rec_no, NULL
	FROM lots
	WHERE rec_no = $4`

// applyTransfer takes the draws out of their lots as an issue does, ships
// them in transit transitID (one line per draw) and changes the levels (the
// source's inStock, the destination's aSN), the ledger (one transfer entry)
// and the counts. It returns the ledger entry's id.
func (t *Tx) applyTransfer(w stockroom.Withdrawal, e stockroom.LedgerEntry, transitID int64, cands []stockroom.Candidate, draws []stockroom.Draw) (int64, error) {
	dw := t.queueDraws(w, micros(e.Time), cands, draws)
	lv := t.changeLevels(e.Time,
		levelChange{partNo: w.PartNo, wid: w.WID, owner: w.Owner, inStock: w.Units.Neg(), onHold: dw.held.Neg()},
		levelChange{partNo: w.PartNo, wid: w.ToWID, owner: w.Owner, asn: w.Units})
	details := make(map[string]any, len(e.Details)+1)
	for k, v := range e.Details {
		details[k] = v
	}
	details["transitID"] = transitID
	e.Details = details
	head := ledgerHead{typ: stockroom.TxTransfer, partNo: w.PartNo, wid: w.WID, owner: w.Owner, spot: w.Spot, units: w.Units,
		toWID: &w.ToWID, toSpot: &w.ToSpot, entry: e}
	var id int64
	if err := t.appendHead(head, &id); err != nil {
		return 0, err
	}
	if err := t.flush(); err != nil {
		return 0, err
	}
	for i, ok := range dw.done {
		if !ok {
			return 0, fmt.Errorf("lot %d vanished while locked", draws[i].RecNo)
		}
	}
	if err := lv.settle(dw.counts); err != nil {
		return 0, err
	}
	for i, d := range draws {
		t.exec(insertTransferLine, transitID, i+1, d.Units, d.RecNo)
	}
	t.appendLines(id, dw.lines)
	t.appendFigures(id, []ledgerFigure{{wid: w.ToWID, asn: w.Units}})
	t.addCounts(dw.counts)
	return id, nil
}

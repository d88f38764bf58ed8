package store

import (
	"github.com/stockroom/stockroom"
)

// A transfer is a move with a transit slip to another warehouse: it draws
// lots as an issue does (they leave the source at once; applyDraws), and
// ships a transit with one line per lot drawn, counted in the destination's
// aSN until it is received (transitreceive.go) or canceled
// (transitcancel.go).

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
	t.QueryRow(nil, insertTransit, []any{string(stockroom.TransitTransfer), w.Slip, w.WID, nil, w.ToWID, w.ToSpot, micros(e.Time)}, id)
}

// insertTransferLine makes a transfer's line from the lot it drew from:
// $1 transit, $2 line, $3 units, $4 the lot.
const insertTransferLine = `
	INSERT INTO transit_lines (transit_id, line, part_no, owner, units, received, rejected, serial, serial2, rfid_tag, rec_no, order_line)
	SELECT $1, $2, part_no, owner, $3, 0, 0, serial, serial2, rfid_tag, rec_no, NULL
	FROM lots
	WHERE rec_no = $4`

// shipDraws makes the draws of a transfer the lines of its transit (one per
// lot drawn, numbered from 1), and records the destination's aSN in the
// figures of its ledger entry txID.
func (t *Tx) shipDraws(w stockroom.Withdrawal, txID, transitID int64, draws []stockroom.Draw) {
	for i, d := range draws {
		t.Exec(insertTransferLine, transitID, i+1, d.Units, d.RecNo)
	}
	t.appendFigures(txID, []ledgerFigure{{partNo: w.PartNo, wid: w.ToWID, asn: w.Units}})
}

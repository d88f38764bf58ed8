package store

import (
	"context"

	"github.com/stockroom/stockroom"
)

// SetHold puts the lot h.RecNo on hold or releases it (h.Hold), recording
// key's answer in the same transaction. check sees the locked lot first and may refuse (the
// service judges scope and state there). Setting the state a lot already has
// changes nothing and answers with no transaction id. A lot that does not
// exist is stockroom.ErrNotFound; holding a lot with units allocated to
// orders is stockroom.ErrLotAllocated.
func (db *DB) SetHold(ctx context.Context, key *stockroom.IdempotencyKey, h stockroom.HoldChange, e stockroom.LedgerEntry, check func(stockroom.Lot) error) (stockroom.HoldResult, error) {
	var res stockroom.HoldResult
	err := db.update(ctx, key, func(tx *Tx) (any, error) {
		var err error
		res, err = tx.setHold(h.RecNo, h.Hold, e, check)
		return res, err
	})
	return res, err
}

func (t *Tx) setHold(recNo int64, hold bool, e stockroom.LedgerEntry, check func(stockroom.Lot) error) (stockroom.HoldResult, error) {
	typ := stockroom.TxRelease
	if hold {
		typ = stockroom.TxHold
	}
	res := stockroom.HoldResult{Type: typ, RecNo: recNo}
	var (
		found     bool
		r         lotRow
		allocated stockroom.Units
	)
	l := &r.lot
	// The lot is locked on its own first, then read with the names it is
	// shown with. Locked in the join, a lot moved meanwhile would vanish
	// from the result on PostgreSQL: the join is judged again on the row's
	// new version, against the old warehouse row.
	t.QueryRow(new(bool), `SELECT allocated FROM lots WHERE rec_no = $1`+t.forUpdate(), []any{recNo}, &allocated)
	t.QueryRow(&found, `
		SELECT `+lotSelect+`
		FROM `+lotFrom+`
		WHERE l.rec_no = $1`,
		[]any{recNo}, append(r.dest(), &l.ShortID, &l.Description, &l.Warehouse, &l.Associate)...)
	if err := t.Flush(); err != nil {
		return res, err
	}
	if !found {
		return res, stockroom.ErrNotFound
	}
	res.Lot = r.value()
	if err := check(res.Lot); err != nil {
		return res, err
	}
	switch {
	case res.Lot.Hold == hold:
		return res, nil
	case hold && allocated.Sign() > 0:
		return res, stockroom.ErrLotAllocated
	}
	var modified int64
	t.QueryRow(nil, `
		UPDATE lots SET
			hold = $2,
			modified = CASE WHEN $3 > modified THEN $3 ELSE modified + 1 END
		WHERE rec_no = $1
		RETURNING modified`, []any{recNo, hold, micros(e.Time)}, &modified)
	change := res.Lot.Units
	if !hold {
		change = change.Neg()
	}
	lv := t.changeLevels(e, levelChange{partNo: res.Lot.PartNo, wid: res.Lot.WID, owner: res.Lot.Owner, onHold: change})
	var id int64
	head := ledgerHead{typ: typ, partNo: res.Lot.PartNo, wid: res.Lot.WID, owner: res.Lot.Owner, spot: res.Lot.Spot, units: res.Lot.Units, entry: e}
	if err := t.appendHead(head, &id); err != nil {
		return res, err
	}
	if err := t.Flush(); err != nil {
		return res, err
	}
	counts := countChanges{}
	if err := lv.settle(counts); err != nil {
		return res, err
	}
	t.addCounts(counts)
	res.TransactionID = &id
	res.Lot.Hold, res.Lot.Modified = hold, fromMicros(modified)
	return res, t.holdEvent(e, res)
}

package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/stockroom/stockroom"
)

// Withdraw carries out an issue, a move or a transfer: it locks the lots the withdrawal
// may draw from (stockroom.Withdrawal.Candidates), in draw order, lets
// stockroom.Withdrawal.Plan decide, and applies the draws, recording key's
// answer in the same transaction. Too few units is ECONFLICT with nothing
// changed.
func (db *DB) Withdraw(ctx context.Context, key *stockroom.IdempotencyKey, w stockroom.Withdrawal, e stockroom.LedgerEntry) (stockroom.DrawResult, error) {
	var res stockroom.DrawResult
	var item int64 // a transfer writes a transit too
	if w.Type == stockroom.TxIssue || w.Type == stockroom.TxMove {
		item = w.PartNo
	}
	err := db.updateItem(ctx, key, item, func(tx *Tx) (any, error) {
		var err error
		res, err = tx.withdraw(w, e)
		return res, err
	})
	return res, err
}

// firstCandidates is how many lots a withdrawal locks on its first try.
const firstCandidates = 4

func (t *Tx) withdraw(w stockroom.Withdrawal, e stockroom.LedgerEntry) (stockroom.DrawResult, error) {
	var (
		shortID   string
		dfltOwner int64
		toActive  = sql.NullBool{Bool: true, Valid: true}
	)
	if w.Type != stockroom.TxIssue && w.ToWID != w.WID {
		// The destination's state rides on the item's row: one statement.
		t.QueryRow(nil, `SELECT short_id, dflt_owner, (SELECT active FROM warehouses WHERE wid = $2)
			FROM items WHERE part_no = $1`, []any{w.PartNo, w.ToWID}, &shortID, &dfltOwner, &toActive)
	} else {
		t.QueryRow(nil, `SELECT short_id, dflt_owner FROM items WHERE part_no = $1`, []any{w.PartNo}, &shortID, &dfltOwner)
	}
	var transitID int64
	if w.Type == stockroom.TxTransfer {
		t.startTransfer(w, e, &transitID)
	}
	// Most withdrawals are served by the oldest few lots: lock only those
	// first. If they fall short, lock every candidate after them, so that a
	// refusal for short stock is judged on all of them.
	locks := &lotLocks{sel: w.Candidates()}
	err := t.lockMore(locks, firstCandidates)
	switch {
	case err != nil:
		return stockroom.DrawResult{}, err
	case w.OwnerIsDefault && dfltOwner != w.Owner:
		// The service took the default owner from a stale item: ask again.
		return stockroom.DrawResult{}, stockroom.ErrDefaultOwnerChanged
	case !toActive.Valid:
		return stockroom.DrawResult{}, fmt.Errorf("warehouse %d: %w", w.ToWID, sql.ErrNoRows)
	case !toActive.Bool:
		return stockroom.DrawResult{}, stockroom.ErrWarehouseInactive
	}
	draws, err := w.Plan(locks.cands)
	if err != nil && stockroom.ErrorCode(err) == stockroom.ECONFLICT && !locks.all {
		if err = t.lockMore(locks, 0); err != nil {
			return stockroom.DrawResult{}, err
		}
		draws, err = w.Plan(locks.cands)
	}
	if err != nil {
		return stockroom.DrawResult{}, err
	}
	w.Units = stockroom.DrawnUnits(draws) // a whole-lot move names none
	cands := locks.cands
	id, err := t.applyDraws(w, e, cands, draws, transitID)
	if err != nil {
		return stockroom.DrawResult{}, err
	}
	res := stockroom.DrawResult{TransactionID: id, Type: w.Type, ItemID: shortID, WID: w.WID, Owner: w.Owner, Units: w.Units, Lines: draws}
	if w.Type != stockroom.TxIssue {
		res.ToWID, res.ToSpot = &w.ToWID, &w.ToSpot
	}
	if transitID != 0 {
		res.TransitID = &transitID
	}
	return res, t.drawEvent(e, res)
}

// The statements of a draw from one lot.
const (
	// takeFromLot takes $2 units out of a lot that holds more, $4 of them
	// allocated to orders (0 for a plain draw, all for a ship), at time $3.
	// It sets neither shipped nor active, which the indexes of lots in stock
	// read (migration 11): SQLite rewrites a lot's entries in them only
	// when a statement sets those. It returns the units left.
	takeFromLot = `
		UPDATE lots SET
			units = units - $2,
			allocated = allocated - $4,
			modified = CASE WHEN $3 > modified THEN $3 ELSE modified + 1 END
		WHERE rec_no = $1 AND units > $2
		RETURNING units`
	// emptyLot takes a lot's last $2 units, as takeFromLot does, and ships
	// it. It returns the units left: 0.
	emptyLot = `
		UPDATE lots SET
			units = 0,
			allocated = allocated - $4,
			shipped = $3,
			active = FALSE,
			modified = CASE WHEN $3 > modified THEN $3 ELSE modified + 1 END
		WHERE rec_no = $1 AND units = $2
		RETURNING units`
	// moveLot moves a whole lot, keeping its recNo.
	moveLot = `
		UPDATE lots SET
			wid = $2,
			spot = $3,
			modified = CASE WHEN $4 > modified THEN $4 ELSE modified + 1 END
		WHERE rec_no = $1
		RETURNING rec_no`
	// splitLot copies part of a lot to a new lot at the destination, with
	// the same item, serials, owner, hold and received time; takeFromLot
	// then takes that part out of the source.
	splitLot = `
		INSERT INTO lots (associate, ` + lotColumns + `)
		SELECT associate, part_no, $2, $3, $4, received, NULL, serial, serial2, rfid_tag, remark, owner,
			hold, job_id, active, reference, net_weight, gross_weight, price, expires, supplier, line, $5
		FROM lots
		WHERE rec_no = $1
		RETURNING rec_no`
)

// drawFromLot is the statement of a draw that leaves remaining units in its
// lot: emptyLot for none, else takeFromLot.
func drawFromLot(remaining stockroom.Units) string {
	if remaining.IsZero() {
		return emptyLot
	}
	return takeFromLot
}

// applyDraws changes the drawn lots, the levels, the ledger and the counts;
// a transfer's draws also become the lines of transit transitID (which a
// transfer's ledger entry names). A move's split lots get their recNo in
// draws. It returns the ledger transaction's id.
func (t *Tx) applyDraws(w stockroom.Withdrawal, e stockroom.LedgerEntry, cands []stockroom.Candidate, draws []stockroom.Draw, transitID int64) (int64, error) {
	dw := t.queueDraws(w, micros(e.Time), cands, draws)
	isMove := w.Type == stockroom.TxMove
	crossing := isMove && w.ToWID != w.WID
	var changes []levelChange
	if crossing || !isMove {
		changes = append(changes, levelChange{partNo: w.PartNo, wid: w.WID, owner: w.Owner, inStock: w.Units.Neg(), onHold: dw.held.Neg()})
	}
	if crossing {
		changes = append(changes, levelChange{partNo: w.PartNo, wid: w.ToWID, owner: w.Owner, inStock: w.Units, onHold: dw.held})
	}
	if transitID != 0 {
		changes = append(changes, levelChange{partNo: w.PartNo, wid: w.ToWID, owner: w.Owner, asn: w.Units})
		e = entryWith(e, map[string]any{"transitID": transitID})
	}
	lv := t.changeLevels(e, changes...)
	head := ledgerHead{typ: w.Type, partNo: w.PartNo, wid: w.WID, owner: w.Owner, spot: w.Spot, units: w.Units, entry: e}
	if w.Type != stockroom.TxIssue {
		head.toWID, head.toSpot = &w.ToWID, &w.ToSpot
	}
	var id int64
	if err := t.appendHead(head, &id); err != nil {
		return 0, err
	}
	if err := t.Flush(); err != nil {
		return 0, err
	}
	for i, ok := range dw.done {
		if !ok {
			return 0, fmt.Errorf("lot %d vanished while locked", draws[i].RecNo)
		}
		if isMove {
			draws[i].NewRecNo = &dw.newRecNo[i]
		}
	}
	for line, i := range dw.splits {
		dw.lines[line].recNo = dw.newRecNo[i]
	}
	if err := lv.settle(dw.counts); err != nil {
		return 0, err
	}
	t.appendLines(id, dw.lines)
	if transitID != 0 {
		t.shipDraws(w, id, transitID, draws)
	}
	t.addCounts(dw.counts)
	return id, nil
}

// drawWrites is what the draws of one withdrawal queue: the lots' writes,
// whose results arrive at the next flush, and the ledger lines and count
// changes that follow from them.
type drawWrites struct {
	counts   countChanges
	lines    []ledgerLine
	held     stockroom.Units // of the units drawn, those of held lots
	done     []bool          // per draw: its lot was there to change
	newRecNo []int64         // per draw: the lot split off, if any
	splits   map[int]int     // ledger line -> draw, for the lines of split lots
}

// queueDraws queues the writes of each draw: an issue takes units out of its
// lot, a move moves a whole lot in place or splits a part off.
func (t *Tx) queueDraws(w stockroom.Withdrawal, now int64, cands []stockroom.Candidate, draws []stockroom.Draw) *drawWrites {
	of := make(map[int64]stockroom.Candidate, len(cands))
	for _, c := range cands {
		of[c.RecNo] = c
	}
	dw := &drawWrites{counts: countChanges{}, done: make([]bool, len(draws)), newRecNo: make([]int64, len(draws)), splits: map[int]int{}}
	crossing := w.Type == stockroom.TxMove && w.ToWID != w.WID
	for i, d := range draws {
		c := of[d.RecNo]
		if c.Hold {
			dw.held = dw.held.Add(d.Units)
		}
		from := ledgerLine{recNo: d.RecNo, partNo: w.PartNo, wid: w.WID, spot: c.Spot, units: d.Units.Neg()}
		to := ledgerLine{recNo: d.RecNo, partNo: w.PartNo, wid: w.ToWID, spot: w.ToSpot, units: d.Units}
		switch {
		case w.Type != stockroom.TxMove:
			t.QueryRow(&dw.done[i], drawFromLot(d.Remaining), []any{d.RecNo, d.Units, now, 0}, new(int64))
			if d.Remaining.IsZero() {
				dw.counts.lot(w.WID, -1, false, true)
			}
			dw.lines = append(dw.lines, from)
		case d.Remaining.IsZero():
			t.QueryRow(&dw.done[i], moveLot, []any{d.RecNo, w.ToWID, w.ToSpot, now}, new(int64))
			if crossing {
				dw.counts.lot(w.WID, -1, true, true)
				dw.counts.lot(w.ToWID, 1, true, true)
			}
			dw.lines = append(dw.lines, from, to)
		default:
			t.QueryRow(&dw.done[i], splitLot, []any{d.RecNo, w.ToWID, w.ToSpot, d.Units, now}, &dw.newRecNo[i])
			t.QueryRow(nil, takeFromLot, []any{d.RecNo, d.Units, now, 0}, new(int64)) // no row: the plan misread the lot
			dw.counts.lot(w.ToWID, 1, true, true)
			dw.splits[len(dw.lines)+1] = i
			dw.lines = append(dw.lines, from, to)
		}
	}
	return dw
}

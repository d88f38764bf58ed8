package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
)

// The three stock transactions and holds. Each runs in one transaction that
// changes lots, stock levels, lot counts and the ledger together, or nothing.
// Row locks are always taken in the same order (lots in draw order, then
// stock levels by item and warehouse, then the counters by name), so
// concurrent transactions queue instead of deadlocking. The counters, shared
// by every transaction, come last so their rows stay locked only until the
// commit.

// Receive stores a new lot and returns it with its transaction id. It returns
// stockroom.ErrDiscontinued for a discontinued item.
func (db *DB) Receive(ctx context.Context, r stockroom.Receipt, e stockroom.LedgerEntry) (stockroom.Lot, int64, error) {
	var (
		lot  stockroom.Lot
		txID int64
	)
	err := db.inWriteTx(ctx, func(tx *sql.Tx) error {
		// The lot is only inserted while the item is not discontinued,
		// checked in the same statement so no discontinue can slip between.
		// It goes in one batch with the levels; if the item was
		// discontinued, the error rolls those back.
		b := db.newBatch()
		var recNo sql.NullInt64
		b.add(&recNo, func(a *args) string {
			now := a.add(micros(e.Time))
			return `
				INSERT INTO lots (part_no, wid, spot, units, received, shipped, serial, serial2, rfid_tag, remark,
					associate, hold, job_id, active, reference, net_weight, gross_weight, price, expires, supplier,
					line, modified)
				SELECT part_no, ` + strings.Join([]string{a.add(r.WID), a.add(r.Spot), a.add(r.Units), now, "NULL",
				a.add(r.Serial), a.add(r.Serial2), a.add(r.RFIDTag), a.add(r.Remark), "''", a.add(false), a.add(r.JobID),
				a.add(true), a.add(r.Reference), a.add(r.NetWeight), a.add(r.GrossWeight), a.add(r.Price),
				a.add(optMicros(r.Expires)), a.add(r.Supplier), a.add(r.Line), now}, ", ") + `
				FROM items
				WHERE part_no = ` + a.add(r.PartNo) + ` AND NOT discontinued
				RETURNING rec_no`
		})
		counts := countChanges{}
		if err := adjustLevels(ctx, tx, b, e.Time, counts, levelChange{partNo: r.PartNo, wid: r.WID, inStock: r.Units}); err != nil {
			return err
		}
		if !recNo.Valid {
			return stockroom.ErrDiscontinued
		}
		counts.lot(r.WID, 1, true, true)
		var err error
		txID, err = db.appendLedger(ctx, tx,
			ledgerHead{typ: stockroom.TxReceive, partNo: r.PartNo, wid: r.WID, spot: r.Spot, units: r.Units, entry: e},
			[]ledgerLine{{recNo: recNo.Int64, partNo: r.PartNo, wid: r.WID, spot: r.Spot, units: r.Units}}, counts)
		if err != nil {
			return err
		}
		lot, err = scanLot(tx.QueryRowContext(ctx, `SELECT `+lotColumns+` FROM `+lotFrom+` WHERE l.rec_no = $1`, recNo.Int64))
		return err
	})
	return lot, txID, err
}

// Withdraw carries out an issue or a move: it locks the candidate lots in
// draw order, lets stockroom.PlanDraw decide, and applies the draws. Too few
// units is ECONFLICT with nothing changed.
func (db *DB) Withdraw(ctx context.Context, w stockroom.Withdrawal, e stockroom.LedgerEntry) ([]stockroom.Draw, int64, error) {
	var (
		draws []stockroom.Draw
		txID  int64
	)
	err := db.inWriteTx(ctx, func(tx *sql.Tx) error {
		// Most withdrawals are served by the oldest few lots: lock only those
		// first. If they fall short, lock every candidate, so that a refusal
		// for short stock is always judged on all of them.
		cands, heldOf, spotOf, err := db.lockCandidates(ctx, tx, w, firstCandidates)
		if err != nil {
			return err
		}
		if draws, err = stockroom.PlanDraw(cands, w.Units); err != nil {
			if stockroom.ErrorCode(err) != stockroom.ECONFLICT {
				return err
			}
			if cands, heldOf, spotOf, err = db.lockCandidates(ctx, tx, w, 0); err != nil {
				return err
			}
			if draws, err = stockroom.PlanDraw(cands, w.Units); err != nil {
				return err
			}
		}
		now := micros(e.Time)
		counts := countChanges{}
		var (
			lines    []ledgerLine
			held     stockroom.Units
			isMove   = w.Type == stockroom.TxMove
			crossing = isMove && w.ToWID != w.WID
			b        = db.newBatch()
			done     = make([]sql.NullInt64, len(draws))
		)
		// The lots' writes go in one batch with the levels'; lines for split
		// lots get their recNo once it has run.
		splitLines := map[int]int{} // line index -> draw index
		for i, d := range draws {
			if heldOf[d.RecNo] {
				held += d.Units
			}
			from := ledgerLine{recNo: d.RecNo, partNo: w.PartNo, wid: w.WID, spot: spotOf[d.RecNo], units: -d.Units}
			switch {
			case !isMove:
				b.add(&done[i], func(a *args) string {
					recNo, units, now := a.add(d.RecNo), a.add(d.Units), a.add(now)
					return `
						UPDATE lots SET
							units = units - ` + units + `,
							shipped = CASE WHEN units = ` + units + ` THEN ` + now + ` ELSE shipped END,
							active = units > ` + units + `,
							modified = ` + bumpModified("modified", now) + `
						WHERE rec_no = ` + recNo + `
						RETURNING rec_no`
				})
				if d.Remaining == 0 {
					counts.lot(w.WID, -1, false, true)
				}
				lines = append(lines, from)
			case d.Remaining == 0: // the whole lot moves, keeping its recNo
				b.add(&done[i], func(a *args) string {
					recNo, wid, spot, now := a.add(d.RecNo), a.add(w.ToWID), a.add(w.ToSpot), a.add(now)
					return `
						UPDATE lots SET
							wid = ` + wid + `,
							spot = ` + spot + `,
							modified = ` + bumpModified("modified", now) + `
						WHERE rec_no = ` + recNo + `
						RETURNING rec_no`
				})
				if crossing {
					counts.lot(w.WID, -1, true, true)
					counts.lot(w.ToWID, 1, true, true)
				}
				lines = append(lines, from, ledgerLine{recNo: d.RecNo, partNo: w.PartNo, wid: w.ToWID, spot: w.ToSpot, units: d.Units})
			default: // a part splits off into a new lot at the destination
				splitLot(b, &done[i], d.RecNo, d.Units, w.ToWID, w.ToSpot, now)
				counts.lot(w.ToWID, 1, true, true)
				splitLines[len(lines)+1] = i
				lines = append(lines, from, ledgerLine{partNo: w.PartNo, wid: w.ToWID, spot: w.ToSpot, units: d.Units})
			}
			if err := b.runIfFull(ctx, tx); err != nil { // a draw from very many lots
				return err
			}
		}
		changes := []levelChange{{partNo: w.PartNo, wid: w.WID, inStock: -w.Units, onHold: -held}}
		if isMove {
			changes = append(changes, levelChange{partNo: w.PartNo, wid: w.ToWID, inStock: w.Units, onHold: held})
		}
		if !crossing && isMove {
			changes = nil // within one warehouse the levels do not change
		}
		if err := adjustLevels(ctx, tx, b, e.Time, counts, changes...); err != nil {
			return err
		}
		for i, d := range done {
			if !d.Valid {
				return fmt.Errorf("lot %d vanished while locked", draws[i].RecNo)
			}
		}
		for line, i := range splitLines {
			draws[i].NewRecNo = done[i].Int64
			lines[line].recNo = done[i].Int64
		}
		head := ledgerHead{typ: w.Type, partNo: w.PartNo, wid: w.WID, spot: w.Spot, units: w.Units, entry: e}
		if isMove {
			head.toWID, head.toSpot = &w.ToWID, &w.ToSpot
		}
		txID, err = db.appendLedger(ctx, tx, head, lines, counts)
		return err
	})
	return draws, txID, err
}

// splitLot queues taking units out of lot recNo into a new lot at the
// destination, carrying the same item, serials, owner, hold and received
// time; newRecNo is the new lot's recNo once b has run. The new lot copies
// the source row as it was before the split (on PostgreSQL both statements
// see the same snapshot): the columns copied are not the ones that change.
func splitLot(b *batch, newRecNo *sql.NullInt64, recNo int64, units stockroom.Units, toWID int64, toSpot string, now int64) {
	b.add(newRecNo, func(a *args) string {
		return `
			INSERT INTO lots (part_no, wid, spot, units, received, shipped, serial, serial2, rfid_tag,
				remark, associate, hold, job_id, active, reference, net_weight, gross_weight, price,
				expires, supplier, line, modified)
			SELECT part_no, ` + a.add(toWID) + `, ` + a.add(toSpot) + `, ` + a.add(units) + `, received, NULL, serial, serial2, rfid_tag,
				remark, associate, hold, job_id, active, reference, net_weight, gross_weight, price,
				expires, supplier, line, ` + a.add(now) + `
			FROM lots
			WHERE rec_no = ` + a.add(recNo) + `
			RETURNING rec_no`
	})
	b.exec(func(a *args) string {
		return `
			UPDATE lots SET
				units = units - ` + a.add(units) + `,
				modified = ` + bumpModified("modified", a.add(now)) + `
			WHERE rec_no = ` + a.add(recNo)
	})
}

// firstCandidates is how many lots a withdrawal locks on its first try.
const firstCandidates = 4

// lockCandidates locks and returns the lots a withdrawal may draw from, in
// draw order: oldest received first, then lowest recNo; the first limit of
// them, or all when limit is 0.
func (db *DB) lockCandidates(ctx context.Context, tx *sql.Tx, w stockroom.Withdrawal, limit int) ([]stockroom.Candidate, map[int64]bool, map[int64]string, error) {
	var a args
	conds := []string{
		"part_no = " + a.add(w.PartNo),
		"wid = " + a.add(w.WID),
		"units > 0",
	}
	// Held lots never issue, and move only when named by recNo.
	if w.Type != stockroom.TxMove || w.RecNo == 0 {
		conds = append(conds, "NOT hold")
	}
	for _, f := range []struct{ col, v string }{{"spot", w.Spot}, {"serial", w.Serial}, {"serial2", w.Serial2}, {"rfid_tag", w.RFIDTag}} {
		if f.v != "" {
			conds = append(conds, f.col+" = "+a.add(f.v))
		}
	}
	if w.RecNo != 0 {
		conds = append(conds, "rec_no = "+a.add(w.RecNo))
	}
	if !w.Received.IsZero() {
		day := w.Received.UTC().Truncate(24 * time.Hour)
		conds = append(conds, "received >= "+a.add(micros(day)), "received < "+a.add(micros(day.Add(24*time.Hour))))
	}
	if w.Type == stockroom.TxMove && w.ToWID == w.WID {
		// Lots already at the destination are not moved onto themselves.
		conds = append(conds, "spot <> "+a.add(w.ToSpot))
	}
	limitClause := ""
	if limit > 0 {
		limitClause = " LIMIT " + a.add(limit)
	}
	rows, err := tx.QueryContext(ctx, `
		SELECT rec_no, units, hold, spot
		FROM lots
		WHERE `+strings.Join(conds, " AND ")+`
		ORDER BY received, rec_no`+limitClause+db.forUpdate(), a...)
	if err != nil {
		return nil, nil, nil, err
	}
	defer rows.Close()
	var (
		cands = []stockroom.Candidate{}
		held  = map[int64]bool{}
		spots = map[int64]string{}
	)
	for rows.Next() {
		var (
			c    stockroom.Candidate
			spot string
		)
		if err := rows.Scan(&c.RecNo, &c.Units, &c.Hold, &spot); err != nil {
			return nil, nil, nil, err
		}
		cands = append(cands, c)
		held[c.RecNo], spots[c.RecNo] = c.Hold, spot
	}
	return cands, held, spots, rows.Err()
}

// SetHold puts a lot on hold or releases it. check sees the locked lot first
// and may refuse (the service checks scope there). Setting the state a lot
// already has changes nothing and returns transaction id 0; an emptied lot is
// ECONFLICT.
func (db *DB) SetHold(ctx context.Context, recNo int64, hold bool, e stockroom.LedgerEntry, check func(stockroom.Lot) error) (stockroom.Lot, int64, error) {
	var (
		lot  stockroom.Lot
		txID int64
	)
	err := db.inWriteTx(ctx, func(tx *sql.Tx) error {
		var locked int64
		err := tx.QueryRowContext(ctx, `SELECT rec_no FROM lots WHERE rec_no = $1`+db.forUpdate(), recNo).Scan(&locked)
		if errors.Is(err, sql.ErrNoRows) {
			return stockroom.Errorf(stockroom.ENOTFOUND, "No lot with recNo %d.", recNo)
		} else if err != nil {
			return err
		}
		if lot, err = scanLot(tx.QueryRowContext(ctx, `SELECT `+lotColumns+` FROM `+lotFrom+` WHERE l.rec_no = $1`, recNo)); err != nil {
			return err
		}
		if err := check(lot); err != nil {
			return err
		}
		if lot.Units == 0 {
			return stockroom.Errorf(stockroom.ECONFLICT, "Lot %d is empty.", recNo)
		}
		if lot.Hold == hold {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `
			UPDATE lots SET
				hold = $2,
				modified = `+bumpModified("modified", "$3")+`
			WHERE rec_no = $1`, recNo, hold, micros(e.Time)); err != nil {
			return err
		}
		change := lot.Units
		typ := stockroom.TxHold
		if !hold {
			change, typ = -change, stockroom.TxRelease
		}
		counts := countChanges{}
		if err := adjustLevels(ctx, tx, db.newBatch(), e.Time, counts, levelChange{partNo: lot.PartNo, wid: lot.WID, onHold: change}); err != nil {
			return err
		}
		if txID, err = db.appendLedger(ctx, tx, ledgerHead{typ: typ, partNo: lot.PartNo, wid: lot.WID, spot: lot.Spot, units: lot.Units, entry: e}, nil, counts); err != nil {
			return err
		}
		lot, err = scanLot(tx.QueryRowContext(ctx, `SELECT `+lotColumns+` FROM `+lotFrom+` WHERE l.rec_no = $1`, recNo))
		return err
	})
	return lot, txID, err
}

// ReceiveMany stores many receipts in one transaction, each as its own lot
// and ledger entry, exactly as Receive would; levels and counts are updated
// once per batch. It is for bulk loads (the demo command) and returns how
// many lots it stored.
func (db *DB) ReceiveMany(ctx context.Context, rs []stockroom.Receipt, e stockroom.LedgerEntry) (int, error) {
	err := db.inWriteTx(ctx, func(tx *sql.Tx) error {
		insLot, err := tx.PrepareContext(ctx, `
			INSERT INTO lots (part_no, wid, spot, units, received, shipped, serial, serial2, rfid_tag, remark,
				associate, hold, job_id, active, reference, net_weight, gross_weight, price, expires, supplier,
				line, modified)
			VALUES ($1, $2, $3, $4, $5, NULL, $6, '', '', '', '', $7, 0, $8, $9, 0, 0, $10, NULL, $11, 0, $5)
			RETURNING rec_no`)
		if err != nil {
			return err
		}
		defer insLot.Close()
		levels := map[[2]int64]stockroom.Units{}
		counts := countChanges{}
		for _, r := range rs {
			var recNo int64
			if err := insLot.QueryRowContext(ctx, r.PartNo, r.WID, r.Spot, r.Units, micros(e.Time), r.Serial,
				false, true, r.Reference, r.Price, r.Supplier).Scan(&recNo); err != nil {
				return err
			}
			if _, err := db.appendLedger(ctx, tx,
				ledgerHead{typ: stockroom.TxReceive, partNo: r.PartNo, wid: r.WID, spot: r.Spot, units: r.Units, entry: e},
				[]ledgerLine{{recNo: recNo, partNo: r.PartNo, wid: r.WID, spot: r.Spot, units: r.Units}}, nil); err != nil {
				return err
			}
			levels[[2]int64{r.PartNo, r.WID}] += r.Units
			counts.lot(r.WID, 1, true, true)
		}
		changes := make([]levelChange, 0, len(levels))
		for k, units := range levels {
			changes = append(changes, levelChange{partNo: k[0], wid: k[1], inStock: units})
		}
		if err := adjustLevels(ctx, tx, db.newBatch(), e.Time, counts, changes...); err != nil {
			return err
		}
		return addCounts(ctx, tx, counts.deltas()...)
	})
	if err != nil {
		return 0, err
	}
	return len(rs), nil
}

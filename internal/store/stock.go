package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
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

// bumpModified is the SQL for a modified time that moves forward only.
func bumpModified(col, param string) string {
	return "CASE WHEN " + param + " > " + col + " THEN " + param + " ELSE " + col + " + 1 END"
}

// levelChange is a change to one stock level row.
type levelChange struct {
	partNo, wid     int64
	inStock, onHold stockroom.Units
}

// adjustLevels applies level changes in item-then-warehouse order, then the
// items' all-warehouse totals, and adds the changes to the counts of stocked
// items to counts, for the caller to apply with its own.
func adjustLevels(ctx context.Context, tx *sql.Tx, now time.Time, counts lotCounts, changes ...levelChange) error {
	slices.SortFunc(changes, func(a, b levelChange) int {
		if a.partNo != b.partNo {
			return cmp.Compare(a.partNo, b.partNo)
		}
		return cmp.Compare(a.wid, b.wid)
	})
	var totals []levelChange // one per item, wid 0
	for _, c := range changes {
		if c.inStock == 0 && c.onHold == 0 {
			continue
		}
		before, err := adjustLevel(ctx, tx, warehouseLevel(c), c, now)
		if err != nil {
			return err
		}
		counts[stockedCounter(c.wid)] += stockedChange(before, c.inStock)
		if n := len(totals); n > 0 && totals[n-1].partNo == c.partNo {
			totals[n-1].inStock += c.inStock
			totals[n-1].onHold += c.onHold
		} else {
			totals = append(totals, levelChange{partNo: c.partNo, inStock: c.inStock, onHold: c.onHold})
		}
	}
	for _, c := range totals {
		if c.inStock == 0 && c.onHold == 0 {
			continue
		}
		before, err := adjustLevel(ctx, tx, totalLevel(c), c, now)
		if err != nil {
			return err
		}
		counts[stockedCounter(0)] += stockedChange(before, c.inStock)
	}
	return nil
}

// stockedChange is the change in "items with stock" when in_stock goes from
// before to before+by.
func stockedChange(before, by stockroom.Units) int64 {
	switch after := before + by; {
	case before == 0 && after != 0:
		return 1
	case before != 0 && after == 0:
		return -1
	}
	return 0
}

// stockedCounter names the count of items with stock in a warehouse (0: in
// any warehouse).
func stockedCounter(wid int64) string { return "stocked:" + strconv.FormatInt(wid, 10) }

// levelRow names one row of stock_levels (by item and warehouse) or of
// stock_totals (by item).
type levelRow struct {
	table string
	keys  []string
	vals  []any
}

func warehouseLevel(c levelChange) levelRow {
	return levelRow{"stock_levels", []string{"part_no", "wid"}, []any{c.partNo, c.wid}}
}

func totalLevel(c levelChange) levelRow {
	return levelRow{"stock_totals", []string{"part_no"}, []any{c.partNo}}
}

// adjustLevel changes one level row and returns its in_stock before the
// change. Stock arriving may create the row; anything else updates a row that
// must exist. (An upsert would not do for the rest: CHECK constraints judge
// the row proposed for insertion.)
func adjustLevel(ctx context.Context, tx *sql.Tx, row levelRow, c levelChange, now time.Time) (stockroom.Units, error) {
	var (
		a     args
		after stockroom.Units
		keyPh = make([]string, len(row.keys))
		match = make([]string, len(row.keys))
	)
	for i, k := range row.keys {
		keyPh[i] = a.add(row.vals[i])
		match[i] = k + " = " + keyPh[i]
	}
	in, hold, mod := a.add(c.inStock), a.add(c.onHold), a.add(micros(now))
	if c.inStock <= 0 {
		err := tx.QueryRowContext(ctx, `
			UPDATE `+row.table+` SET
				in_stock = in_stock + `+in+`,
				on_hold = on_hold + `+hold+`,
				modified = `+bumpModified("modified", mod)+`
			WHERE `+strings.Join(match, " AND ")+`
			RETURNING in_stock`, a...).Scan(&after)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("%s row %v is missing", row.table, row.vals)
		}
		return after - c.inStock, err
	}
	keys := strings.Join(row.keys, ", ")
	err := tx.QueryRowContext(ctx, `
		INSERT INTO `+row.table+` (`+keys+`, in_stock, on_hold, committed, packed, on_order, asn, modified)
		VALUES (`+strings.Join(keyPh, ", ")+`, `+in+`, `+hold+`, 0, 0, 0, 0, `+mod+`)
		ON CONFLICT (`+keys+`) DO UPDATE SET
			in_stock = `+row.table+`.in_stock + excluded.in_stock,
			on_hold = `+row.table+`.on_hold + excluded.on_hold,
			modified = `+bumpModified(row.table+".modified", "excluded.modified")+`
		RETURNING in_stock`, a...).Scan(&after)
	return after - c.inStock, err
}

// lotCounts accumulates changes to kept counts (lots and stocked items) over
// a transaction, to be applied in one statement at its end.
type lotCounts map[string]int64

// lot records a lot appearing (+1) or leaving (-1) warehouse wid; inStock
// says whether it counts towards the in-stock count too.
func (c lotCounts) lot(wid int64, by int64, all, inStock bool) {
	for _, w := range []int64{wid, 0} {
		if all {
			c[lotCounter(w, false)] += by
		}
		if inStock {
			c[lotCounter(w, true)] += by
		}
	}
}

func (c lotCounts) apply(ctx context.Context, tx *sql.Tx) error {
	var ds []delta
	for name, by := range c {
		ds = append(ds, delta{name, by})
	}
	slices.SortFunc(ds, func(a, b delta) int { return cmp.Compare(a.name, b.name) })
	return addCounts(ctx, tx, ds...)
}

// ledgerLine is one lot's signed change.
type ledgerLine struct {
	recNo, partNo, wid int64
	spot               string
	units              stockroom.Units
}

// ledgerHead is a transaction's own row.
type ledgerHead struct {
	typ         string
	partNo, wid int64
	toWID       *int64
	spot        string
	toSpot      *string
	units       stockroom.Units
	entry       stockroom.LedgerEntry
}

// appendLedger writes a transaction and its lines and returns its id. On
// PostgreSQL both go in one statement (a data-modifying WITH, which SQLite
// lacks), saving a round trip on every stock transaction.
func (db *DB) appendLedger(ctx context.Context, tx *sql.Tx, h ledgerHead, lines []ledgerLine) (int64, error) {
	details := h.entry.Details
	if details == nil {
		details = map[string]any{}
	}
	js, err := json.Marshal(details)
	if err != nil {
		return 0, err
	}
	var reason any
	if h.entry.ReasonCode != 0 {
		reason = h.entry.ReasonCode
	}
	var a args
	head := `
		INSERT INTO transactions (type, time, client_id, part_no, wid, to_wid, spot, to_spot, units,
			reason_code, reference, remark, details)
		VALUES (` + strings.Join([]string{
		a.add(h.typ), a.add(micros(h.entry.Time)), a.add(h.entry.ClientID), a.add(h.partNo), a.add(h.wid),
		a.add(h.toWID), a.add(h.spot), a.add(h.toSpot), a.add(h.units), a.add(reason), a.add(h.entry.Reference),
		a.add(h.entry.Remark), a.add(string(js)),
	}, ", ") + `)
		RETURNING id`
	var id int64
	if db.engine == Postgres && len(lines) > 0 {
		rows := make([]string, len(lines))
		for i, l := range lines {
			rows[i] = "(CAST(" + a.add(i+1) + " AS INTEGER), CAST(" + a.add(l.recNo) + " AS BIGINT), CAST(" +
				a.add(l.partNo) + " AS BIGINT), CAST(" + a.add(l.wid) + " AS BIGINT), CAST(" + a.add(l.spot) +
				" AS TEXT), CAST(" + a.add(l.units) + " AS BIGINT))"
		}
		err := tx.QueryRowContext(ctx, `
			WITH t AS (`+head+`),
			l AS (
				INSERT INTO transaction_lines (transaction_id, line, rec_no, part_no, wid, spot, units)
				SELECT t.id, v.line, v.rec_no, v.part_no, v.wid, v.spot, v.units
				FROM t, (VALUES `+strings.Join(rows, ", ")+`) AS v (line, rec_no, part_no, wid, spot, units)
			)
			SELECT id FROM t`, a...).Scan(&id)
		return id, err
	}
	if err := tx.QueryRowContext(ctx, head, a...).Scan(&id); err != nil {
		return 0, err
	}
	if len(lines) == 0 {
		return id, nil
	}
	var (
		b    args
		rows = make([]string, len(lines))
	)
	for i, l := range lines {
		rows[i] = "(" + strings.Join([]string{b.add(id), b.add(i + 1), b.add(l.recNo), b.add(l.partNo), b.add(l.wid), b.add(l.spot), b.add(l.units)}, ", ") + ")"
	}
	_, err = tx.ExecContext(ctx, `
		INSERT INTO transaction_lines (transaction_id, line, rec_no, part_no, wid, spot, units)
		VALUES `+strings.Join(rows, ", "), b...)
	return id, err
}

// Receive stores a new lot and returns it with its transaction id. It returns
// stockroom.ErrDiscontinued for a discontinued item.
func (db *DB) Receive(ctx context.Context, r stockroom.Receipt, e stockroom.LedgerEntry) (stockroom.Lot, int64, error) {
	var (
		lot  stockroom.Lot
		txID int64
	)
	err := db.inWriteTx(ctx, func(tx *sql.Tx) error {
		now := micros(e.Time)
		// The lot is only inserted while the item is not discontinued,
		// checked in the same statement so no discontinue can slip between.
		insert := `
			INSERT INTO lots (part_no, wid, spot, units, received, shipped, serial, serial2, rfid_tag, remark,
				associate, hold, job_id, active, reference, net_weight, gross_weight, price, expires, supplier,
				line, modified)
			SELECT $1, $2, $3, $4, $5, NULL, $6, $7, $8, $9, '', $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $5
			FROM items
			WHERE part_no = $1 AND NOT discontinued
			RETURNING *`
		a := []any{r.PartNo, r.WID, r.Spot, r.Units, now, r.Serial, r.Serial2, r.RFIDTag, r.Remark,
			false, r.JobID, true, r.Reference, r.NetWeight, r.GrossWeight, r.Price, optMicros(r.Expires),
			r.Supplier, r.Line}
		var err error
		if db.engine == Postgres {
			// One statement inserts the lot and reads it back with its names.
			lot, err = scanLot(tx.QueryRowContext(ctx, `WITH l AS (`+insert+`)
				SELECT `+lotColumns+`
				FROM l JOIN items i ON i.part_no = l.part_no JOIN warehouses w ON w.wid = l.wid`, a...))
		} else {
			var recNo int64
			err = tx.QueryRowContext(ctx, strings.Replace(insert, "RETURNING *", "RETURNING rec_no", 1), a...).Scan(&recNo)
			if err == nil {
				lot, err = scanLot(tx.QueryRowContext(ctx, `SELECT `+lotColumns+` FROM `+lotFrom+` WHERE l.rec_no = $1`, recNo))
			}
		}
		if errors.Is(err, sql.ErrNoRows) {
			return stockroom.ErrDiscontinued
		} else if err != nil {
			return err
		}
		recNo := lot.RecNo
		counts := lotCounts{}
		if err := adjustLevels(ctx, tx, e.Time, counts, levelChange{partNo: r.PartNo, wid: r.WID, inStock: r.Units}); err != nil {
			return err
		}
		counts.lot(r.WID, 1, true, true)
		txID, err = db.appendLedger(ctx, tx,
			ledgerHead{typ: stockroom.TxReceive, partNo: r.PartNo, wid: r.WID, spot: r.Spot, units: r.Units, entry: e},
			[]ledgerLine{{recNo: recNo, partNo: r.PartNo, wid: r.WID, spot: r.Spot, units: r.Units}})
		if err != nil {
			return err
		}
		return counts.apply(ctx, tx)
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
		counts := lotCounts{}
		var (
			lines    []ledgerLine
			held     stockroom.Units
			isMove   = w.Type == stockroom.TxMove
			crossing = isMove && w.ToWID != w.WID
		)
		for i, d := range draws {
			if heldOf[d.RecNo] {
				held += d.Units
			}
			from := ledgerLine{recNo: d.RecNo, partNo: w.PartNo, wid: w.WID, spot: spotOf[d.RecNo], units: -d.Units}
			switch {
			case !isMove:
				_, err = tx.ExecContext(ctx, `
					UPDATE lots SET
						units = units - $2,
						shipped = CASE WHEN units = $2 THEN $3 ELSE shipped END,
						active = units > $2,
						modified = `+bumpModified("modified", "$3")+`
					WHERE rec_no = $1`, d.RecNo, d.Units, now)
				if d.Remaining == 0 {
					counts.lot(w.WID, -1, false, true)
				}
				lines = append(lines, from)
			case d.Remaining == 0: // the whole lot moves, keeping its recNo
				_, err = tx.ExecContext(ctx, `
					UPDATE lots SET
						wid = $2,
						spot = $3,
						modified = `+bumpModified("modified", "$4")+`
					WHERE rec_no = $1`, d.RecNo, w.ToWID, w.ToSpot, now)
				if crossing {
					counts.lot(w.WID, -1, true, true)
					counts.lot(w.ToWID, 1, true, true)
				}
				lines = append(lines, from, ledgerLine{recNo: d.RecNo, partNo: w.PartNo, wid: w.ToWID, spot: w.ToSpot, units: d.Units})
			default: // a part splits off into a new lot at the destination
				draws[i].NewRecNo, err = db.splitLot(ctx, tx, d.RecNo, d.Units, w.ToWID, w.ToSpot, now)
				counts.lot(w.ToWID, 1, true, true)
				lines = append(lines, from, ledgerLine{recNo: draws[i].NewRecNo, partNo: w.PartNo, wid: w.ToWID, spot: w.ToSpot, units: d.Units})
			}
			if err != nil {
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
		if err := adjustLevels(ctx, tx, e.Time, counts, changes...); err != nil {
			return err
		}
		head := ledgerHead{typ: w.Type, partNo: w.PartNo, wid: w.WID, spot: w.Spot, units: w.Units, entry: e}
		if isMove {
			head.toWID, head.toSpot = &w.ToWID, &w.ToSpot
		}
		if txID, err = db.appendLedger(ctx, tx, head, lines); err != nil {
			return err
		}
		return counts.apply(ctx, tx)
	})
	return draws, txID, err
}

// splitLot takes units out of lot recNo into a new lot at the destination,
// carrying the same item, serials, owner, hold and received time, and returns
// the new lot's recNo. On PostgreSQL it is one statement.
func (db *DB) splitLot(ctx context.Context, tx *sql.Tx, recNo int64, units stockroom.Units, toWID int64, toSpot string, now int64) (int64, error) {
	const columns = `part_no, wid, spot, units, received, shipped, serial, serial2, rfid_tag,
		remark, associate, hold, job_id, active, reference, net_weight, gross_weight, price,
		expires, supplier, line, modified`
	const copied = `part_no, $3, $4, $2, received, NULL, serial, serial2, rfid_tag,
		remark, associate, hold, job_id, active, reference, net_weight, gross_weight, price,
		expires, supplier, line, $5`
	update := func(modified string) string {
		return `
		UPDATE lots SET
			units = units - $2,
			modified = ` + bumpModified("modified", modified) + `
		WHERE rec_no = $1`
	}
	var newRecNo int64
	if db.engine == Postgres {
		err := tx.QueryRowContext(ctx, `
			WITH src AS (`+update("$5")+` RETURNING *)
			INSERT INTO lots (`+columns+`)
			SELECT `+copied+` FROM src
			RETURNING rec_no`, recNo, units, toWID, toSpot, now).Scan(&newRecNo)
		return newRecNo, err
	}
	if _, err := tx.ExecContext(ctx, update("$3"), recNo, units, now); err != nil {
		return 0, err
	}
	err := tx.QueryRowContext(ctx, `
		INSERT INTO lots (`+columns+`)
		SELECT `+copied+` FROM lots WHERE rec_no = $1
		RETURNING rec_no`, recNo, units, toWID, toSpot, now).Scan(&newRecNo)
	return newRecNo, err
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
		counts := lotCounts{}
		if err := adjustLevels(ctx, tx, e.Time, counts, levelChange{partNo: lot.PartNo, wid: lot.WID, onHold: change}); err != nil {
			return err
		}
		if txID, err = db.appendLedger(ctx, tx, ledgerHead{typ: typ, partNo: lot.PartNo, wid: lot.WID, spot: lot.Spot, units: lot.Units, entry: e}, nil); err != nil {
			return err
		}
		if lot, err = scanLot(tx.QueryRowContext(ctx, `SELECT `+lotColumns+` FROM `+lotFrom+` WHERE l.rec_no = $1`, recNo)); err != nil {
			return err
		}
		return counts.apply(ctx, tx)
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
		counts := lotCounts{}
		for _, r := range rs {
			var recNo int64
			if err := insLot.QueryRowContext(ctx, r.PartNo, r.WID, r.Spot, r.Units, micros(e.Time), r.Serial,
				false, true, r.Reference, r.Price, r.Supplier).Scan(&recNo); err != nil {
				return err
			}
			if _, err := db.appendLedger(ctx, tx,
				ledgerHead{typ: stockroom.TxReceive, partNo: r.PartNo, wid: r.WID, spot: r.Spot, units: r.Units, entry: e},
				[]ledgerLine{{recNo: recNo, partNo: r.PartNo, wid: r.WID, spot: r.Spot, units: r.Units}}); err != nil {
				return err
			}
			levels[[2]int64{r.PartNo, r.WID}] += r.Units
			counts.lot(r.WID, 1, true, true)
		}
		changes := make([]levelChange, 0, len(levels))
		for k, units := range levels {
			changes = append(changes, levelChange{partNo: k[0], wid: k[1], inStock: units})
		}
		if err := adjustLevels(ctx, tx, e.Time, counts, changes...); err != nil {
			return err
		}
		return counts.apply(ctx, tx)
	})
	if err != nil {
		return 0, err
	}
	return len(rs), nil
}

package store

import (
	"encoding/json"
	"strings"

	"github.com/stockroom/stockroom"
)

// The ledger: one row per stock transaction, one line per lot it touched,
// with signed units. It is only ever appended to.

// ledgerHead is a transaction's own row.
type ledgerHead struct {
	typ         stockroom.TxType
	partNo, wid int64
	owner       int64
	toWID       *int64
	spot        string
	toSpot      *string
	units       stockroom.Units
	entry       stockroom.LedgerEntry
}

// ledgerLine is one lot's signed change.
type ledgerLine struct {
	recNo, partNo, wid int64
	spot               string
	units              stockroom.Units
}

// appendHead queues a transaction's row; id receives its id at the next
// flush.
func (t *Tx) appendHead(h ledgerHead, id *int64) error {
	return t.appendHeadIf(h, id, nil)
}

// appendHeadIf is appendHead for a row written only if its item is not
// discontinued, as a receipt's lot is: then found reports whether it was, and
// a refused receipt takes no id from the sequence (ids stay gapless where
// nothing else fails).
func (t *Tx) appendHeadIf(h ledgerHead, id *int64, found *bool) error {
	details := h.entry.Details
	if details == nil {
		details = map[string]any{}
	}
	js, err := json.Marshal(details)
	if err != nil {
		return err
	}
	var reason any
	if h.entry.ReasonCode != 0 {
		reason = h.entry.ReasonCode
	}
	args := []any{string(h.typ), micros(h.entry.Time), h.entry.ClientID, h.partNo, h.wid, h.toWID, h.spot, h.toSpot,
		h.units, reason, h.entry.Reference, h.entry.Remark, string(js), h.owner}
	if found != nil {
		t.queryRow(found, insertHead+`
			FROM items
			WHERE part_no = $4 AND NOT discontinued
			RETURNING id`, args, id)
		return nil
	}
	t.queryRow(nil, insertHead+`
		RETURNING id`, args, id)
	return nil
}

// insertHead writes a transaction's row from its values, $1 to $14.
const insertHead = `
	INSERT INTO transactions (
		type,
		time,
		client_id,
		part_no,
		wid,
		to_wid,
		spot,
		to_spot,
		units,
		reason_code,
		reference,
		remark,
		details,
		owner
	)
	SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14`

// linesPerStatement bounds the rows of one insert of ledger lines (seven
// parameters each, within PostgreSQL's 65,535).
const linesPerStatement = 1000

// appendLines queues the lines of transaction txID, numbered from 1.
func (t *Tx) appendLines(txID int64, lines []ledgerLine) {
	for start := 0; start < len(lines); start += linesPerStatement {
		chunk := lines[start:min(start+linesPerStatement, len(lines))]
		rows := make([]string, len(chunk))
		args := make([]any, 0, 7*len(chunk))
		for i, l := range chunk {
			rows[i] = "(" + params(len(args)+1, len(args)+7) + ")"
			args = append(args, txID, start+i+1, l.recNo, l.partNo, l.wid, l.spot, l.units)
		}
		t.exec(`
			INSERT INTO transaction_lines (transaction_id, line, rec_no, part_no, wid, spot, units)
			VALUES `+strings.Join(rows, ", "), args...)
	}
}

// ledgerFigure is a transaction's change to the figures of its item and
// owner in one warehouse that are not lots' units.
type ledgerFigure struct {
	wid                             int64
	onOrder, asn, committed, packed stockroom.Units
}

// figureOf returns the ledger's record of a level change's figures that are
// not lots' units.
func figureOf(c levelChange) ledgerFigure {
	return ledgerFigure{wid: c.wid, onOrder: c.onOrder, asn: c.asn, committed: c.committed, packed: c.packed}
}

// appendFigures queues the figure changes of transaction txID, one row per
// warehouse (changes to the same warehouse are summed; all-zero rows are
// left out).
func (t *Tx) appendFigures(txID int64, figures []ledgerFigure) {
	byWID := map[int64]ledgerFigure{}
	var order []int64
	for _, f := range figures {
		s, ok := byWID[f.wid]
		if !ok {
			order = append(order, f.wid)
			s.wid = f.wid
		}
		s.onOrder, s.asn = s.onOrder.Add(f.onOrder), s.asn.Add(f.asn)
		s.committed, s.packed = s.committed.Add(f.committed), s.packed.Add(f.packed)
		byWID[f.wid] = s
	}
	var (
		rows []string
		args []any
	)
	for _, wid := range order {
		f := byWID[wid]
		if f.onOrder.IsZero() && f.asn.IsZero() && f.committed.IsZero() && f.packed.IsZero() {
			continue
		}
		rows = append(rows, "("+params(len(args)+1, len(args)+6)+")")
		args = append(args, txID, f.wid, f.onOrder, f.asn, f.committed, f.packed)
	}
	if len(rows) == 0 {
		return
	}
	t.exec(`
		INSERT INTO transaction_figures (transaction_id, wid, on_order, asn, committed, packed)
		VALUES `+strings.Join(rows, ", "), args...)
}

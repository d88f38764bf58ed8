package store

import (
	"maps"
	"slices"
	"strings"

	"github.com/stockroom/stockroom"
)

// The ledger: one row per stock transaction, one line per lot it touched,
// with signed units. It is only ever appended to. A transaction's row names
// its item; its lines and figures name theirs, the same but in an entry of
// several items (a completion's), which transaction_items lists.

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
	js, err := entryDetails(h.entry)
	if err != nil {
		return err
	}
	var reason any
	if h.entry.ReasonCode != 0 {
		reason = h.entry.ReasonCode
	}
	args := []any{string(h.typ), micros(h.entry.Time), h.entry.ClientID, h.partNo, h.wid, h.toWID, h.spot, h.toSpot,
		h.units, reason, h.entry.Reference, h.entry.Remark, js, h.owner}
	if found != nil {
		t.QueryRow(found, insertHead+`
			FROM items
			WHERE part_no = $4 AND NOT discontinued
			RETURNING id`, args, id)
		return nil
	}
	t.QueryRow(nil, insertHead+`
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
	t.appendLinesAfter(txID, 0, lines)
}

// appendLinesAfter queues lines of transaction txID numbered after the
// first n it has.
func (t *Tx) appendLinesAfter(txID int64, n int, lines []ledgerLine) {
	for start := 0; start < len(lines); start += linesPerStatement {
		chunk := lines[start:min(start+linesPerStatement, len(lines))]
		rows := make([]string, len(chunk))
		args := make([]any, 0, 7*len(chunk))
		for i, l := range chunk {
			rows[i] = "(" + params(len(args)+1, len(args)+7) + ")"
			args = append(args, txID, n+start+i+1, l.recNo, l.partNo, l.wid, l.spot, l.units)
		}
		t.Exec(`
			INSERT INTO transaction_lines (transaction_id, line, rec_no, part_no, wid, spot, units)
			VALUES `+strings.Join(rows, ", "), args...)
	}
}

// ledgerFigure is a transaction's change to the figures of an item (its
// own, but in an entry of several items) and its owner in one warehouse
// that are not lots' units.
type ledgerFigure struct {
	partNo, wid                     int64
	onOrder, asn, committed, packed stockroom.Units
}

// figureOf returns the ledger's record of a level change's figures that are
// not lots' units.
func figureOf(c levelChange) ledgerFigure {
	return ledgerFigure{partNo: c.partNo, wid: c.wid, onOrder: c.onOrder, asn: c.asn, committed: c.committed, packed: c.packed}
}

// appendFigures queues the figure changes of transaction txID, one row per
// item and warehouse (changes to the same are summed; all-zero rows are
// left out).
func (t *Tx) appendFigures(txID int64, figures []ledgerFigure) {
	type key struct{ partNo, wid int64 }
	sums := map[key]ledgerFigure{}
	var order []key
	for _, f := range figures {
		k := key{f.partNo, f.wid}
		s, ok := sums[k]
		if !ok {
			order = append(order, k)
			s.partNo, s.wid = f.partNo, f.wid
		}
		s.onOrder, s.asn = s.onOrder.Add(f.onOrder), s.asn.Add(f.asn)
		s.committed, s.packed = s.committed.Add(f.committed), s.packed.Add(f.packed)
		sums[k] = s
	}
	var (
		rows []string
		args []any
	)
	for _, k := range order {
		f := sums[k]
		if f.onOrder.IsZero() && f.asn.IsZero() && f.committed.IsZero() && f.packed.IsZero() {
			continue
		}
		rows = append(rows, "("+params(len(args)+1, len(args)+7)+")")
		args = append(args, txID, f.wid, f.partNo, f.onOrder, f.asn, f.committed, f.packed)
	}
	if len(rows) == 0 {
		return
	}
	t.Exec(`
		INSERT INTO transaction_figures (transaction_id, wid, part_no, on_order, asn, committed, packed)
		VALUES `+strings.Join(rows, ", "), args...)
}

// entryParts are lines and figures gathered for one ledger entry of
// several items before its id is known (a completion's: its components'
// consumption, gathered by writeAllocations).
type entryParts struct {
	lines   []ledgerLine
	figures []ledgerFigure
}

// appendParts queues parts into transaction txID of item partNo, which has
// n lines already: the lines numbered after those, the figures, and in
// transaction_items every item other than partNo that they change, so that
// the ledger filtered by any of them finds the entry.
func (t *Tx) appendParts(txID, partNo int64, n int, p entryParts) {
	t.appendLinesAfter(txID, n, p.lines)
	t.appendFigures(txID, p.figures)
	others := map[int64]bool{}
	for _, l := range p.lines {
		others[l.partNo] = true
	}
	for _, f := range p.figures {
		others[f.partNo] = true
	}
	delete(others, partNo)
	items := slices.Sorted(maps.Keys(others))
	if len(items) == 0 {
		return
	}
	rows := make([]string, len(items))
	args := make([]any, 0, 2*len(items))
	for i, item := range items {
		rows[i] = "(" + params(len(args)+1, len(args)+2) + ")"
		args = append(args, item, txID)
	}
	t.Exec(`
		INSERT INTO transaction_items (part_no, transaction_id)
		VALUES `+strings.Join(rows, ", "), args...)
}

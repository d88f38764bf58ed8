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
	t.queryRow(nil, `
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
			details
		)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
		RETURNING id`,
		[]any{string(h.typ), micros(h.entry.Time), h.entry.ClientID, h.partNo, h.wid, h.toWID, h.spot, h.toSpot,
			h.units, reason, h.entry.Reference, h.entry.Remark, string(js)},
		id)
	return nil
}

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

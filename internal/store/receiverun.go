package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/stockroom/stockroom"
)

// A run of receipts, one statement per kind (PostgreSQL).
//
// A run of receipts none of which is against a purchase order line (an
// atomic batch's, an import's) writes, receipt by receipt, a lot, a ledger
// entry, a ledger line and an inventory.received event. PostgreSQL spends
// on each statement (its executor started, its constraints and triggers
// prepared, its result sent) about what it spends on the row, so on
// PostgreSQL such a run writes each kind with one statement whose
// parameters are arrays, a row per receipt taken in the receipts' order
// (unnest … WITH ORDINALITY). Each statement does what the receipts' own
// would have, one after another: the lot is made only while its item is not
// discontinued, its warehouse is active, its owner is an active customer
// (or the house) and, for a default owner, still the item's default
// (receiveLot's conditions); the entry only while the item is not
// discontinued (appendHeadIf); numbers (rec_no, the entry's id, the
// events' seq) are taken in the receipts' order, and each row comes back
// with its receipt's ordinal, so nothing rests on the order rows are
// returned in. SQLite runs statements in the process, where one per row
// costs what the row does: it keeps them.

// receiveLots makes the lots of a run of receipts: $1..$22 arrays of
// lotColumns' values, one element per receipt. It returns for each lot
// made its receipt's ordinal (from 1), then what receiveLot returns.
var receiveLots = `
	WITH v AS MATERIALIZED (
		SELECT * FROM unnest(
			$1::bigint[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::text[],
			$8::text[], $9::text[], $10::text[], $11::bigint[], $12::boolean[], $13::bigint[], $14::boolean[],
			$15::text[], $16::bigint[], $17::bigint[], $18::bigint[], $19::bigint[], $20::bigint[],
			$21::bigint[], $22::bigint[], $23::boolean[])
		WITH ORDINALITY AS v(` + lotColumns + `, is_default, ord)),
	accepted AS MATERIALIZED (
		SELECT v.*, nextval(pg_get_serial_sequence('lots', 'rec_no')) AS rec_no
		FROM v
		JOIN items i ON i.part_no = v.part_no
		WHERE NOT i.discontinued
		  AND EXISTS (SELECT 1 FROM warehouses w WHERE w.wid = v.wid AND w.active)
		  AND (v.owner = 0 OR EXISTS (
			SELECT 1 FROM parties p WHERE p.id = v.owner AND p.kind = 'customer' AND p.active))
		  AND (NOT v.is_default OR i.dflt_owner = v.owner)
		ORDER BY v.ord),
	made AS (
		INSERT INTO lots (rec_no, associate, ` + lotColumns + `) OVERRIDING SYSTEM VALUE
		SELECT rec_no, '', ` + lotColumns + `
		FROM accepted
		ORDER BY rec_no
		RETURNING rec_no, ` + lotColumns + `)
	SELECT a.ord, made.rec_no, ` + prefixed("made", lotColumns) + `,
		COALESCE((SELECT p.name FROM parties p WHERE p.id = made.owner), ''),
		(SELECT short_id FROM items WHERE part_no = made.part_no),
		(SELECT description FROM items WHERE part_no = made.part_no),
		(SELECT name FROM warehouses WHERE wid = made.wid)
	FROM made
	JOIN accepted a ON a.rec_no = made.rec_no`

// lotArrays are receiveLots' parameters for the lots of receipts rs.
func lotArrays(rs []stockroom.Receipt, lots []stockroom.Lot) []any {
	n := len(lots)
	var (
		partNo, wid, units, received, jobID = make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
		owner, net, gross, price, supplier  = make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
		line, modified                      = make([]int64, n), make([]int64, n)
		shipped, expires                    = make([]*int64, n), make([]*int64, n)
		spot, serial, serial2, rfid, remark = make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		reference                           = make([]string, n)
		hold, active, isDefault             = make([]bool, n), make([]bool, n), make([]bool, n)
	)
	for i, l := range lots {
		partNo[i], wid[i], units[i], received[i], jobID[i] = l.PartNo, l.WID, l.Units.Micros(), micros(l.Received), l.JobID
		owner[i], net[i], gross[i], price[i], supplier[i] = l.Owner, l.NetWeight.Micros(), l.GrossWeight.Micros(), l.Price.Micros(), l.Supplier
		line[i], modified[i] = l.Line, micros(l.Modified)
		shipped[i], expires[i] = optMicrosPtr(l.Shipped), optMicrosPtr(l.Expires)
		spot[i], serial[i], serial2[i], rfid[i], remark[i] = l.Spot, l.Serial, l.Serial2, l.RFIDTag, l.Remark
		reference[i] = l.Reference
		hold[i], active[i], isDefault[i] = l.Hold, l.Active, rs[i].OwnerIsDefault
	}
	return []any{partNo, wid, spot, units, received, shipped, serial, serial2, rfid, remark, owner, hold, jobID,
		active, reference, net, gross, price, expires, supplier, line, modified, isDefault}
}

// optMicrosPtr is optMicros as an element of a nullable array.
func optMicrosPtr(t *time.Time) *int64 {
	if t == nil {
		return nil
	}
	m := micros(*t)
	return &m
}

// appendHeads makes the ledger entries of a run of receipts: $1..$12
// arrays of insertHead's values but to_wid and to_spot (NULL for a
// receipt), one element per receipt. It returns for each entry made its
// receipt's ordinal and its id.
const appendHeads = `
	WITH v AS MATERIALIZED (
		SELECT * FROM unnest(
			$1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[], $6::text[], $7::bigint[],
			$8::bigint[], $9::text[], $10::text[], $11::text[], $12::bigint[])
		WITH ORDINALITY AS v(type, time, client_id, part_no, wid, spot, units, reason_code, reference, remark,
			details, owner, ord)),
	accepted AS MATERIALIZED (
		SELECT v.*, nextval(pg_get_serial_sequence('transactions', 'id')) AS id
		FROM v
		JOIN items i ON i.part_no = v.part_no
		WHERE NOT i.discontinued
		ORDER BY v.ord),
	made AS (
		INSERT INTO transactions (id, type, time, client_id, part_no, wid, to_wid, spot, to_spot, units,
			reason_code, reference, remark, details, owner) OVERRIDING SYSTEM VALUE
		SELECT id, type, time, client_id, part_no, wid, NULL, spot, NULL, units,
			reason_code, reference, remark, details, owner
		FROM accepted
		ORDER BY id
		RETURNING id)
	SELECT a.ord, made.id
	FROM made
	JOIN accepted a ON a.id = made.id`

// headArrays are appendHeads' parameters for the entries of receipts rs,
// each of type typ with entry(i).
func headArrays(typ stockroom.TxType, rs []stockroom.Receipt, entry func(int) stockroom.LedgerEntry) ([]any, error) {
	n := len(rs)
	var (
		types, clients, spots, refs, remarks, details = make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		times, parts, wids, units, owners             = make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
		reasons                                       = make([]*int64, n)
	)
	for i, r := range rs {
		e := entry(i)
		js, err := entryDetails(e)
		if err != nil {
			return nil, err
		}
		types[i], clients[i], spots[i], refs[i], remarks[i], details[i] = string(typ), e.ClientID, r.Spot, e.Reference, e.Remark, js
		times[i], parts[i], wids[i], units[i], owners[i] = micros(e.Time), r.PartNo, r.WID, r.Units.Micros(), r.Owner
		if e.ReasonCode != 0 {
			reasons[i] = &e.ReasonCode
		}
	}
	return []any{types, times, clients, parts, wids, spots, units, reasons, refs, remarks, details, owners}, nil
}

// entryDetails is the text of an entry's details, as a ledger row keeps it.
func entryDetails(e stockroom.LedgerEntry) (string, error) {
	details := e.Details
	if details == nil {
		details = map[string]any{}
	}
	js, err := json.Marshal(details)
	return string(js), err
}

// appendReceiptLines writes the one ledger line of each entry of a run of
// receipts: $1..$6 arrays of the entries' ids and the lines' lots, items,
// warehouses, spots and units.
const appendReceiptLines = `
	INSERT INTO transaction_lines (transaction_id, line, rec_no, part_no, wid, spot, units)
	SELECT v.transaction_id, 1, v.rec_no, v.part_no, v.wid, v.spot, v.units
	FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[], $6::bigint[])
		WITH ORDINALITY AS v(transaction_id, rec_no, part_no, wid, spot, units, ord)
	ORDER BY v.ord`

// appendEvents appends events in the order given: $1..$8 arrays of
// insertEvent's values but to_wid (NULL).
const appendEvents = `
	INSERT INTO events (` + eventColumns + `)
	SELECT v.type, v.time, v.client_id, v.wid, NULL, v.owner, v.subject_kind, v.subject_id, v.data
	FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::text[])
		WITH ORDINALITY AS v(type, time, client_id, wid, owner, subject_kind, subject_id, data, ord)
	ORDER BY v.ord`

// queueRun queues the lots and ledger entries of a run of receipts, rs,
// none against an order line, with lots made now: rows[i] and found[i]
// receive receipt i's lot, ids[i] its entry's id.
func (t *Tx) queueRun(typ stockroom.TxType, rs []stockroom.Receipt, entry func(int) stockroom.LedgerEntry, r *receiptRun) error {
	// A run's statements are planned for their arrays (a write's are
	// otherwise planned once, generically: txn.Tx.pipeline): 1,000
	// receipts took 0.19 s with generic plans against 0.13 s.
	t.Exec("SET LOCAL plan_cache_mode = auto")
	lots := make([]stockroom.Lot, len(rs))
	for i, rc := range rs {
		lots[i] = rc.Lot(entry(0).Time)
	}
	t.Query(func(rows rows) error {
		for rows.Next() {
			var (
				ord int64
				row lotRow
			)
			if err := rows.Scan(append(append([]any{&ord}, row.dest()...), receivedNames(&row.lot)...)...); err != nil {
				return err
			}
			if ord < 1 || ord > int64(len(rs)) || r.found[ord-1] {
				return fmt.Errorf("lot of receipt %d of %d", ord, len(rs))
			}
			r.rows[ord-1], r.found[ord-1] = row, true
		}
		return rows.Err()
	}, receiveLots, lotArrays(rs, lots)...)
	heads, err := headArrays(typ, rs, entry)
	if err != nil {
		return err
	}
	t.Query(func(rows rows) error {
		for rows.Next() {
			var ord, id int64
			if err := rows.Scan(&ord, &id); err != nil {
				return err
			}
			if ord < 1 || ord > int64(len(rs)) {
				return fmt.Errorf("ledger entry of receipt %d of %d", ord, len(rs))
			}
			r.ids[ord-1] = id
		}
		return rows.Err()
	}, appendHeads, heads...)
	return nil
}

// receiptRun receives what a run's statements (or its receipts' own)
// return: receipt i's lot in rows[i] when found[i], its entry's id in
// ids[i].
type receiptRun struct {
	rows  []lotRow
	found []bool
	ids   []int64
}

func newReceiptRun(n int) *receiptRun {
	return &receiptRun{rows: make([]lotRow, n), found: make([]bool, n), ids: make([]int64, n)}
}

// asRun reports whether receipts rs are written as a run, one statement
// per kind: on PostgreSQL, two or more, none against an order line.
func (t *Tx) asRun(rs []stockroom.Receipt) bool {
	if !t.Postgres() || len(rs) < 2 {
		return false
	}
	for _, r := range rs {
		if r.Order != nil {
			return false
		}
	}
	return true
}

// queueRunLines queues the ledger lines and, for receipts (typ receive),
// the inventory.received events of a run of receipts whose results are
// out, with entry(i) receipt i's entry.
func (t *Tx) queueRunLines(typ stockroom.TxType, out []stockroom.ReceiveResult, entry func(int) stockroom.LedgerEntry) error {
	n := len(out)
	var (
		ids, recNos, parts, wids, units = make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
		spots                           = make([]string, n)
	)
	for i, res := range out {
		l := res.Lot
		ids[i], recNos[i], parts[i], wids[i], units[i], spots[i] = res.TransactionID, l.RecNo, l.PartNo, l.WID, l.Units.Micros(), l.Spot
	}
	t.Exec(appendReceiptLines, ids, recNos, parts, wids, spots, units)
	if typ != stockroom.TxReceive {
		return nil
	}
	var (
		types, clients, kinds, subjects, data = make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		times, owners                         = make([]int64, n), make([]int64, n)
	)
	for i, res := range out {
		e := entry(i)
		ev := receiptNewEvent(e, res)
		js, err := stockroom.MarshalAnswer(ev.Data)
		if err != nil {
			return err
		}
		types[i], clients[i], kinds[i], subjects[i], data[i] = string(ev.Type), ev.ClientID, ev.Subject.Kind, ev.Subject.ID, string(bytes.TrimSpace(js))
		times[i], wids[i], owners[i] = micros(ev.Time), ev.WID, ev.Owner
	}
	t.Exec(appendEvents, types, times, clients, wids, owners, kinds, subjects, data)
	return nil
}

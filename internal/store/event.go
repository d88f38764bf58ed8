package store

import (
	"bytes"
	"context"
	"database/sql"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
)

// The change feed (contract §12). A write appends its events with the
// statements of its change, queued in its own transaction (appendEvent; the
// levels' in changeLevels), so an event commits exactly when its change
// does: a refused or failed batch member is rolled back to its savepoint,
// or its lockstep run again without it, events and all.
//
// Order. On SQLite one writer commits one transaction at a time, so the
// AUTOINCREMENT seq is commit order and is the cursor. On PostgreSQL a
// sequence value is taken when a row is inserted, not when it commits:
// transaction A takes seq 7, B takes 8 and commits, a reader returns 8 and
// moves its cursor past it, then A commits 7 behind the cursor, skipped
// forever. So each row keeps its transaction's id (xid, a column default),
// and a reader returns only the events of transactions below its snapshot's
// xmin (the oldest transaction still running when the snapshot was taken),
// ordered by (xid, seq): every transaction below xmin has ended, committed
// or not, so no event can ever appear before a position already returned.
// A batch's members share their batch's xid and are ordered by seq. The
// price is that an event waits to be readable until every transaction that
// began before its own has ended; readers that find visible events still
// behind the horizon look again shortly (service.ListEvents).

// eventColumns are the columns of an event that its write gives; xid and
// seq are the columns' defaults.
const eventColumns = `
		type,
		time,
		client_id,
		wid,
		to_wid,
		owner,
		subject_kind,
		subject_id,
		data`

// insertEvent appends one event.
const insertEvent = `
	INSERT INTO events (` + eventColumns + `)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`

// appendEvent queues the appending of e in t, with the statements of the
// change it describes. Its data is encoded as the change's endpoint answers.
func (t *Tx) appendEvent(e stockroom.NewEvent) error {
	data, err := stockroom.MarshalAnswer(e.Data)
	if err != nil {
		return err
	}
	var to any
	if e.ToWID != nil {
		to = *e.ToWID
	}
	t.Exec(insertEvent, string(e.Type), micros(e.Time), e.ClientID, e.WID, to, e.Owner,
		e.Subject.Kind, e.Subject.ID, string(bytes.TrimSpace(data)))
	return nil
}

// insertLevelEvent appends a stocklevel.changed event of one row of levels
// (item $1, warehouse $2, owner $3) from the row as it is: queued after the
// statements that change it, it carries its figures afterwards, with no
// round trip of its own. Its data is the row's figures in micros
// (levelEventData reads them), and its subject the item's ShortID. Its
// feed position is the row's writer (PostgreSQL: the highest xid that
// changed the row, migration 19; SQLite: 0), so that a row's events are in
// the feed in the order of its changes.
const insertLevelEvent = levelEventSelect + `
	FROM levels l
	JOIN items i ON i.part_no = l.part_no
	WHERE l.part_no = $1 AND l.wid = $2 AND l.owner = $3`

// levelEventSelect is what insertLevelEvent and insertLevelEvents share:
// the event of level row l of item i, with $4 and $5 its time and client.
const levelEventSelect = `
	INSERT INTO events (
		xid,
		type,
		time,
		client_id,
		wid,
		owner,
		subject_kind,
		subject_id,
		data
	)
	SELECT
		l.writer,
		'` + string(stockroom.EventStockLevelChanged) + `',
		CAST($4 AS BIGINT),
		CAST($5 AS TEXT),
		l.wid,
		l.owner,
		'stocklevel',
		i.short_id,
		'[' || l.part_no || ',' || l.in_stock || ',' || l.on_hold || ',' || l.committed || ',' || l.packed
			|| ',' || l.on_order || ',' || l.asn || ',' || l.available || ',' || l.modified || ']'`

// queueLevelEvents queues a stocklevel.changed event for each row of
// item, warehouse and owner that changes sum to a change of.
func (t *Tx) queueLevelEvents(e stockroom.LedgerEntry, changes []levelChange) {
	sum := map[[3]int64]levelChange{}
	var keys [][3]int64
	for _, c := range changes {
		k := [3]int64{c.partNo, c.wid, c.owner}
		if _, ok := sum[k]; !ok {
			keys = append(keys, k)
		}
		sum[k] = c.add(sum[k])
	}
	var changed [][3]int64
	for _, k := range keys {
		if !sum[k].isZero() {
			changed = append(changed, k)
		}
	}
	if len(changed) > 1 && t.Postgres() {
		t.appendLevelEvents(e, changed)
		return
	}
	for _, k := range changed {
		t.Exec(insertLevelEvent, k[0], k[1], k[2], micros(e.Time), e.ClientID)
	}
}

// levelEventData turns the stored figures of a stocklevel.changed event
// into the stock level as GET /Inventory/StockLevels shows it.
func levelEventData(shortID, stored string) ([]byte, error) {
	f := strings.Split(strings.Trim(stored, "[]"), ",")
	if len(f) != 9 {
		return nil, errBadLevelEvent(stored)
	}
	n := make([]int64, len(f))
	for i, s := range f {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, errBadLevelEvent(stored)
		}
		n[i] = v
	}
	u := stockroom.FromMicros
	l := stockroom.StockLevel{PartNo: n[0], ShortID: shortID, InStock: u(n[1]), OnHold: u(n[2]), Committed: u(n[3]),
		Packed: u(n[4]), OnOrder: u(n[5]), ASN: u(n[6]), Available: u(n[7]), Modified: fromMicros(n[8])}
	data, err := stockroom.MarshalAnswer(l)
	return bytes.TrimSpace(data), err
}

func errBadLevelEvent(stored string) error {
	return &eventDataError{stored: stored}
}

type eventDataError struct{ stored string }

func (e *eventDataError) Error() string {
	return "stocklevel event with data " + strconv.Quote(e.stored)
}

// ReadEvents returns the events after f.After that f's client sees, oldest
// first, at most f.Limit+1 of them (the last telling the caller there are
// more). A cursor before the last event pruned is stockroom.ErrCursorExpired.
func (db *DB) ReadEvents(ctx context.Context, f stockroom.EventFilter) (stockroom.EventRead, error) {
	var out stockroom.EventRead
	err := db.inReadTx(ctx, func(tx *sql.Tx) error {
		if f.After != (stockroom.EventCursor{}) {
			var pruned stockroom.EventCursor
			if err := tx.QueryRowContext(ctx, `SELECT CAST(xid AS TEXT), seq FROM events_pruned WHERE id = 1`).Scan(
				(*xidText)(&pruned.XID), &pruned.Seq); err != nil {
				return err
			}
			if cursorBefore(f.After, pruned) {
				return stockroom.ErrCursorExpired
			}
		}
		var err error
		if out.Events, err = db.readEventRows(ctx, tx, f); err != nil {
			return err
		}
		if db.engine == Postgres && len(out.Events) <= f.Limit {
			out.Behind, err = db.eventsBehind(ctx, tx, f.After, out.Events)
		}
		return err
	})
	return out, err
}

// cursorBefore reports whether a is before b in the feed.
func cursorBefore(a, b stockroom.EventCursor) bool {
	return a.XID < b.XID || a.XID == b.XID && a.Seq < b.Seq
}

// afterCond is the condition of an event after the cursor, and below the
// horizon on PostgreSQL.
func (db *DB) afterCond(c stockroom.EventCursor, a *args) string {
	if db.engine == SQLite {
		return "seq > " + a.add(c.Seq)
	}
	return "(xid, seq) > (CAST(CAST(" + a.add(strconv.FormatInt(c.XID, 10)) + " AS TEXT) AS xid8), " + a.add(c.Seq) + ")" +
		" AND xid < pg_snapshot_xmin(pg_current_snapshot())"
}

// feedOrder is the feed's order.
func (db *DB) feedOrder() string {
	if db.engine == SQLite {
		return "seq"
	}
	return "xid, seq"
}

// readEventRows reads the page of events f asks for.
func (db *DB) readEventRows(ctx context.Context, tx *sql.Tx, f stockroom.EventFilter) ([]stockroom.Event, error) {
	var a args
	where := []string{db.afterCond(f.After, &a)}
	where = append(where, eventScopeConds(f, &a)...)
	// The text of xid is named apart: ORDER BY xid would otherwise sort by
	// that output column, as text ("10" before "9"), out of the feed's
	// order and away from the primary key's (a sort of every event after
	// the cursor).
	rows, err := tx.QueryContext(ctx, `
		SELECT
			CAST(xid AS TEXT) AS xid_text,
			seq,`+eventColumns+`
		FROM events
		WHERE `+strings.Join(where, " AND ")+`
		ORDER BY `+db.feedOrder()+`
		LIMIT `+strconv.Itoa(f.Limit+1), a...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []stockroom.Event
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// eventScopeConds are the conditions of the events f's client sees, and
// of the types it asks for.
func eventScopeConds(f stockroom.EventFilter, a *args) []string {
	var where []string
	if len(f.Types) > 0 {
		ph := make([]string, len(f.Types))
		for i, t := range f.Types {
			ph[i] = a.add(string(t))
		}
		where = append(where, "type IN ("+strings.Join(ph, ", ")+")")
	}
	stock := orTrue(scopeCond("wid", f.Warehouses, a))
	if !f.Warehouses.All {
		stock = "(" + stock + " OR " + orTrue(scopeCond("to_wid", f.Warehouses, a)) + ")"
	}
	if f.Owners != nil {
		stock += " AND " + orTrue(scopeCond("owner", *f.Owners, a))
	}
	item := "TRUE"
	if f.Catalogues != nil {
		item = orTrue(scopeCond("owner", *f.Catalogues, a))
	}
	if stock != "TRUE" || item != "TRUE" {
		where = append(where, "(wid = 0 AND "+item+" OR wid <> 0 AND "+stock+")")
	}
	return where
}

// orTrue is cond, or TRUE when it is empty (no restriction).
func orTrue(cond string) string {
	if cond == "" {
		return "TRUE"
	}
	return cond
}

// scanEvent reads one row of readEventRows.
func scanEvent(rows *sql.Rows) (stockroom.Event, error) {
	var (
		e     stockroom.Event
		c     stockroom.EventCursor
		typ   string
		at    int64
		to    sql.NullInt64
		data  string
		xidTx xidText
	)
	err := rows.Scan(&xidTx, &c.Seq, &typ, &at, &e.ClientID, &e.WID, &to, &e.Owner, &e.Subject.Kind, &e.Subject.ID, &data)
	if err != nil {
		return e, err
	}
	c.XID = int64(xidTx)
	e.ID, e.Seq, e.Type, e.Time = c.String(), c.Seq, stockroom.EventType(typ), fromMicros(at)
	if to.Valid {
		e.ToWID = &to.Int64
	}
	e.Data = []byte(data)
	if e.Type == stockroom.EventStockLevelChanged {
		e.Data, err = levelEventData(e.Subject.ID, data)
	}
	return e, err
}

// xidText scans a transaction id read as text.
type xidText int64

func (x *xidText) Scan(src any) error {
	var s string
	switch v := src.(type) {
	case string:
		s = v
	case []byte:
		s = string(v)
	case int64:
		*x = xidText(v)
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	*x = xidText(n)
	return err
}

// eventsBehind reports whether events of committed transactions are past
// the horizon (at or above xmin) after the cursor and the events read:
// readable once the older transactions still running end, which may append
// nothing and so notify nobody.
func (db *DB) eventsBehind(ctx context.Context, tx *sql.Tx, after stockroom.EventCursor, read []stockroom.Event) (bool, error) {
	var behind bool
	if len(read) > 0 {
		after = cursorOf(read[len(read)-1])
	}
	err := tx.QueryRowContext(ctx, `
		SELECT EXISTS (
			SELECT 1
			FROM events
			WHERE (xid, seq) > (CAST(CAST($1 AS TEXT) AS xid8), $2)
			  AND xid >= pg_snapshot_xmin(pg_current_snapshot()))`,
		strconv.FormatInt(after.XID, 10), after.Seq).Scan(&behind)
	return behind, err
}

// cursorOf is the cursor just after event e.
func cursorOf(e stockroom.Event) stockroom.EventCursor {
	var v stockroom.Validation
	return stockroom.ParseEventCursor(e.ID, "id", &v)
}

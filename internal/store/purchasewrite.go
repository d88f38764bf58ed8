package store

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
)

// Orders written, of every kind: placed and changed, each in one
// transaction; a purchase order also closed and canceled. A purchase
// order's transaction keeps on_order, in the same transaction, equal to
// what the order's open lines have due, and records every line whose due
// changed in the ledger (types order, order-close, order-cancel) with the
// change of on_order as the transaction's figure. Locks are taken in the
// inbound order (purchaseline.go): the order's header, its lines, then the
// levels, the counters last. Numbering a new order locks its kind's row of
// order_numbers first, before anything else.

// CreatePurchaseOrder stores a new order o (its vendor, dates, texts, and
// lines with their item, warehouse, owner, units and price) as Open and
// returns it as stored, recording key's answer in the same transaction.
// Without a number it takes the next free one (PO-000001, ...). A number
// taken already, in any letter case, is stockroom.ErrDuplicate; a line of
// a discontinued item, an inactive warehouse or an inactive owner is an
// *stockroom.OrderLineRefusal.
func (db *DB) CreatePurchaseOrder(ctx context.Context, key *stockroom.IdempotencyKey, o stockroom.PurchaseOrder, e stockroom.LedgerEntry) (stockroom.PurchaseOrder, error) {
	return purchaseOrders.create(ctx, newOrderWriter(db, key, purchaseWrite(e)), o, e.Time)
}

// create stores new order o (its party, dates, texts, and lines with their
// item, warehouse, owner and units) as Open, at now, with w, and returns it
// as stored.
func (k orderKind[O, P]) create(ctx context.Context, w orderWriter[O], o O, now time.Time) (O, error) {
	var res O
	err := w.db.update(ctx, w.key, func(tx *Tx) (any, error) {
		o := k.clone(o)
		h := P(&o).Header()
		h.Status, h.Created, h.Modified = stockroom.OrderOpen, now, now
		for i, l := range P(&o).OrderLines() {
			l.LineNo = int64(i + 1)
		}
		if err := tx.insertOrderHead(h); err != nil {
			return nil, err
		}
		var (
			none O
			err  error
		)
		res, err = w.write(tx, &none, &o)
		return res, err
	})
	return res, err
}

// ChangePurchaseOrder locks the purchase order numbered no (any letter
// case), lets fn change it, and stores what fn changed: header, status,
// lines' units and prices, new lines (numbered by fn), with on_order and
// the ledger. It returns the order as stored (unchanged when fn reports no
// change), or stockroom.ErrNotFound; an error of fn changes nothing. A
// key's answer is recorded in the same transaction.
func (db *DB) ChangePurchaseOrder(ctx context.Context, key *stockroom.IdempotencyKey, no string, e stockroom.LedgerEntry, fn func(*stockroom.PurchaseOrder) (bool, error)) (stockroom.PurchaseOrder, error) {
	return purchaseOrders.change(ctx, newOrderWriter(db, key, purchaseWrite(e)), no, fn)
}

// orderWrite writes an order, locked, as changed from old (the zero order
// for a new one, whose header is inserted already), and returns the order
// read back once written.
type orderWrite[O any] func(t *Tx, old, o *O) (O, error)

// orderWriter stores orders of a kind in db, each under key (whose answer
// is recorded in the same transaction) and by write.
type orderWriter[O any] struct {
	db    *DB
	key   *stockroom.IdempotencyKey
	write orderWrite[O]
}

func newOrderWriter[O any](db *DB, key *stockroom.IdempotencyKey, write orderWrite[O]) orderWriter[O] {
	return orderWriter[O]{db: db, key: key, write: write}
}

// change locks the order numbered no (lock), lets fn change it, and stores
// what fn changed with w. It returns the order as stored (unchanged when fn
// reports no change), or stockroom.ErrNotFound; an error of fn changes
// nothing.
func (k orderKind[O, P]) change(ctx context.Context, w orderWriter[O], no string, fn func(*O) (bool, error)) (O, error) {
	var res O
	err := w.db.update(ctx, w.key, func(tx *Tx) (any, error) {
		old, err := k.lock(tx, no)
		if err != nil {
			return nil, err
		}
		o := k.clone(old)
		changed, err := fn(&o)
		if err != nil {
			return nil, err
		}
		res = old
		if changed {
			res, err = w.write(tx, &old, &o)
		}
		return res, err
	})
	return res, err
}

// lock locks the order numbered no, any letter case (lockOrder), and reads
// it with all its lines, flushing. An order that does not exist is
// stockroom.ErrNotFound.
func (k orderKind[O, P]) lock(t *Tx, no string) (O, error) {
	var (
		h      orderHead
		locked bool
		cur    orderRead[O, P]
	)
	t.lockOrder(string(k.kind), stockroom.FoldKey(no), &h, &locked)
	k.read(t, no, &cur)
	if err := t.Flush(); err != nil {
		return cur.o, err
	}
	if !locked || !cur.found {
		return cur.o, stockroom.ErrNotFound
	}
	return cur.value(), nil
}

// insertOrderHead inserts the header of new order h and sets its id and
// number: its own, or, when it has none, the next number not taken.
func (t *Tx) insertOrderHead(h stockroom.OrderHeader) error {
	for {
		no := *h.No
		if no == "" {
			var last int64
			t.QueryRow(nil, `UPDATE order_numbers SET last = last + 1 WHERE kind = $1 RETURNING last`, []any{string(h.Kind)}, &last)
			if err := t.Flush(); err != nil {
				return err
			}
			no = h.Kind.Number(last)
		}
		var found bool
		t.QueryRow(&found, `
			INSERT INTO orders (
				kind,
				order_no,
				order_no_key,
				party,
				order_date,
				due_date,
				status,
				reference,
				remark,
				created,
				modified)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
			ON CONFLICT (kind, order_no_key) DO NOTHING
			RETURNING id`,
			[]any{string(h.Kind), no, stockroom.FoldKey(no), *h.PartyID, micros(h.OrderDate), optMicros(*h.DueDate), string(h.Status),
				h.Reference, h.Remark, micros(h.Created)}, &h.ID)
		if err := t.Flush(); err != nil {
			return err
		}
		switch {
		case found:
			*h.No = no
			return nil
		case *h.No != "":
			return stockroom.ErrDuplicate
		}
	}
}

// writeLines queues the shared part of writing order o, locked, as changed
// from old (the zero order for a new one, whose header is inserted
// already): its header, its new lines, and the lines whose units or price
// changed. It returns the new lines.
func (k orderKind[O, P]) writeLines(t *Tx, old, o *O, now time.Time) []lineRow {
	h := P(o).Header()
	if P(old).Header().ID != 0 {
		t.Exec(`
			UPDATE orders SET
				order_date = $2,
				due_date = $3,
				status = $4,
				reference = $5,
				remark = $6,
				modified = CASE WHEN $7 > modified THEN $7 ELSE modified + 1 END
			WHERE id = $1`,
			h.ID, micros(h.OrderDate), optMicros(*h.DueDate), string(h.Status), h.Reference, h.Remark, micros(now))
	}
	n, lines := len(P(old).OrderLines()), P(o).OrderLines()
	added := make([]lineRow, 0, len(lines)-n)
	for i := n; i < len(lines); i++ {
		added = append(added, k.row(o, i))
	}
	t.insertOrderLines(h.ID, added)
	for i := range n {
		before, after := k.row(old, i), k.row(o, i)
		if before.Units != after.Units || before.unitPrice != after.unitPrice {
			t.Exec(`UPDATE order_lines SET units = $3, unit_price = $4 WHERE order_id = $1 AND line_no = $2`,
				h.ID, after.LineNo, after.Units, after.unitPrice)
		}
	}
	return added
}

// readBack reads order o back once written, flushing what is queued.
func (k orderKind[O, P]) readBack(t *Tx, o *O) (O, error) {
	var back orderRead[O, P]
	k.read(t, *P(o).Header().No, &back)
	if err := t.Flush(); err != nil {
		return back.o, err
	}
	return back.value(), nil
}

// purchaseWrite writes a purchase order (writeOrder) under ledger entry e.
func purchaseWrite(e stockroom.LedgerEntry) orderWrite[stockroom.PurchaseOrder] {
	return func(t *Tx, old, o *stockroom.PurchaseOrder) (stockroom.PurchaseOrder, error) {
		return t.writeOrder(*old, *o, e)
	}
}

// writeOrder stores purchase order o, locked, as changed from old (the
// zero order for a new one, whose header is inserted already): its header
// and lines (writeLines), on_order and the ledger. It returns the order
// read back once written.
func (t *Tx) writeOrder(old, o stockroom.PurchaseOrder, e stockroom.LedgerEntry) (stockroom.PurchaseOrder, error) {
	refusal := t.checkOrderLines(purchaseOrders.writeLines(t, &old, &o, e.Time))
	var (
		changes []levelChange
		heads   []ledgerHead
		figures []ledgerFigure // of each head
	)
	for i, l := range o.Lines {
		var before stockroom.PurchaseLine
		if i < len(old.Lines) {
			before = old.Lines[i]
		}
		change := levelChange{partNo: l.PartNo, wid: l.Warehouse, owner: l.Owner, onOrder: l.Due(o.Status).Sub(before.Due(old.Status))}
		if typ, units, ok := orderLedger(old, o, before, l, i); ok {
			heads = append(heads, ledgerHead{typ: typ, partNo: l.PartNo, wid: l.Warehouse, owner: l.Owner, units: units,
				entry: orderEntry(e, o.PONo, l.LineNo)})
			figures = append(figures, figureOf(change))
		}
		if !change.onOrder.IsZero() {
			changes = append(changes, change)
		}
	}
	if old.ID != 0 && o.Status.IsOpen() {
		t.settlePurchaseStatus(o.ID, e.Time)
	}
	lv := t.changeLevels(e, changes...)
	ids := make([]int64, len(heads))
	for i, h := range heads {
		if err := t.appendHead(h, &ids[i]); err != nil {
			return stockroom.PurchaseOrder{}, err
		}
	}
	back, err := purchaseOrders.readBack(t, &o)
	if err != nil {
		return stockroom.PurchaseOrder{}, err
	}
	if err := refusal.err(); err != nil {
		return stockroom.PurchaseOrder{}, err
	}
	counts := countChanges{}
	if err := lv.settle(counts); err != nil {
		return stockroom.PurchaseOrder{}, err
	}
	for i, f := range figures {
		t.appendFigures(ids[i], []ledgerFigure{f})
	}
	t.addCounts(counts)
	return back, orderEvents(t, e, back, changeActions(old.Status, back.Status)...)
}

// orderLedger is the ledger's record of line l (number i) of order o, as
// before in old: a line added is an order of its units; one whose units
// changed an order of the change's size; every line of an order that
// ended is closed or canceled, by what stopped being due. ok is false for
// a line it does not record.
func orderLedger(old, o stockroom.PurchaseOrder, before, l stockroom.PurchaseLine, i int) (typ stockroom.TxType, units stockroom.Units, ok bool) {
	switch {
	case i >= len(old.Lines):
		return stockroom.TxOrder, l.Units, true
	case old.Status.IsOpen() && o.Status == stockroom.OrderClosed:
		return stockroom.TxOrderClose, before.Due(old.Status), true
	case old.Status.IsOpen() && o.Status == stockroom.OrderCanceled:
		return stockroom.TxOrderCancel, before.Due(old.Status), true
	case l.Units != before.Units:
		d := l.Units.Sub(before.Units)
		if d.Sign() < 0 {
			d = d.Neg()
		}
		return stockroom.TxOrder, d, true
	}
	return "", stockroom.Units{}, false
}

// orderEntry is the ledger entry of a change to line n of order no: the
// request's client and time, the order's number as reference.
func orderEntry(e stockroom.LedgerEntry, no string, n int64) stockroom.LedgerEntry {
	return stockroom.LedgerEntry{ClientID: e.ClientID, Time: e.Time, Reference: no, Details: map[string]any{"poNo": no, "line": n}}
}

// insertOrderLines queues the insertion of new lines of order id.
func (t *Tx) insertOrderLines(id int64, lines []lineRow) {
	const cols = 11
	for start := 0; start < len(lines); start += linesPerStatement {
		chunk := lines[start:min(start+linesPerStatement, len(lines))]
		rows := make([]string, len(chunk))
		args := make([]any, 0, cols*len(chunk))
		for i, l := range chunk {
			rows[i] = "(" + params(len(args)+1, len(args)+cols) + ")"
			args = append(args, id, l.LineNo, l.PartNo, l.Warehouse, l.Owner, l.Units, 0, 0, 0, l.unitPrice, optPerUnit(l.perUnit))
		}
		t.Exec(`
			INSERT INTO order_lines (order_id, line_no, part_no, wid, owner, units, received, in_transit, rejected, unit_price, per_unit)
			VALUES `+strings.Join(rows, ", "), args...)
	}
}

// lineRefusals are the reasons new lines may not be added, read with the
// next flush: a discontinued item, an inactive warehouse, an inactive
// customer as owner.
type lineRefusals struct {
	lines []lineRow
	found []lineRefusal
}

type lineRefusal struct {
	what string
	id   int64
	name string
}

// checkOrderLines queues the reading of what refuses the new lines.
func (t *Tx) checkOrderLines(lines []lineRow) *lineRefusals {
	r := &lineRefusals{lines: lines}
	if len(lines) == 0 {
		return r
	}
	var a args
	in := func(ids func(lineRow) int64) string {
		ph := make([]string, len(lines))
		for i, l := range lines {
			ph[i] = a.add(ids(l))
		}
		return strings.Join(ph, ", ")
	}
	query := `
		SELECT 'item', part_no, short_id FROM items
		WHERE discontinued AND part_no IN (` + in(func(l lineRow) int64 { return l.PartNo }) + `)
		UNION ALL SELECT 'warehouse', wid, '' FROM warehouses
		WHERE NOT active AND wid IN (` + in(func(l lineRow) int64 { return l.Warehouse }) + `)
		UNION ALL SELECT 'owner', id, '' FROM parties
		WHERE kind = 'customer' AND NOT active AND id IN (` + in(func(l lineRow) int64 { return l.Owner }) + `)`
	t.Query(func(rs rows) error {
		for rs.Next() {
			var f lineRefusal
			if err := rs.Scan(&f.what, &f.id, &f.name); err != nil {
				return err
			}
			r.found = append(r.found, f)
		}
		return rs.Err()
	}, query, a...)
	return r
}

// err is the refusal of the first line refused, nil when none is.
func (r *lineRefusals) err() error {
	for _, l := range r.lines {
		for _, f := range r.found {
			var err error
			switch {
			case f.what == "item" && f.id == l.PartNo:
				err = stockroom.ErrDiscontinued
			case f.what == "warehouse" && f.id == l.Warehouse:
				err = stockroom.ErrWarehouseInactive
			case f.what == "owner" && f.id == l.Owner:
				err = stockroom.ErrOwnerInactive
			default:
				continue
			}
			name := f.name
			if name == "" {
				name = strconv.FormatInt(f.id, 10)
			}
			return &stockroom.OrderLineRefusal{Line: l.LineNo, Name: name, ID: f.id, Err: err}
		}
	}
	return nil
}

package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/stockroom/stockroom"
)

// Allocations: the lots promised to the lines of shipping orders and to
// the components of work orders (contract §11), whatever the order's kind.
// Every action is one transaction that keeps, in step, lots.allocated (the
// sum of a lot's allocations), the allocations, the lines' committed,
// packed and shipped, the levels' committed and packed (and inStock, for a
// ship) in every grain, and the ledger: one entry per line changed, whose
// figures carry the change of committed and packed.
//
// Lock order, as every order's (purchaseline.go): the order's header, its
// lines in line order, then lots in their lock order (lotLockOrder), the
// levels grain by grain, the counters last. A commit locks its candidate
// lots item by item in that order, each item's in draw order, as an issue
// does; the other actions lock the lots allocated to the order. Only a
// holder of a lot's lock changes its allocated units, and only a holder of
// an order's header its allocations, so a unit is never promised twice
// and a draw never takes a promised one.

// lotLockOrder is the order in which a transaction locks lots of more than
// one item: by item, warehouse and owner, then in draw order (received,
// rec_no: see Tx.lockMore). A draw of one item (Tx.lockMore) locks in the
// same order; a completion consumes free units in it (planConsumption).
const lotLockOrder = "part_no, wid, owner, received, rec_no"

// outboundOrder is an order locked for an action on its lines'
// allocations: its header, its lines in line order with their allocations
// in draw order, and the lots the action changes, locked.
type outboundOrder struct {
	kind  stockroom.OrderKind
	head  orderHead
	lines []*stockroom.LineAllocations
	lots  lockedLots
}

// lockedLots are lots locked by a transaction, in the order locked, with
// what their ledger lines and answers need.
type lockedLots struct {
	order []int64
	of    map[int64]*lockedLot
}

type lockedLot struct {
	wid   int64
	spot  string
	units stockroom.Units
}

func (l *lockedLots) add(recNo, wid int64, spot string, units stockroom.Units) {
	if l.of == nil {
		l.of = map[int64]*lockedLot{}
	}
	if _, ok := l.of[recNo]; !ok {
		l.order = append(l.order, recNo)
	}
	l.of[recNo] = &lockedLot{wid: wid, spot: spot, units: units}
}

// orderIDOf selects the id of the order of kind $1 numbered $2 (its
// case-folded key).
const orderIDOf = `(SELECT id FROM orders WHERE kind = $1 AND order_no_key = $2)`

// The statements that read an order's outbound lines and their
// allocations (in line order, each line's in draw order: its lot's
// received, then rec_no), by the order's kind ($1) and case-folded number
// ($2). Packs and ships take allocations in this order, uncommits in the
// reverse.
const (
	selectOutboundLines = `
		SELECT line_no, part_no, wid, owner, units, committed, packed, shipped
		FROM order_lines
		WHERE order_id = ` + orderIDOf + `
		ORDER BY line_no`
	selectAllocations = `
		SELECT a.line_no, a.rec_no, a.committed, a.packed
		FROM allocations a
		JOIN lots s ON s.rec_no = a.rec_no
		WHERE a.order_id = ` + orderIDOf + `
		ORDER BY a.line_no, s.received, a.rec_no`
)

// outboundReader gathers the rows of selectOutboundLines and then of
// selectAllocations.
type outboundReader struct {
	lines  []*stockroom.LineAllocations
	byLine map[int64]*stockroom.LineAllocations
}

func (o *outboundReader) readLines(r rows) error {
	o.byLine = map[int64]*stockroom.LineAllocations{}
	for r.Next() {
		la := &stockroom.LineAllocations{}
		l := &la.OutboundLine
		if err := r.Scan(&l.LineNo, &l.PartNo, &l.WID, &l.Owner, &l.Units, &l.Committed, &l.Packed, &l.Shipped); err != nil {
			return err
		}
		o.lines = append(o.lines, la)
		o.byLine[l.LineNo] = la
	}
	return r.Err()
}

func (o *outboundReader) readAllocations(r rows) error {
	for r.Next() {
		var (
			line int64
			a    stockroom.Allocation
		)
		if err := r.Scan(&line, &a.RecNo, &a.Committed, &a.Packed); err != nil {
			return err
		}
		if la := o.byLine[line]; la != nil {
			la.Allocations = append(la.Allocations, a)
		}
	}
	return r.Err()
}

// lockOutbound locks the order of a kind numbered no (any letter case) and
// reads its lines, locked, and their allocations; with lockLots, it locks
// the lots allocated to the order too. One round trip. An order that does
// not exist is stockroom.ErrNotFound. Only shipping and work orders have
// outbound lines.
func (t *Tx) lockOutbound(kind stockroom.OrderKind, no string, lockLots bool) (*outboundOrder, error) {
	if kind != stockroom.OrderKindShipping && kind != stockroom.OrderKindWork {
		return nil, fmt.Errorf("%q orders have no outbound lines", kind)
	}
	key := stockroom.FoldKey(no)
	o := &outboundOrder{kind: kind}
	var (
		found bool
		rd    outboundReader
	)
	t.lockOrder(string(kind), key, &o.head, &found)
	t.Query(rd.readLines, selectOutboundLines+t.forUpdate(), string(kind), key)
	t.Query(rd.readAllocations, selectAllocations, string(kind), key)
	if lockLots {
		t.Query(o.lots.read, `
			SELECT rec_no, wid, spot, units
			FROM lots
			WHERE rec_no IN (SELECT rec_no FROM allocations WHERE order_id = `+orderIDOf+`)
			ORDER BY `+lotLockOrder+t.forUpdate(), string(kind), key)
	}
	if err := t.Flush(); err != nil {
		return nil, err
	}
	if !found {
		return nil, stockroom.ErrNotFound
	}
	o.lines = rd.lines
	return o, nil
}

// FindOrderAllocations returns the outbound lines of order no of a kind
// (any letter case), in line order, each with its allocations in draw
// order; stockroom.ErrNotFound when there is no such order.
func (db *DB) FindOrderAllocations(ctx context.Context, kind stockroom.OrderKind, no string) ([]stockroom.LineAllocations, error) {
	key := stockroom.FoldKey(no)
	var rd outboundReader
	err := db.inReadTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM orders WHERE kind = $1 AND order_no_key = $2`, string(kind), key).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return stockroom.ErrNotFound
		}
		for _, q := range []struct {
			query string
			read  func(rows) error
		}{{selectOutboundLines, rd.readLines}, {selectAllocations, rd.readAllocations}} {
			r, err := tx.QueryContext(ctx, q.query, string(kind), key)
			if err != nil {
				return err
			}
			err = q.read(r)
			if cerr := r.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]stockroom.LineAllocations, len(rd.lines))
	for i, la := range rd.lines {
		out[i] = *la
	}
	return out, nil
}

// read adds the lots of rows of rec_no, wid, spot, units.
func (l *lockedLots) read(r rows) error {
	for r.Next() {
		var (
			recNo, wid int64
			spot       string
			units      stockroom.Units
		)
		if err := r.Scan(&recNo, &wid, &spot, &units); err != nil {
			return err
		}
		l.add(recNo, wid, spot, units)
	}
	return r.Err()
}

// linesOf returns the order's lines an action names (every line when it
// names none), in line order, and what each line was asked. An order none
// of whose lines the client by sees is stockroom.ErrNotFound; a line the
// order does not have or the client does not see, or one named twice, is
// EINVALID naming it.
func (o *outboundOrder) linesOf(named []stockroom.AllocLine, by *stockroom.Principal) ([]*stockroom.LineAllocations, []stockroom.AllocLine, error) {
	visible := func(la *stockroom.LineAllocations) bool { return by.SeesLine(la.WID, la.Owner) }
	if !slices.ContainsFunc(o.lines, visible) {
		return nil, nil, stockroom.ErrNotFound
	}
	if len(named) == 0 {
		asked := make([]stockroom.AllocLine, len(o.lines))
		for i, la := range o.lines {
			asked[i] = stockroom.AllocLine{Line: la.LineNo}
		}
		return o.lines, asked, nil
	}
	type pick struct {
		at    int
		asked stockroom.AllocLine
	}
	var (
		v     stockroom.Validation
		seen  = map[int64]bool{}
		picks = make([]pick, 0, len(named))
	)
	for i, n := range named {
		at := slices.IndexFunc(o.lines, func(la *stockroom.LineAllocations) bool { return la.LineNo == n.Line && visible(la) })
		switch {
		case at < 0:
			v.Add(stockroom.LineField(i)+"line", fmt.Sprintf("is not a line of %s %s", strings.ToLower(o.kind.Noun()), o.head.no))
		case seen[n.Line]:
			v.Add(stockroom.LineField(i)+"line", fmt.Sprintf("names line %d again", n.Line))
		default:
			seen[n.Line] = true
			picks = append(picks, pick{at, n})
		}
	}
	if err := v.Err(); err != nil {
		return nil, nil, err
	}
	slices.SortFunc(picks, func(a, b pick) int { return a.at - b.at })
	lines := make([]*stockroom.LineAllocations, len(picks))
	asked := make([]stockroom.AllocLine, len(picks))
	for i, p := range picks {
		lines[i], asked[i] = o.lines[p.at], p.asked
	}
	return lines, asked, nil
}

// admit judges the lines an action touches by the client's scopes, then
// refuses an action (what: "committed", ...) on an order that has ended.
func (o *outboundOrder) admit(lines []*stockroom.LineAllocations, what string, by *stockroom.Principal) error {
	if err := by.JudgeLines(len(lines), func(i int) (int64, int64) { return lines[i].WID, lines[i].Owner }); err != nil {
		return err
	}
	return o.kind.CheckOpen(o.head.no, o.head.status, what)
}

package store

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
)

// A work order's completion (contract §11), in one transaction: each
// component line consumes its per-unit units times the products completed,
// from the lots allocated to it first, then from unallocated lots of its
// item, warehouse and owner, oldest received first then lowest recNo; then
// the products are received as one new lot at the order's warehouse and
// spot, for its owner, priced at what the consumed units cost. Ledger: one
// assemble entry (contract §11), as a move is one entry with its lines: its
// item the product, its lines the products' lot and every consumed lot
// (negative), its figures the components' committed down by what
// allocations gave, each of its own item (see assemble). Locks, in
// the order every order action takes them: the header, the lines, then the
// lots of every component (allocated to the line or free) in lotLockOrder,
// the components' levels, the product's level, the counters.

// workProduct is what work_orders keeps of a locked order.
type workProduct struct {
	partNo, wid, owner int64
	shortID, spot      string
	units, completed   stockroom.Units
}

// component is what a completion needs of a line beyond its figures.
type component struct {
	perUnit stockroom.Units
	shortID string
}

// completeLot is a locked lot a completion may take.
type completeLot struct {
	recNo, partNo, wid, owner int64
	spot                      string
	units, allocated, price   stockroom.Units
}

// CompleteWorkOrder completes units products of the work order a.No (see
// above) and returns the order afterwards with the product's lot and what
// each component consumed. It touches every component (a.By's scopes judge
// them as an order action's). A component that cannot
// be covered refuses the whole completion (stockroom.ComponentShortError)
// and changes nothing; so does asking more than is left to complete, or a
// part of a product whose components' units are not whole millionths.
func (db *DB) CompleteWorkOrder(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.OrderLinesAction, units stockroom.Units) (stockroom.CompleteResult, error) {
	var res stockroom.CompleteResult
	err := db.update(ctx, key, func(tx *Tx) (any, error) {
		var err error
		res, err = tx.completeWork(a.No, units, a.Entry, a.By)
		return res, err
	})
	return res, err
}

func (t *Tx) completeWork(no string, units stockroom.Units, e stockroom.LedgerEntry, by *stockroom.Principal) (stockroom.CompleteResult, error) {
	var res stockroom.CompleteResult
	o, err := t.lockOutbound(stockroom.OrderKindWork, no, false)
	if err != nil {
		return res, err
	}
	var p workProduct
	t.QueryRow(new(bool), `
		SELECT w.part_no, i.short_id, w.wid, w.owner, w.spot, w.units, w.completed
		FROM work_orders w JOIN items i ON i.part_no = w.part_no
		WHERE w.order_id = $1`, []any{o.head.id}, &p.partNo, &p.shortID, &p.wid, &p.owner, &p.spot, &p.units, &p.completed)
	comps := map[int64]*component{}
	t.Query(func(rs rows) error {
		for rs.Next() {
			var (
				n int64
				c component
			)
			if err := rs.Scan(&n, &c.perUnit, &c.shortID); err != nil {
				return err
			}
			comps[n] = &c
		}
		return rs.Err()
	}, `
		SELECT l.line_no, COALESCE(l.per_unit, 0), i.short_id
		FROM order_lines l JOIN items i ON i.part_no = l.part_no
		WHERE l.order_id = $1`, o.head.id)
	if err := t.Flush(); err != nil {
		return res, err
	}
	if _, _, err := o.linesOf(nil, by); err != nil {
		return res, err
	}
	if err := o.admit(o.lines, actAssemble.what, by); err != nil {
		return res, err
	}
	left := p.units.Sub(p.completed)
	if left.Less(units) {
		return res, stockroom.Errorf(stockroom.ECONFLICT, "Work order %s has %s units left to complete; %s asked.", o.head.no, left, units)
	}
	needs := make([]stockroom.Units, len(o.lines))
	for i, la := range o.lines {
		if units == left { // the rest: whatever each line still has, exactly
			needs[i] = la.Units.Sub(la.Shipped)
			continue
		}
		var ok bool
		if needs[i], ok = stockroom.ComponentUnits(comps[la.LineNo].perUnit, units); !ok {
			return res, stockroom.Invalid("units", fmt.Sprintf("times component %s's %s units per product must be a whole number of millionths",
				comps[la.LineNo].shortID, comps[la.LineNo].perUnit))
		}
	}
	lots, err := t.lockComponentLots(o)
	if err != nil {
		return res, err
	}
	changes, cost, err := planConsumption(o, needs, lots, comps)
	if err != nil {
		return res, err
	}
	t.Exec(`UPDATE work_orders SET completed = completed + $2 WHERE order_id = $1`, o.head.id, units)
	r := stockroom.Receipt{PartNo: p.partNo, Owner: p.owner, ReceiveRequest: stockroom.ReceiveRequest{ItemID: p.shortID, Units: units,
		WID: p.wid, Spot: p.spot, Reference: o.head.no, Price: unitCost(cost, units)}}
	if res, err = t.assemble(o, changes, r, e); err != nil {
		return res, err
	}
	if res.WorkOrder, err = t.readWork(o.head.no); err != nil {
		return res, err
	}
	return res, orderEvents(t, e, res.WorkOrder, allocActions(actAssemble, o.head.status, res.WorkOrder.Status)...)
}

// assemble writes a completion's consumption (changes) and its products'
// receipt r as one ledger entry: the receipt's (type assemble, item the
// product, line 1 its new lot), into which the consumption's lines (every
// consumed lot, negative) and figures (the components' committed, down)
// go, and the units each component consumed into its details, by line.
func (t *Tx) assemble(o *outboundOrder, changes []lineChange, r stockroom.Receipt, e stockroom.LedgerEntry) (stockroom.CompleteResult, error) {
	var consumed entryParts
	alloc, err := t.writeAllocations(o, actAssemble.into(&consumed), changes, e, "")
	if err != nil {
		return stockroom.CompleteResult{}, err
	}
	components := make([]map[string]any, len(alloc.Lines))
	for i, l := range alloc.Lines {
		components[i] = map[string]any{"line": l.Line, "units": l.Units}
	}
	pe := stockroom.LedgerEntry{ClientID: e.ClientID, Time: e.Time, Reference: o.head.no,
		Details: map[string]any{"woNo": o.head.no, "components": components}}
	got, err := t.receiveAs(stockroom.TxAssemble, []stockroom.Receipt{r}, pe)
	if errors.Is(err, stockroom.ErrWarehouseInactive) {
		// The products' warehouse, which the refusal names.
		err = &stockroom.OrderLineRefusal{Name: strconv.FormatInt(r.WID, 10), ID: r.WID, Err: err}
	}
	if err != nil {
		return stockroom.CompleteResult{}, err
	}
	id := got[0].TransactionID
	t.appendParts(id, r.PartNo, 1, consumed)
	for i := range alloc.Lines {
		alloc.Lines[i].TransactionID = &id
	}
	return stockroom.CompleteResult{TransactionID: id, Lot: got[0].Lot, Components: alloc.Lines}, nil
}

// lockComponentLots locks, in lotLockOrder in one statement, every lot of
// the order's components' items at their warehouse and owner that is
// allocated to the order or has units neither held nor allocated, and adds
// them to o's locked lots.
func (t *Tx) lockComponentLots(o *outboundOrder) (map[int64]*completeLot, error) {
	var a args
	buckets := make([]string, len(o.lines))
	for i, la := range o.lines {
		buckets[i] = "(part_no = " + a.add(la.PartNo) + " AND wid = " + a.add(la.WID) + " AND owner = " + a.add(la.Owner) + ")"
	}
	lots := map[int64]*completeLot{}
	t.Query(func(rs rows) error {
		for rs.Next() {
			l := &completeLot{}
			if err := rs.Scan(&l.recNo, &l.partNo, &l.wid, &l.owner, &l.spot, &l.units, &l.allocated, &l.price); err != nil {
				return err
			}
			lots[l.recNo] = l
			o.lots.add(l.recNo, l.wid, l.spot, l.units)
		}
		return rs.Err()
	}, `
		SELECT rec_no, part_no, wid, owner, spot, units, allocated, price
		FROM lots
		WHERE (`+strings.Join(buckets, " OR ")+`)
		  AND shipped IS NULL
		  AND (rec_no IN (SELECT rec_no FROM allocations WHERE order_id = `+a.add(o.head.id)+`)
		       OR (units > allocated AND NOT hold))
		ORDER BY `+lotLockOrder+t.forUpdate(), a...)
	return lots, t.Flush()
}

// planConsumption plans each line's consumption of needs[i] units: its
// allocations' committed units in draw order, then free units of the
// locked lots in draw order. It returns the changes and what the consumed
// units cost (units × price summed, in millionths of millionths), or the
// refusal naming every line short.
func planConsumption(o *outboundOrder, needs []stockroom.Units, lots map[int64]*completeLot, comps map[int64]*component) ([]lineChange, *big.Int, error) {
	cost := new(big.Int)
	changes := make([]lineChange, len(o.lines))
	var shorts []stockroom.ComponentShort
	for i, la := range o.lines {
		need := needs[i]
		byLot := map[int64]*stockroom.AllocStep{}
		var order []int64
		take := func(recNo int64, fromAlloc, n stockroom.Units) {
			s := byLot[recNo]
			if s == nil {
				s = &stockroom.AllocStep{RecNo: recNo}
				byLot[recNo], order = s, append(order, recNo)
			}
			s.Committed, s.Shipped = s.Committed.Sub(fromAlloc), s.Shipped.Add(n)
			need = need.Sub(n)
			cost.Add(cost, new(big.Int).Mul(big.NewInt(n.Micros()), big.NewInt(lots[recNo].price.Micros())))
		}
		for _, a := range la.Allocations {
			if n := stockroom.MinUnits(a.Committed, need); n.Sign() > 0 && lots[a.RecNo] != nil {
				take(a.RecNo, n, n)
			}
		}
		for _, recNo := range o.lots.order {
			l := lots[recNo]
			if l.partNo != la.PartNo || l.wid != la.WID || l.owner != la.Owner {
				continue
			}
			if n := stockroom.MinUnits(l.units.Sub(l.allocated), need); n.Sign() > 0 {
				l.allocated = l.allocated.Add(n) // a later line of the same item takes what is left
				take(recNo, stockroom.Units{}, n)
			}
		}
		if need.Sign() > 0 {
			shorts = append(shorts, stockroom.ComponentShort{Line: la.LineNo, ShortID: comps[la.LineNo].shortID, Wanted: needs[i], Available: needs[i].Sub(need)})
		}
		for _, recNo := range order {
			changes[i].steps = append(changes[i].steps, *byLot[recNo])
		}
		changes[i].line = la
	}
	return changes, cost, stockroom.ComponentShortError(shorts)
}

// unitCost is the price of one of units products whose components cost
// cost (millionths of millionths): cost / units, rounded to the nearest
// millionth, halves up.
func unitCost(cost *big.Int, units stockroom.Units) stockroom.Units {
	d := big.NewInt(units.Micros())
	q, r := new(big.Int).QuoRem(cost, d, new(big.Int))
	if r.Mul(r, big.NewInt(2)).Cmp(d) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	return stockroom.FromMicros(q.Int64())
}

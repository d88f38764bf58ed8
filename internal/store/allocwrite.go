package store

import (
	"fmt"

	"github.com/stockroom/stockroom"
)

// allocAction is one kind of order action: its ledger type and the units
// of a step it reports (what it committed, released, packed, shipped).
type allocAction struct {
	typ   stockroom.TxType
	units func(stockroom.AllocStep) stockroom.Units
	// what the action does, for the refusal of an ended order.
	what string
	// gather, when set, takes the ledger lines and figures of every line
	// changed, for one entry the caller writes (see into); else each line
	// changed is an entry of its own.
	gather *entryParts
}

// into is the action writing no ledger entry of its own: the lines and
// figures of every line it changes gather in p, for the one entry of
// several items its caller writes (a completion's assemble entry, which
// receives the products too), and the answer's lines name no entry.
func (a allocAction) into(p *entryParts) allocAction {
	a.gather = p
	return a
}

var (
	actCommit   = allocAction{typ: stockroom.TxCommit, units: func(s stockroom.AllocStep) stockroom.Units { return s.Committed }, what: "committed"}
	actUncommit = allocAction{typ: stockroom.TxUncommit, units: func(s stockroom.AllocStep) stockroom.Units { return s.Committed.Neg() }, what: "uncommitted"}
	actPack     = allocAction{typ: stockroom.TxPack, units: func(s stockroom.AllocStep) stockroom.Units { return s.Packed }, what: "packed"}
	actShip     = allocAction{typ: stockroom.TxShip, units: func(s stockroom.AllocStep) stockroom.Units { return s.Shipped }, what: "shipped"}
	actRelease  = allocAction{typ: stockroom.TxOrderRelease, units: func(s stockroom.AllocStep) stockroom.Units { return s.Allocated().Neg() }, what: "ended"}
	// actAssemble consumes a work order's components (workcomplete.go).
	actAssemble = allocAction{typ: stockroom.TxAssemble, units: func(s stockroom.AllocStep) stockroom.Units { return s.Shipped }, what: "completed"}
)

// issues reports whether the action takes units out of lots (a ship, a
// completion's consumption).
func (a allocAction) issues() bool { return a.typ == stockroom.TxShip || a.typ == stockroom.TxAssemble }

// lineChange is what an action does to one line: the steps on its
// allocations, and what a commit could not cover.
type lineChange struct {
	line  *stockroom.LineAllocations
	steps []stockroom.AllocStep
	short stockroom.Units
}

// The statements of an action.
const (
	changeOutboundLine = `
		UPDATE order_lines SET
			committed = committed + $3,
			packed = packed + $4,
			shipped = shipped + $5
		WHERE order_id = $1 AND line_no = $2
		RETURNING committed, packed, shipped`
	insertAllocation = `
		INSERT INTO allocations (order_id, line_no, rec_no, committed, packed)
		VALUES ($1, $2, $3, $4, $5)
		RETURNING rec_no`
	changeAllocation = `
		UPDATE allocations SET
			committed = committed + $4,
			packed = packed + $5
		WHERE order_id = $1 AND line_no = $2 AND rec_no = $3
		RETURNING rec_no`
	deleteAllocation = `
		DELETE FROM allocations
		WHERE order_id = $1 AND line_no = $2 AND rec_no = $3
		RETURNING rec_no`
	allocateLot = `
		UPDATE lots SET allocated = allocated + $2
		WHERE rec_no = $1
		RETURNING units`
	// settleOutbound sets an open order's state after an action: Closed
	// once every line has shipped in full, $3 (Partial, In Progress) once
	// any has shipped, and a work order In Progress once any component is
	// committed; an order that has ended keeps its state.
	settleOutbound = `
		UPDATE orders SET
			status = CASE
				WHEN status IN ('Closed', 'Canceled') THEN status
				WHEN NOT EXISTS (
					SELECT 1 FROM order_lines WHERE order_id = $1 AND shipped < units
				) THEN 'Closed'
				WHEN EXISTS (
					SELECT 1 FROM order_lines WHERE order_id = $1 AND shipped > 0
				) THEN $3
				WHEN $3 = 'In Progress' AND EXISTS (
					SELECT 1 FROM order_lines WHERE order_id = $1 AND committed > 0
				) THEN $3
				ELSE status END,
			modified = CASE WHEN $2 > modified THEN $2 ELSE modified + 1 END
		WHERE id = $1
		RETURNING status`
	endOutbound = `
		UPDATE orders SET
			status = $3,
			modified = CASE WHEN $2 > modified THEN $2 ELSE modified + 1 END
		WHERE id = $1
		RETURNING status`
)

// allocWrites is what writeAllocations queues, and reads back at the flush.
type allocWrites struct {
	done    []*bool                  // per row changed: it was there
	after   []stockroom.OutboundLine // per change: the line afterwards
	ids     []int64                  // per change: its ledger entry
	lotLeft map[int64]*stockroom.Units
	levels  []levelChange
}

// row returns the flag of one more row to be changed.
func (w *allocWrites) row() *bool {
	ok := new(bool)
	w.done = append(w.done, ok)
	return ok
}

// writeAllocations writes an action's changes to the locked order o: the
// lines, the allocations, the lots (in the order locked), the levels, the
// order's state (end, when given; else as settleOutbound decides), and
// the ledger. Nothing is written when nothing changes and end is empty.
func (t *Tx) writeAllocations(o *outboundOrder, act allocAction, changes []lineChange, e stockroom.LedgerEntry, end stockroom.OrderStatus) (stockroom.AllocationResult, error) {
	res := stockroom.AllocationResult{OrderNo: o.head.no, Status: o.head.status, Lines: []stockroom.LineAllocation{}}
	changed := end != ""
	for _, c := range changes {
		changed = changed || len(c.steps) > 0
	}
	if !changed {
		res.Lines = allocAnswer(o, act, changes, nil)
		return res, nil
	}
	w := &allocWrites{after: make([]stockroom.OutboundLine, len(changes)), ids: make([]int64, len(changes)), lotLeft: map[int64]*stockroom.Units{}}
	now := micros(e.Time)
	t.queueLineWrites(o, changes, w)
	if err := t.queueLotWrites(o, changes, w, now); err != nil {
		return res, err
	}
	lv := t.changeLevels(e, w.levels...)
	if end != "" {
		t.QueryRow(nil, endOutbound, []any{o.head.id, now, string(end)}, &res.Status)
	} else {
		t.QueryRow(nil, settleOutbound, []any{o.head.id, now, string(o.kind.PartialStatus())}, &res.Status)
	}
	for i, c := range changes {
		if len(c.steps) == 0 || act.gather != nil {
			continue
		}
		l := c.line
		head := ledgerHead{typ: act.typ, partNo: l.PartNo, wid: l.WID, owner: l.Owner, units: stepUnits(act, c.steps),
			entry: allocEntry(e, o, l.LineNo, act, c.steps)}
		if err := t.appendHead(head, &w.ids[i]); err != nil {
			return res, err
		}
	}
	if err := t.Flush(); err != nil {
		return res, err
	}
	for _, ok := range w.done {
		if !*ok {
			return res, fmt.Errorf("%s %s: a row changed while locked", o.kind.Noun(), o.head.no)
		}
	}
	counts := countChanges{}
	if err := lv.settle(counts); err != nil {
		return res, err
	}
	t.allocLedger(o, act, changes, w, counts)
	t.addCounts(counts)
	res.Lines = allocAnswer(o, act, changes, w)
	if act.gather != nil { // a completion's: its caller appends them
		return res, nil
	}
	return res, t.outboundEvents(o, e, allocActions(act, o.head.status, res.Status))
}

// queueLineWrites queues the changes of the lines and their allocations,
// and gathers the level changes.
func (t *Tx) queueLineWrites(o *outboundOrder, changes []lineChange, w *allocWrites) {
	for i, c := range changes {
		if len(c.steps) == 0 {
			continue
		}
		l, sum := c.line, stockroom.SumSteps(c.steps)
		a := &w.after[i]
		t.QueryRow(w.row(), changeOutboundLine, []any{o.head.id, l.LineNo, sum.Committed, sum.Packed, sum.Shipped},
			&a.Committed, &a.Packed, &a.Shipped)
		w.levels = append(w.levels, levelChange{partNo: l.PartNo, wid: l.WID, owner: l.Owner,
			inStock: sum.Shipped.Neg(), committed: sum.Committed, packed: sum.Packed})
		for _, s := range c.steps {
			if s.Committed.IsZero() && s.Packed.IsZero() { // units no allocation held (a completion's)
				continue
			}
			stmt := changeAllocation
			if a, ok := allocationOf(l, s.RecNo); !ok {
				stmt = insertAllocation
			} else if a.Committed.Add(s.Committed).Add(a.Packed).Add(s.Packed).IsZero() {
				stmt = deleteAllocation
			}
			args := []any{o.head.id, l.LineNo, s.RecNo, s.Committed, s.Packed}
			if stmt == deleteAllocation {
				args = args[:3]
			}
			t.QueryRow(w.row(), stmt, args, new(int64))
		}
	}
}

// queueLotWrites queues the change of each lot's allocated units (and
// units, for a ship), in the order the lots were locked. A step on a lot
// the action did not lock is an error.
func (t *Tx) queueLotWrites(o *outboundOrder, changes []lineChange, w *allocWrites, now int64) error {
	type lotChange struct{ allocated, shipped stockroom.Units }
	by := map[int64]lotChange{}
	for _, c := range changes {
		for _, s := range c.steps {
			if lc := by[s.RecNo]; !s.Allocated().IsZero() || !s.Shipped.IsZero() {
				by[s.RecNo] = lotChange{lc.allocated.Add(s.Allocated()), lc.shipped.Add(s.Shipped)}
			}
		}
	}
	for _, recNo := range o.lots.order {
		lc, ok := by[recNo]
		if !ok {
			continue
		}
		delete(by, recNo)
		left := new(stockroom.Units)
		w.lotLeft[recNo] = left
		if lc.shipped.IsZero() {
			t.QueryRow(w.row(), allocateLot, []any{recNo, lc.allocated}, left)
		} else {
			// A ship takes allocated units only (lc.allocated is -lc.shipped); a
			// completion free ones too.
			remaining := o.lots.of[recNo].units.Sub(lc.shipped)
			t.QueryRow(w.row(), drawFromLot(remaining), []any{recNo, lc.shipped, now, lc.allocated.Neg()}, left)
		}
	}
	if len(by) > 0 {
		return fmt.Errorf("%s of order %s changes lots it did not lock", o.kind.Noun(), o.head.no)
	}
	return nil
}

// allocationOf returns the allocation of lot recNo to line l.
func allocationOf(l *stockroom.LineAllocations, recNo int64) (stockroom.Allocation, bool) {
	for _, a := range l.Allocations {
		if a.RecNo == recNo {
			return a, true
		}
	}
	return stockroom.Allocation{}, false
}

// stepUnits is what an action did on a line, by its steps.
func stepUnits(act allocAction, steps []stockroom.AllocStep) stockroom.Units {
	var u stockroom.Units
	for _, s := range steps {
		u = u.Add(act.units(s))
	}
	return u
}

// allocEntry is the ledger entry of an action on line n of order o: the
// request's client, time and remark; as reference the order's number (a
// ship's own, when it gives one); the order's number and line in the
// details, and the lots with their units for an action that changes none
// of their units.
func allocEntry(e stockroom.LedgerEntry, o *outboundOrder, n int64, act allocAction, steps []stockroom.AllocStep) stockroom.LedgerEntry {
	d := map[string]any{o.kind.NoField(): o.head.no, "line": n}
	if !act.issues() {
		lots := make([]map[string]any, len(steps))
		for i, s := range steps {
			lots[i] = map[string]any{"recNo": s.RecNo, "units": act.units(s)}
		}
		d["lots"] = lots
	}
	ref := o.head.no
	if act.typ == stockroom.TxShip && e.Reference != "" {
		ref = e.Reference
	}
	return stockroom.LedgerEntry{ClientID: e.ClientID, Time: e.Time, Reference: ref, Remark: e.Remark, Details: d}
}

// allocLedger queues the ledger's lot lines (a ship's, a completion's) and
// figures of each changed line, or gathers them (act.gather), and counts
// the lots a ship or completion emptied.
func (t *Tx) allocLedger(o *outboundOrder, act allocAction, changes []lineChange, w *allocWrites, counts countChanges) {
	for i, c := range changes {
		if len(c.steps) == 0 {
			continue
		}
		l, sum := c.line, stockroom.SumSteps(c.steps)
		var lines []ledgerLine
		for _, s := range c.steps {
			if lot := o.lots.of[s.RecNo]; s.Shipped.Sign() > 0 && lot != nil {
				lines = append(lines, ledgerLine{recNo: s.RecNo, partNo: l.PartNo, wid: lot.wid, spot: lot.spot, units: s.Shipped.Neg()})
			}
		}
		figure := ledgerFigure{partNo: l.PartNo, wid: l.WID, committed: sum.Committed, packed: sum.Packed}
		if g := act.gather; g != nil {
			g.lines, g.figures = append(g.lines, lines...), append(g.figures, figure)
			continue
		}
		t.appendLines(w.ids[i], lines)
		t.appendFigures(w.ids[i], []ledgerFigure{figure})
	}
	if !act.issues() {
		return
	}
	for recNo, left := range w.lotLeft {
		if left.IsZero() {
			counts.lot(o.lots.of[recNo].wid, -1, false, true)
		}
	}
}

// allocAnswer is what the answer says of each line changed, or short.
func allocAnswer(o *outboundOrder, act allocAction, changes []lineChange, w *allocWrites) []stockroom.LineAllocation {
	out := []stockroom.LineAllocation{}
	left := map[int64]stockroom.Units{} // a ship's lots, as each line leaves them
	for recNo, l := range o.lots.of {
		left[recNo] = l.units
	}
	for i, c := range changes {
		if len(c.steps) == 0 && c.short.IsZero() {
			continue
		}
		l := c.line.OutboundLine
		la := stockroom.LineAllocation{Line: l.LineNo, Short: c.short, UnitsCommitted: l.Committed, UnitsPacked: l.Packed,
			UnitsShipped: l.Shipped, Lots: []stockroom.LotUnits{}}
		if len(c.steps) > 0 {
			a := w.after[i]
			if act.gather == nil {
				la.TransactionID = &w.ids[i]
			}
			la.Units = stepUnits(act, c.steps)
			la.UnitsCommitted, la.UnitsPacked, la.UnitsShipped = a.Committed, a.Packed, a.Shipped
		}
		for _, s := range c.steps {
			lu := stockroom.LotUnits{RecNo: s.RecNo, Units: act.units(s)}
			if act.issues() {
				r := left[s.RecNo].Sub(s.Shipped)
				left[s.RecNo], lu.Remaining = r, &r
			}
			la.Lots = append(la.Lots, lu)
		}
		out = append(out, la)
	}
	return out
}

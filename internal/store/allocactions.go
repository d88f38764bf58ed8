package store

import (
	"cmp"
	"context"
	"slices"

	"github.com/stockroom/stockroom"
)

// The order actions on allocations, for an order of any kind with outbound
// lines (shipping orders' lines, work orders' components). Each is one
// transaction recording key's answer, on the order a.Kind numbered a.No
// (any letter case), its changes recorded under a.Entry. An order that
// does not exist, or none of whose lines the client a.By sees
// (stockroom.Principal.SeesLine), is stockroom.ErrNotFound; a line it does
// not have or the client does not see, or one named twice, is EINVALID
// naming it; then the client's scopes judge the lines the action touches
// (the named ones, or all: stockroom.Principal.JudgeLines, 403); then an
// order that has ended is ECONFLICT, and so is a line asked for more than
// it has (to commit, committed, committed or packed). A refused action
// changes nothing.

// CommitOrder allocates lots to lines of the order: for each line
// named (every line when none is), its units or what it has uncommitted,
// from lots of its item, warehouse and owner in stock, not held and not
// allocated, oldest received first then lowest recNo, or from the lot
// named. A line that cannot be covered refuses the whole commit
// (stockroom.CommitShortError) unless req.AllowPartial, when what can be is
// committed and the answer says per line what is short.
func (db *DB) CommitOrder(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.OrderLinesAction, req stockroom.CommitRequest) (stockroom.AllocationResult, error) {
	return db.orderAction(ctx, key, func(tx *Tx) (stockroom.AllocationResult, error) {
		return tx.commitOrder(a, req)
	})
}

// UncommitOrder releases committed (not packed) units of lines of the
// order: a line's units, or every committed one; newest lots first.
func (db *DB) UncommitOrder(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.OrderLinesAction, req stockroom.UncommitRequest) (stockroom.AllocationResult, error) {
	return db.orderAction(ctx, key, func(tx *Tx) (stockroom.AllocationResult, error) {
		return tx.adjustOrder(a, req.Lines, actUncommit, true, func(la *stockroom.LineAllocations, l stockroom.AllocLine) ([]stockroom.AllocStep, error) {
			return la.Uncommit(l.Units)
		})
	})
}

// PackOrder turns committed units of lines of the order into packed ones,
// oldest lots first: a line's units, or (when it gives none) every
// committed one.
func (db *DB) PackOrder(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.OrderLinesAction, req stockroom.PackRequest) (stockroom.AllocationResult, error) {
	return db.orderAction(ctx, key, func(tx *Tx) (stockroom.AllocationResult, error) {
		return tx.adjustOrder(a, req.Lines, actPack, false, func(la *stockroom.LineAllocations, l stockroom.AllocLine) ([]stockroom.AllocStep, error) {
			units := la.Committed
			if l.Units != nil {
				units = *l.Units
			}
			return la.Pack(units)
		})
	})
}

// ShipOrder issues units of lines of the order from their allocated lots:
// packed units first, then committed ones; a line's units, or every one.
// Lots drawn to zero are shipped as by an issue; a ship of nothing (nothing
// committed or packed on those lines) is ECONFLICT naming the order. The
// ledger's ship entries carry req's reference (default: the order's
// number) and remark. The order becomes Partial (a work order In
// Progress), and Closed once every line has shipped in full.
func (db *DB) ShipOrder(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.OrderLinesAction, req stockroom.ShipRequest) (stockroom.AllocationResult, error) {
	a.Entry.Reference, a.Entry.Remark = req.Reference, req.Remark
	return db.orderAction(ctx, key, func(tx *Tx) (stockroom.AllocationResult, error) {
		return tx.adjustOrder(a, req.Lines, actShip, true, func(la *stockroom.LineAllocations, l stockroom.AllocLine) ([]stockroom.AllocStep, error) {
			return la.Ship(l.Units)
		})
	})
}

// EndOutboundOrder closes the order (or cancels it, when cancel; refused
// when anything has shipped), releasing every allocation it still has,
// committed or packed (ledger type order-release, one entry per line that
// had any). It touches every line.
func (db *DB) EndOutboundOrder(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.OrderLinesAction, cancel bool) (stockroom.AllocationResult, error) {
	return db.orderAction(ctx, key, func(tx *Tx) (stockroom.AllocationResult, error) {
		return tx.endOutboundOrder(a, cancel)
	})
}

// orderAction runs an order action in one write transaction.
func (db *DB) orderAction(ctx context.Context, key *stockroom.IdempotencyKey, fn func(*Tx) (stockroom.AllocationResult, error)) (stockroom.AllocationResult, error) {
	var res stockroom.AllocationResult
	err := db.update(ctx, key, func(tx *Tx) (any, error) {
		var err error
		res, err = fn(tx)
		return res, err
	})
	return res, err
}

// adjustOrder carries out an action on the existing allocations of the
// lines named (every line when none is): plan decides each line's steps.
// lockLots locks the order's lots (the action changes them).
func (t *Tx) adjustOrder(a stockroom.OrderLinesAction, named []stockroom.AllocLine, act allocAction, lockLots bool,
	plan func(*stockroom.LineAllocations, stockroom.AllocLine) ([]stockroom.AllocStep, error)) (stockroom.AllocationResult, error) {
	o, err := t.lockOutbound(a.Kind, a.No, lockLots)
	if err != nil {
		return stockroom.AllocationResult{}, err
	}
	lines, asked, err := o.linesOf(named, a.By)
	if err != nil {
		return stockroom.AllocationResult{}, err
	}
	if err := o.admit(lines, act.what, a.By); err != nil {
		return stockroom.AllocationResult{}, err
	}
	changes := make([]lineChange, len(lines))
	planned := 0
	for i, la := range lines {
		steps, err := plan(la, asked[i])
		if err != nil {
			return stockroom.AllocationResult{}, err
		}
		changes[i] = lineChange{line: la, steps: steps}
		planned += len(steps)
	}
	if act.typ == stockroom.TxShip {
		if err := o.kind.CheckShipsSomething(o.head.no, planned); err != nil {
			return stockroom.AllocationResult{}, err
		}
	}
	return t.writeAllocations(o, act, changes, a.Entry, "")
}

// endOutboundOrder releases every allocation of the order and ends it.
func (t *Tx) endOutboundOrder(a stockroom.OrderLinesAction, cancel bool) (stockroom.AllocationResult, error) {
	o, err := t.lockOutbound(a.Kind, a.No, true)
	if err != nil {
		return stockroom.AllocationResult{}, err
	}
	end, what := stockroom.OrderClosed, "closed"
	if cancel {
		end, what = stockroom.OrderCanceled, "canceled"
	}
	if _, _, err := o.linesOf(nil, a.By); err != nil {
		return stockroom.AllocationResult{}, err
	}
	if err := o.admit(o.lines, what, a.By); err != nil {
		return stockroom.AllocationResult{}, err
	}
	changes := make([]lineChange, len(o.lines))
	figures := make([]stockroom.OutboundLine, len(o.lines))
	for i, la := range o.lines {
		changes[i], figures[i] = lineChange{line: la, steps: la.Release()}, la.OutboundLine
	}
	if cancel {
		if err := a.Kind.CheckCancel(o.head.no, figures); err != nil {
			return stockroom.AllocationResult{}, err
		}
	}
	return t.writeAllocations(o, actRelease, changes, a.Entry, end)
}

// commitOrder plans and writes a commit (CommitOrder).
func (t *Tx) commitOrder(a stockroom.OrderLinesAction, req stockroom.CommitRequest) (stockroom.AllocationResult, error) {
	o, err := t.lockOutbound(a.Kind, a.No, false)
	if err != nil {
		return stockroom.AllocationResult{}, err
	}
	lines, asked, err := o.linesOf(req.Lines, a.By)
	if err != nil {
		return stockroom.AllocationResult{}, err
	}
	if err := o.admit(lines, actCommit.what, a.By); err != nil {
		return stockroom.AllocationResult{}, err
	}
	var (
		wants   []stockroom.CommitWant
		changes []lineChange
	)
	for i, la := range lines {
		units, err := la.CommitUnits(asked[i].Units)
		if err != nil {
			return stockroom.AllocationResult{}, err
		}
		if units.Sign() > 0 {
			wants = append(wants, stockroom.CommitWant{Line: la.OutboundLine, Units: units, RecNo: asked[i].RecNo})
			changes = append(changes, lineChange{line: la})
		}
	}
	steps, short, err := t.lockCommitLots(o, wants)
	if err != nil {
		return stockroom.AllocationResult{}, err
	}
	var shorts []stockroom.CommitShort
	for i, w := range wants {
		changes[i].steps, changes[i].short = steps[i], short[i]
		if short[i].Sign() > 0 {
			shorts = append(shorts, stockroom.CommitShort{Line: w.Line.LineNo, Wanted: w.Units, Available: w.Units.Sub(short[i])})
		}
	}
	if !req.AllowPartial {
		if err := stockroom.CommitShortError(shorts); err != nil {
			return stockroom.AllocationResult{}, err
		}
	}
	return t.writeAllocations(o, actCommit, changes, a.Entry, "")
}

// bucket is the lots of one item in one warehouse for one owner.
type bucket struct{ partNo, wid, owner int64 }

// lockCommitLots locks the lots wants may take, item by item (bucket by
// bucket in lotLockOrder, one round trip each, two when the first few lots
// fall short), adds them to o's locked lots, and plans each bucket
// (stockroom.PlanCommit). It returns each want's steps and shortfall.
func (t *Tx) lockCommitLots(o *outboundOrder, wants []stockroom.CommitWant) ([][]stockroom.AllocStep, []stockroom.Units, error) {
	groups := map[bucket][]int{}
	for i, w := range wants {
		b := bucket{w.Line.PartNo, w.Line.WID, w.Line.Owner}
		groups[b] = append(groups[b], i)
	}
	buckets := make([]bucket, 0, len(groups))
	for b := range groups {
		buckets = append(buckets, b)
	}
	slices.SortFunc(buckets, func(a, b bucket) int {
		return cmp.Or(cmp.Compare(a.partNo, b.partNo), cmp.Compare(a.wid, b.wid), cmp.Compare(a.owner, b.owner))
	})
	steps, short := make([][]stockroom.AllocStep, len(wants)), make([]stockroom.Units, len(wants))
	for _, b := range buckets {
		idx := groups[b]
		bw := make([]stockroom.CommitWant, len(idx))
		for j, i := range idx {
			bw[j] = wants[i]
		}
		locks := &lotLocks{sel: stockroom.LotSelection{PartNo: b.partNo, WID: b.wid, Owner: b.owner, RecNo: sameRecNo(bw)}}
		if err := t.lockMore(locks, firstCandidates); err != nil {
			return nil, nil, err
		}
		bs, bshort := stockroom.PlanCommit(bw, locks.cands)
		if slices.ContainsFunc(bshort, func(u stockroom.Units) bool { return u.Sign() > 0 }) {
			if err := t.lockMore(locks, 0); err != nil {
				return nil, nil, err
			}
			bs, bshort = stockroom.PlanCommit(bw, locks.cands)
		}
		for _, c := range locks.cands {
			o.lots.add(c.RecNo, b.wid, c.Spot, c.Units)
		}
		for j, i := range idx {
			steps[i], short[i] = bs[j], bshort[j]
		}
	}
	return steps, short, nil
}

// sameRecNo is the lot every want names, when they all name the same one;
// else 0 (any lot).
func sameRecNo(wants []stockroom.CommitWant) int64 {
	r := wants[0].RecNo
	for _, w := range wants {
		if w.RecNo != r {
			return 0
		}
	}
	return r
}

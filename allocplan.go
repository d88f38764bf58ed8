package stockroom

import (
	"fmt"
	"slices"
	"strings"
)

// The rules of order actions on allocations: which lots a commit takes,
// and which allocations an uncommit, pack, ship or release changes. They
// see the order's lines and allocations as locked, and decide; the store
// writes what they decide.

// CheckOpen refuses an action (what: "committed", "shipped", ...) on order
// no of the kind when it has ended.
func (k OrderKind) CheckOpen(no string, s OrderStatus, what string) error {
	if s.IsOpen() {
		return nil
	}
	return Errorf(ECONFLICT, "%s %s is %s; only an open order can be %s.", k.Noun(), no, s, what)
}

// CheckShipsSomething refuses a ship that would ship nothing: one whose
// lines (those named, else every line) have nothing committed or packed.
// Answering 200 with no lines would let a client take an empty shipment for
// a shipped order; shipped is how many lot steps the ship planned.
func (k OrderKind) CheckShipsSomething(no string, shipped int) error {
	if shipped > 0 {
		return nil
	}
	return Errorf(ECONFLICT, "%s %s has nothing committed or packed to ship.", k.Noun(), no)
}

// CheckCancel refuses to cancel an order of which something has shipped:
// it can be closed instead.
func (k OrderKind) CheckCancel(no string, lines []OutboundLine) error {
	for _, l := range lines {
		if l.Shipped.Sign() > 0 {
			if k == OrderKindWork {
				return Errorf(ECONFLICT, "%s %s has completed units; it can be closed, not canceled.", k.Noun(), no)
			}
			return Errorf(ECONFLICT, "%s %s has shipped units; it can be closed, not canceled.", k.Noun(), no)
		}
	}
	return nil
}

// CommitWant is what a commit asks of one line: units, from the lot
// RecNo, or from any when 0.
type CommitWant struct {
	Line  OutboundLine
	Units Units
	RecNo int64
}

// CommitShort is a line a commit could not cover in full.
type CommitShort struct {
	Line              int64
	Wanted, Available Units
}

// CommitShortError is the refusal of a commit that could not cover lines
// (ECONFLICT naming each line, the units it wanted and those available to
// it); nil when shorts is empty.
func CommitShortError(shorts []CommitShort) error {
	if len(shorts) == 0 {
		return nil
	}
	msgs := make([]string, len(shorts))
	for i, s := range shorts {
		msgs[i] = fmt.Sprintf("Insufficient stock to commit line %d: %s wanted, %s available.", s.Line, CountUnits(s.Wanted), s.Available)
	}
	return &Error{Code: ECONFLICT, Message: strings.Join(msgs, " ")}
}

// CommitUnits is what a commit asks of a line: units, when given, else
// what the line has uncommitted. More than that is ECONFLICT.
func (l OutboundLine) CommitUnits(units *Units) (Units, error) {
	left := l.Uncommitted()
	if units == nil {
		return left, nil
	}
	if left.Less(*units) {
		return Units{}, Errorf(ECONFLICT, "Line %d has %s left to commit; %s cannot be committed.", l.LineNo, CountUnits(left), CountUnits(*units))
	}
	return *units, nil
}

// PlanCommit decides which lots' free units go to which wants, all of one
// item, warehouse and owner, from candidates in draw order (held lots give
// nothing). Wants that name a lot take from it first; then the others, in
// the order given, take the oldest lots first. It returns the steps of each
// want, by index, and what each is short of its units.
func PlanCommit(wants []CommitWant, candidates []Candidate) (steps [][]AllocStep, short []Units) {
	free := make([]Units, len(candidates))
	for i, c := range candidates {
		if !c.Hold {
			free[i] = c.Free()
		}
	}
	steps, short = make([][]AllocStep, len(wants)), make([]Units, len(wants))
	order := make([]int, len(wants))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return boolOrder(wants[a].RecNo == 0) - boolOrder(wants[b].RecNo == 0)
	})
	for _, w := range order {
		left := wants[w].Units
		for i, c := range candidates {
			if left.IsZero() {
				break
			}
			if wants[w].RecNo != 0 && c.RecNo != wants[w].RecNo || free[i].Sign() <= 0 {
				continue
			}
			take := MinUnits(free[i], left)
			free[i], left = free[i].Sub(take), left.Sub(take)
			steps[w] = append(steps[w], AllocStep{RecNo: c.RecNo, Committed: take})
		}
		short[w] = left
	}
	return steps, short
}

func boolOrder(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Pack plans packing units of the line: committed units become packed,
// oldest lots first. More than the line has committed is ECONFLICT.
func (la LineAllocations) Pack(units Units) ([]AllocStep, error) {
	if la.Committed.Less(units) {
		return nil, Errorf(ECONFLICT, "Line %d has %s committed; %s cannot be packed.", la.LineNo, CountUnits(la.Committed), CountUnits(units))
	}
	steps := make([]AllocStep, len(la.Allocations))
	la.take(steps, units, false, func(a Allocation) Units { return a.Committed }, func(s *AllocStep, u Units) {
		s.Committed, s.Packed = s.Committed.Sub(u), s.Packed.Add(u)
	})
	return nonZero(la.Allocations, steps), nil
}

// Uncommit plans releasing committed units of the line (nil: all of
// them), newest lots first, so the oldest stay promised. More than the
// line has committed is ECONFLICT.
func (la LineAllocations) Uncommit(units *Units) ([]AllocStep, error) {
	u := la.Committed
	if units != nil {
		u = *units
	}
	if la.Committed.Less(u) {
		return nil, Errorf(ECONFLICT, "Line %d has %s committed; %s cannot be released.", la.LineNo, CountUnits(la.Committed), CountUnits(u))
	}
	steps := make([]AllocStep, len(la.Allocations))
	la.take(steps, u, true, func(a Allocation) Units { return a.Committed }, func(s *AllocStep, u Units) {
		s.Committed = s.Committed.Sub(u)
	})
	return nonZero(la.Allocations, steps), nil
}

// Ship plans shipping units of the line (nil: every committed and packed
// one): packed units first, then committed ones, oldest lots first. More
// than the line has committed and packed is ECONFLICT.
func (la LineAllocations) Ship(units *Units) ([]AllocStep, error) {
	all := la.Committed.Add(la.Packed)
	u := all
	if units != nil {
		u = *units
	}
	if all.Less(u) {
		return nil, Errorf(ECONFLICT, "Line %d has %s committed or packed; %s cannot be shipped.", la.LineNo, CountUnits(all), CountUnits(u))
	}
	steps := make([]AllocStep, len(la.Allocations))
	fromPacked := MinUnits(u, la.Packed)
	la.take(steps, fromPacked, false, func(a Allocation) Units { return a.Packed }, func(s *AllocStep, u Units) {
		s.Packed, s.Shipped = s.Packed.Sub(u), s.Shipped.Add(u)
	})
	la.take(steps, u.Sub(fromPacked), false, func(a Allocation) Units { return a.Committed }, func(s *AllocStep, u Units) {
		s.Committed, s.Shipped = s.Committed.Sub(u), s.Shipped.Add(u)
	})
	return nonZero(la.Allocations, steps), nil
}

// Release plans releasing everything allocated to the line, committed and
// packed (an order closed or canceled).
func (la LineAllocations) Release() []AllocStep {
	steps := make([]AllocStep, len(la.Allocations))
	for i, a := range la.Allocations {
		steps[i] = AllocStep{Committed: a.Committed.Neg(), Packed: a.Packed.Neg()}
	}
	return nonZero(la.Allocations, steps)
}

// take spreads units over the allocations (newest first when reverse),
// each giving at most what has(a) says, and records each part with apply.
func (la LineAllocations) take(steps []AllocStep, units Units, reverse bool, has func(Allocation) Units, apply func(*AllocStep, Units)) {
	n := len(la.Allocations)
	for k := 0; k < n && units.Sign() > 0; k++ {
		i := k
		if reverse {
			i = n - 1 - k
		}
		part := MinUnits(has(la.Allocations[i]), units)
		if part.Sign() > 0 {
			apply(&steps[i], part)
			units = units.Sub(part)
		}
	}
}

// nonZero keeps the steps that change something, named by their lots.
func nonZero(allocs []Allocation, steps []AllocStep) []AllocStep {
	var out []AllocStep
	for i, s := range steps {
		if !s.Committed.IsZero() || !s.Packed.IsZero() || !s.Shipped.IsZero() {
			s.RecNo = allocs[i].RecNo
			out = append(out, s)
		}
	}
	return out
}

package storetest

import (
	"fmt"
	"strings"
	"sync"

	"github.com/stockroom/stockroom"
)

// allocTally gathers what the workers' answers say: per order line
// ("SO-1/2"), the units promised (commits less uncommits and releases) and
// shipped; per ledger entry, the kind of success that wrote it; the orders
// an answer reported ended (closed, canceled, or closed by a ship in
// full) and the state it reported; the orders a close or cancel ended;
// the successes by kind; the refusals of actions on orders known to have
// ended; the unexpected errors.
type allocTally struct {
	mu           sync.Mutex
	net, shipped map[string]stockroom.Units
	entries      map[int64]string
	ended        map[string]stockroom.OrderStatus
	ends         map[string]string
	ok           map[string]int
	released     stockroom.Units
	shortCommits int
	refusedEnded int
	errs         []error
}

func newAllocTally() *allocTally {
	return &allocTally{net: map[string]stockroom.Units{}, shipped: map[string]stockroom.Units{}, entries: map[int64]string{},
		ended: map[string]stockroom.OrderStatus{}, ends: map[string]string{}, ok: map[string]int{}}
}

// allocKinds names what each kind of order action does, as the refusal
// of an ended order says it, the ledger type its entries have, and, for a
// close or a cancel, the state it leaves its order in.
var allocKinds = map[string]struct {
	what string
	typ  stockroom.TxType
	ends stockroom.OrderStatus
}{
	"commit":   {"committed", stockroom.TxCommit, ""},
	"uncommit": {"uncommitted", stockroom.TxUncommit, ""},
	"pack":     {"packed", stockroom.TxPack, ""},
	"ship":     {"shipped", stockroom.TxShip, ""},
	"close":    {"closed", stockroom.TxOrderRelease, stockroom.OrderClosed},
	"cancel":   {"canceled", stockroom.TxOrderRelease, stockroom.OrderCanceled},
}

// act runs an order action (kind: commit, uncommit, pack, ship, close,
// cancel) on order no and notes its answer. An order that an answer
// reported ended before the action began must refuse it (the contract's
// 409) and change nothing; one that ends meanwhile may take it first.
func (a *allocTally) act(kind, no string, do func() (stockroom.AllocationResult, error)) {
	a.mu.Lock()
	before := a.ended[no]
	a.mu.Unlock()
	res, err := do()
	a.mu.Lock()
	defer a.mu.Unlock()
	if before != "" {
		a.onEnded(kind, no, before, err)
		return
	}
	if err != nil {
		a.refusal(kind+" "+no, err)
		return
	}
	a.ok[kind]++
	if !res.Status.IsOpen() {
		a.ended[no] = res.Status
	}
	for _, l := range res.Lines {
		a.line(kind, no, l)
	}
	if want := allocKinds[kind].ends; want != "" {
		a.ends[no] = kind
		if res.Status != want {
			a.errs = append(a.errs, fmt.Errorf("%s %s answered status %s", kind, no, res.Status))
		}
	}
}

// onEnded checks the answer of an action on order no, which an answer
// reported as st before the action began. The caller holds the lock.
func (a *allocTally) onEnded(kind, no string, st stockroom.OrderStatus, err error) {
	want := stockroom.OrderKindShipping.CheckOpen(no, st, allocKinds[kind].what)
	if err == nil || stockroom.ErrorCode(err) != stockroom.ECONFLICT || stockroom.ErrorMessage(err) != stockroom.ErrorMessage(want) {
		a.errs = append(a.errs, fmt.Errorf("%s %s after it was %s: %v, want %v", kind, no, st, err, want))
		return
	}
	a.refusedEnded++
}

// line notes what a successful action did to one line. The caller holds
// the lock.
func (a *allocTally) line(kind, no string, l stockroom.LineAllocation) {
	k := fmt.Sprint(no, "/", l.Line)
	switch kind {
	case "commit":
		a.net[k] = a.net[k].Add(l.Units)
		if l.Short.Sign() > 0 {
			a.shortCommits++
		}
	case "uncommit":
		a.net[k] = a.net[k].Sub(l.Units)
	case "ship":
		a.shipped[k] = a.shipped[k].Add(l.Units)
	case "close", "cancel":
		// A release gives back what the line had committed and packed.
		a.net[k], a.released = a.net[k].Sub(l.Units), a.released.Add(l.Units)
		if !l.UnitsCommitted.IsZero() || !l.UnitsPacked.IsZero() {
			a.errs = append(a.errs, fmt.Errorf("%s %s left line %d with %s committed, %s packed", kind, no, l.Line, l.UnitsCommitted, l.UnitsPacked))
		}
	}
	if l.TransactionID == nil {
		return
	}
	if prev, seen := a.entries[*l.TransactionID]; seen {
		a.errs = append(a.errs, fmt.Errorf("entry %d answered by a %s and a %s", *l.TransactionID, prev, kind))
	}
	a.entries[*l.TransactionID] = kind
}

// refusal notes a refusal; an error that is none is unexpected. A commit
// refused for want of free units counts as a short one. The caller holds
// the lock.
func (a *allocTally) refusal(what string, err error) {
	if stockroom.ErrorCode(err) != stockroom.ECONFLICT {
		a.errs = append(a.errs, fmt.Errorf("%s: %w", what, err))
		return
	}
	if strings.HasPrefix(what, "commit ") && strings.HasPrefix(stockroom.ErrorMessage(err), "Insufficient stock to commit") {
		a.shortCommits++
	}
}

// other notes the answer of a plain issue, move or hold.
func (a *allocTally) other(what string, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err != nil {
		a.refusal(what, err)
		return
	}
	a.ok[what]++
}

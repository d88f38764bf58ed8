package storetest

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"sync"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/mixtest"
	"github.com/stockroom/stockroom/internal/store"
)

// The concurrency test: many workers, each mixing every kind of stock
// transaction over a few items and warehouses that all of them share, so
// that they contend for the same lots and rows, moved stock is drawn again
// later, and short stock is really met.

// Kinds of operation in the mix.
const (
	opReceive    = "receive"
	opIssue      = "issue"
	opMoveAcross = "move across warehouses"
	opMoveWithin = "move within a warehouse"
	opMoveByRec  = "move by recNo"
	opHold       = "hold"
	opRelease    = "release"
)

// opWeights is how often each kind is picked, out of their sum.
var opWeights = []struct {
	op     string
	weight int
}{
	{opReceive, 30}, {opIssue, 22}, {opMoveAcross, 14}, {opMoveWithin, 8}, {opMoveByRec, 8}, {opHold, 10}, {opRelease, 8},
}

func pickOp(rng *rand.Rand) string {
	total := 0
	for _, w := range opWeights {
		total += w.weight
	}
	n := rng.IntN(total)
	for _, w := range opWeights {
		if n < w.weight {
			return w.op
		}
		n -= w.weight
	}
	panic("unreachable")
}

// outcome is what one request got.
type outcome struct {
	ref     string
	op      string
	ok      bool  // succeeded
	txID    int64 // its ledger entry; 0 for a refusal or a hold that changed nothing; committedUnseen for one whose request was not told
	fromMov bool  // an issue that drew from a lot that had been moved
	short   bool  // refused for short stock while some was available
}

// committedUnseen is the txID of an outcome whose change committed though
// its request was not told so (its COMMIT's answer was lost): the ledger
// has one entry under its reference, whatever its id.
const committedUnseen = -1

// someAvailable matches a short-stock refusal that found some stock, not
// none: contention, not an empty shelf.
var someAvailable = regexp.MustCompile(`[1-9][0-9.]* available`)

// mixState is what the workers share: the lots known to exist (for holds,
// releases and moves by recNo), and every outcome.
type mixState struct {
	owners   []int64 // whose stock the mix changes; none: the house's
	mu       sync.Mutex
	lots     mixtest.Lots[mixLot]
	outcomes []outcome
	net      map[mixLot]stockroom.Units // units of the successful transactions
	foreign  []string                   // draws that took another owner's lot
}

func newMixState(owners ...int64) *mixState {
	return &mixState{owners: owners, net: map[mixLot]stockroom.Units{}}
}

// mixLot is where a lot was last seen and whose it is: its item's index,
// its warehouse and its owner; it also keys the net of the successes.
type mixLot struct {
	item  int
	wid   int64
	owner int64
}

// addLot notes that lot recNo is where at says, having got there by a move
// or not.
func (m *mixState) addLot(recNo int64, at mixLot, moved bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lots.Note(recNo, at, moved)
}

// someLot returns a known lot and where it was last seen (mixtest.Lots.Pick).
func (m *mixState) someLot(rng *rand.Rand, release bool) (int64, mixLot, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.lots.Pick(rng, release)
}

// addHeld notes that a hold put lot recNo on hold.
func (m *mixState) addHeld(recNo int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lots.Held(recNo)
}

// pickOwner picks whose stock a step changes: the house's when the mix has
// no owners.
func (m *mixState) pickOwner(rng *rand.Rand) int64 {
	if len(m.owners) == 0 {
		return stockroom.HouseOwner
	}
	return m.owners[rng.IntN(len(m.owners))]
}

func (m *mixState) record(o outcome, item int, owner int64, deltas map[int64]stockroom.Units) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.outcomes = append(m.outcomes, o)
	for wid, d := range deltas {
		k := mixLot{item, wid, owner}
		m.net[k] = m.net[k].Add(d)
	}
}

// moved notes what move w drew, lines: the lots it moved or split off,
// now where to says, and its changes to the warehouses' units in deltas.
func (m *mixState) moved(ref string, w stockroom.Withdrawal, to mixLot, lines []stockroom.Draw, deltas map[int64]stockroom.Units) {
	m.drewMoved(ref, to.owner, lines)
	for _, d := range lines {
		if d.SplitRecNo() != 0 {
			m.addLot(d.SplitRecNo(), to, true)
		} else {
			m.addLot(d.RecNo, to, true)
		}
	}
	deltas[w.WID] = deltas[w.WID].Sub(w.Units)
	deltas[w.ToWID] = deltas[w.ToWID].Add(w.Units)
}

// drewMoved tells whether a draw took a lot that had been moved, and notes
// any lot it took of another owner than owner.
func (m *mixState) drewMoved(ref string, owner int64, draws []stockroom.Draw) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, d := range draws {
		if l, ok := m.lots.At(d.RecNo); ok && l.owner != owner {
			m.foreign = append(m.foreign, fmt.Sprintf("%s for owner %d drew lot %d of owner %d", ref, owner, d.RecNo, l.owner))
		}
	}
	for _, d := range draws {
		if m.lots.Moved(d.RecNo) {
			return true
		}
	}
	return false
}

// testInventoryConcurrency runs the mix, then proves the outcome exact:
// every success is in the ledger once under its own reference, no refusal
// is, the levels are the net of the successes, and the audit finds nothing.
func (h *harness) testInventoryConcurrency(t *testing.T) {
	s := h.openStock(t)
	must(t, s.CreateWarehouse(ctx, stockroom.Warehouse{ID: 3, Name: "W3", Active: true, Created: t0, Modified: t0}))
	c := newItem("C", t0)
	must(t, s.CreateItem(ctx, nil, &c))
	items := []int64{s.a.PartNo, s.b.PartNo, c.PartNo}
	m := newMixState()
	before := s.WriteStats()
	s.runMix(m, items, mixWorkers, 25, 10)
	if t.Failed() {
		return
	}
	s.audit()
	s.checkBatched(before)
	// Issues and moves of different items in one lockstep step change
	// their level rows by one statement (store/levelmerge.go): the audit
	// has held of those too.
	if after := s.WriteStats(); s.Engine() == store.Postgres && after.MergedLevels == before.MergedLevels {
		t.Errorf("write stats %+v then %+v: no level rows merged", before, after)
	}
	for i, part := range items {
		for wid := int64(1); wid <= 3; wid++ {
			if l := s.level(part, wid); l.InStock != m.net[mixLot{i, wid, 0}] {
				t.Errorf("item %d warehouse %d: inStock %s, the successful transactions net %s", part, wid, l.InStock, m.net[mixLot{i, wid, 0}])
			}
		}
	}
	s.checkLedgerByReference(m.outcomes)
	checkMix(t, m.outcomes)
}

// mixStep carries out one random operation and records its outcome. Only
// an unexpected error is returned; short stock and emptied lots are
// refusals, part of the mix.
func (s *stockDB) mixStep(m *mixState, items []int64, rng *rand.Rand, ref string) error {
	op, item, wid := pickOp(rng), rng.IntN(len(items)), int64(1+rng.IntN(3))
	owner := m.pickOwner(rng)
	e := s.entry()
	e.Reference = ref
	o := outcome{ref: ref, op: op}
	deltas := map[int64]stockroom.Units{}
	var err error
	switch op {
	case opReceive:
		units := u(int64(1 + rng.IntN(4)))
		var res stockroom.ReceiveResult
		res, err = s.Receive(ctx, nil, stockroom.Receipt{PartNo: items[item], Owner: owner, ReceiveRequest: stockroom.ReceiveRequest{
			WID: wid, Spot: []string{"A", "B"}[rng.IntN(2)], Units: units}}, e)
		o.txID = res.TransactionID
		if err == nil {
			m.addLot(res.RecNo, mixLot{item, wid, owner}, false)
			deltas[wid] = units
		}
	case opIssue:
		units := u(int64(1 + rng.IntN(6)))
		var res stockroom.DrawResult
		res, err = s.Withdraw(ctx, nil, stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: items[item], WID: wid, Units: units, Owner: owner}, e)
		o.txID = res.TransactionID
		if err == nil {
			o.fromMov = m.drewMoved(ref, owner, res.Lines)
			deltas[wid] = units.Neg()
		}
	case opMoveAcross, opMoveWithin, opMoveByRec:
		w := stockroom.Withdrawal{Type: stockroom.TxMove, PartNo: items[item], WID: wid, Units: u(int64(1 + rng.IntN(5))),
			ToWID: wid, ToSpot: []string{"A", "B", "M"}[rng.IntN(3)], Owner: owner}
		if op == opMoveAcross {
			w.ToWID = 1 + (wid+int64(rng.IntN(2)))%3 // one of the other two
		}
		if op == opMoveByRec {
			// The lot as last seen: it may have moved or emptied since.
			recNo, lot, ok := m.someLot(rng, false)
			if !ok {
				return nil
			}
			item, owner = lot.item, lot.owner
			w.RecNo, w.PartNo, w.WID, w.ToWID, w.Owner = recNo, items[item], lot.wid, 1+rng.Int64N(3), owner
			w.Units, w.ToSpot = u(int64(1+rng.IntN(2))), "R"
		}
		var res stockroom.DrawResult
		res, err = s.Withdraw(ctx, nil, w, e)
		o.txID = res.TransactionID
		if err == nil {
			m.moved(ref, w, mixLot{item, w.ToWID, owner}, res.Lines, deltas)
		}
	case opHold, opRelease:
		recNo, _, ok := m.someLot(rng, op == opRelease)
		if !ok {
			return nil
		}
		var res stockroom.HoldResult
		res, err = s.SetHold(ctx, nil, stockroom.HoldChange{RecNo: recNo, Hold: op == opHold}, e, allowAll)
		if res.TransactionID != nil {
			o.txID = *res.TransactionID
			if op == opHold {
				m.addHeld(recNo)
			}
		}
	}
	switch {
	case err == nil:
		o.ok = true
	case stockroom.ErrorCode(err) == stockroom.ECONFLICT:
		o.txID, o.short = 0, someAvailable.MatchString(stockroom.ErrorMessage(err))
	default:
		return fmt.Errorf("%s %s: %w", op, ref, err)
	}
	m.record(o, item, owner, deltas)
	return nil
}

// checkLedgerByReference checks that each success with a transaction is in
// the ledger exactly once, under its reference and id, and that nothing
// else is: no refusal, no hold that changed nothing.
func (s *stockDB) checkLedgerByReference(outcomes []outcome) {
	t := s.t
	t.Helper()
	byRef := map[string][]int64{}
	var entries int
	for page := int64(1); ; page++ {
		p, err := s.ListTransactions(ctx, stockroom.Scope{All: true}, stockroom.TransactionFilter{}, stockroom.PageRequest{Page: page, PageSize: 250})
		must(t, err)
		for _, tx := range p.Items {
			byRef[tx.Reference] = append(byRef[tx.Reference], tx.ID)
		}
		entries += len(p.Items)
		if !p.HasMore() {
			break
		}
	}
	want := 0
	for _, o := range outcomes {
		got := byRef[o.ref]
		switch {
		case o.txID != 0:
			want++
			if len(got) != 1 || o.txID != committedUnseen && got[0] != o.txID {
				t.Errorf("%s (%s) succeeded as transaction %d; the ledger has %v under its reference", o.ref, o.op, o.txID, got)
			}
		case len(got) != 0:
			t.Errorf("%s (%s, succeeded: %v) recorded no transaction; the ledger has %v under its reference", o.ref, o.op, o.ok, got)
		}
	}
	if entries != want {
		t.Errorf("the ledger has %d entries for %d successful transactions", entries, want)
	}
}

// checkMix fails the test unless the mix did what it is for: each kind of
// operation succeeded, withdrawals were refused for short stock though some
// was there, and moved stock was issued again.
func checkMix(t *testing.T, outcomes []outcome) {
	t.Helper()
	ok, refused, recorded, short := map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}
	fromMoved := 0
	for _, o := range outcomes {
		switch {
		case !o.ok:
			refused[o.op]++
			if o.short {
				short[o.op]++
			}
		case o.txID != 0:
			recorded[o.op]++
			ok[o.op]++
		default:
			ok[o.op]++
		}
		if o.fromMov {
			fromMoved++
		}
	}
	t.Logf("%d operations; succeeded %v, of which changed stock %v; refused %v (with some stock available: %v); %d issues drew moved stock",
		len(outcomes), ok, recorded, refused, short, fromMoved)
	for _, w := range opWeights {
		if recorded[w.op] == 0 {
			t.Errorf("no %s was recorded in the ledger: the mix did not exercise it", w.op)
		}
	}
	for _, op := range []string{opIssue, opMoveAcross} {
		if short[op] == 0 {
			t.Errorf("no %s was refused for short stock while some was available: the workers did not contend", op)
		}
	}
	if fromMoved == 0 {
		t.Error("no issue drew from moved stock")
	}
}

// mixWorkers is how many workers the concurrency tests run: many times
// PostgreSQL's write lanes (txn: batch.go), so that writes queue there too and
// the tests run the batched path on both engines (checkBatched).
const mixWorkers = 32

// runMix runs workers goroutines of each random steps of the mix over the
// items, with random numbers from seed, and waits for them.
func (s *stockDB) runMix(m *mixState, items []int64, workers, each int, seed uint64) {
	var wg sync.WaitGroup
	for g := range workers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), seed))
			for i := range each {
				if err := s.mixStep(m, items, rng, fmt.Sprintf("g%d-%d", g, i)); err != nil {
					s.t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

package storetest

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stockroom/stockroom"
)

// allocWorkers is how many workers testNeverPromisedTwice runs: many times
// PostgreSQL's write lanes (batch.go). Its workers often wait on the same
// rows' locks, so fewer leave too few writes queued to be sure of a batch
// (checkBatched) on PostgreSQL.
const allocWorkers = 48

// testNeverPromisedTwice: allocWorkers workers commit (all or nothing, or in part),
// uncommit, pack and ship lines of shipping orders whose demand is twice
// the stock of the two items they share, between plain issues, moves,
// holds and releases of the same lots; now and then one of four of the
// orders is closed or canceled, which releases what its lines have
// committed and packed. Afterwards every line's committed, packed and
// shipped add up to what its successful commits, uncommits and releases
// did, its shipped to what its ships did; an order ended by a close or
// cancel has nothing committed or packed, and every action begun after an
// answer reported its order ended was refused; every ledger entry of an
// order action is one successful answer's (a refused one wrote nothing);
// the levels' committed and packed are the lines'; no level promises more
// than it holds; and the audit finds nothing.
func (h *harness) testNeverPromisedTwice(t *testing.T) {
	s := h.openStock(t)
	items := []int64{s.a.PartNo, s.b.PartNo}
	var lots []int64
	for _, part := range items {
		for wid := int64(1); wid <= 2; wid++ {
			for i := range 4 {
				lots = append(lots, s.receive(part, wid, fmt.Sprint("S", i%2), u(6)).RecNo)
			}
		}
	}
	orders := make([]string, 16)
	for i := range orders {
		orders[i] = fmt.Sprintf("SO-%d", i+1)
		s.insertShippingOrderForTest(orders[i], soLine(s.a.PartNo, int64(1+i%2), u(int64(4+i%5))),
			soLine(s.b.PartNo, int64(1+i/2%2), u(int64(4+i%3))))
	}
	tally := newAllocTally()
	mix := allocMix{items: items, orders: orders, lots: lots, tally: tally}
	before := s.WriteStats()
	var wg sync.WaitGroup
	for w := range allocWorkers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 14))
			for step := range 10 {
				s.allocStep(rng, step >= 5, mix)
			}
		})
	}
	wg.Wait()
	for _, err := range tally.errs {
		t.Error(err)
	}
	if tally.ok["commit"] == 0 || tally.ok["ship"] == 0 || tally.shortCommits == 0 || len(tally.ends) == 0 || tally.refusedEnded == 0 {
		t.Fatalf("the mix met no contention: %v successes, %d short commits, %d orders ended releasing %s, %d actions refused as ended",
			tally.ok, tally.shortCommits, len(tally.ends), tally.released, tally.refusedEnded)
	}
	s.checkAllocLines(orders, items, tally)
	s.checkAllocLedger(tally)
	for _, part := range items {
		for wid := int64(1); wid <= 2; wid++ {
			if l := s.level(part, wid); l.InStock.Sub(l.OnHold).Less(l.Committed.Add(l.Packed)) {
				t.Errorf("item %d in warehouse %d promises more than it holds: %+v", part, wid, l)
			}
		}
	}
	s.audit()
	s.checkBatched(before)
}

// checkAllocLines holds each order's lines to the tally: committed,
// packed and shipped to the units promised, shipped to the ships; the
// order's state to the one its answers reported (an order no answer ended
// is open), and an ended order's lines to nothing committed or packed;
// and each level's committed and packed of the items to the sums of the
// lines of its item and warehouse.
func (s *stockDB) checkAllocLines(orders []string, items []int64, tally *allocTally) {
	s.t.Helper()
	type grain struct{ part, wid int64 }
	sums := map[grain][2]stockroom.Units{}
	for _, no := range orders {
		o, err := s.FindShippingOrder(ctx, no)
		must(s.t, err)
		if want := tally.ended[no]; o.Status != want && (want != "" || !o.Status.IsOpen()) {
			s.t.Errorf("%s is %s; its answers say %q", no, o.Status, want)
		}
		for _, la := range s.soLines(no) {
			k := fmt.Sprint(no, "/", la.LineNo)
			if got := la.Committed.Add(la.Packed).Add(la.Shipped); got != tally.net[k] || la.Shipped != tally.shipped[k] || la.Units.Less(got) {
				s.t.Errorf("%s: committed/packed/shipped %s of %s units; the answers say %s promised, %s shipped", k, figures(la), la.Units, tally.net[k], tally.shipped[k])
			}
			if !o.Status.IsOpen() && (!la.Committed.IsZero() || !la.Packed.IsZero()) {
				s.t.Errorf("%s: %s still has committed/packed/shipped %s", k, o.Status, figures(la))
			}
			g := sums[grain{la.PartNo, la.WID}]
			sums[grain{la.PartNo, la.WID}] = [2]stockroom.Units{g[0].Add(la.Committed), g[1].Add(la.Packed)}
		}
	}
	for _, part := range items {
		for wid := int64(1); wid <= 2; wid++ {
			if l, g := s.level(part, wid), sums[grain{part, wid}]; l.Committed != g[0] || l.Packed != g[1] {
				s.t.Errorf("item %d in warehouse %d: committed %s, packed %s; its open lines have %s, %s", part, wid, l.Committed, l.Packed, g[0], g[1])
			}
		}
	}
}

// checkAllocLedger holds the ledger's entries of order actions to the
// successful answers: each entry is one answer's, of its kind, and each
// answer's entry is there.
func (s *stockDB) checkAllocLedger(tally *allocTally) {
	s.t.Helper()
	seen := map[int64]bool{}
	for _, typ := range []stockroom.TxType{stockroom.TxCommit, stockroom.TxUncommit, stockroom.TxPack, stockroom.TxShip, stockroom.TxOrderRelease} {
		for _, tx := range s.ledgerOf(typ) {
			if kind, ok := tally.entries[tx.ID]; !ok || allocKinds[kind].typ != typ {
				s.t.Errorf("%s entry %d is no successful answer's (%q)", typ, tx.ID, kind)
			}
			seen[tx.ID] = true
		}
	}
	for id, kind := range tally.entries {
		if !seen[id] {
			s.t.Errorf("the %s answered with entry %d, which the ledger lacks", kind, id)
		}
	}
}

// allocMix is what the steps of the mix work on: the items, the orders
// and the lots, and the tally of what they did.
type allocMix struct {
	items  []int64
	orders []string
	lots   []int64
	tally  *allocTally
}

// allocStep carries out one random step of the mix. In the second half
// (late), one step in 12 closes or cancels one of every fourth order
// (SO-4, SO-8, ...), after packing what its line 1 has committed: the
// others stay open throughout, and those have allocations to release,
// meet the other actions as they end, and refuse them after.
func (s *stockDB) allocStep(rng *rand.Rand, late bool, m allocMix) {
	a := m.tally
	if late && rng.IntN(12) == 0 {
		no, kind, cancel := m.orders[3+4*rng.IntN(len(m.orders)/4)], "close", rng.IntN(2) == 0
		if cancel {
			kind = "cancel"
		}
		// Line 1 packed first, so that the release often gives back packed
		// units as well as committed ones (line 2's).
		a.act("pack", no, func() (stockroom.AllocationResult, error) { return s.pack(no, allocLine(1, nil)) })
		a.act(kind, no, func() (stockroom.AllocationResult, error) { return s.endOrder(no, cancel) })
		return
	}
	no := m.orders[rng.IntN(len(m.orders))]
	line := allocLine(int64(1+rng.IntN(2)), nil)
	if rng.IntN(2) == 0 {
		line.Units = up(int64(1 + rng.IntN(3)))
	}
	part, wid := m.items[rng.IntN(len(m.items))], int64(1+rng.IntN(2))
	switch op := rng.IntN(10); {
	case op < 4:
		req := stockroom.CommitRequest{AllowPartial: rng.IntN(3) == 0}
		if rng.IntN(2) == 0 {
			req.Lines = []stockroom.AllocLine{line}
		}
		a.act("commit", no, func() (stockroom.AllocationResult, error) { return s.commit(no, req) })
	case op == 4:
		a.act("uncommit", no, func() (stockroom.AllocationResult, error) { return s.uncommit(no, line) })
	case op == 5:
		a.act("pack", no, func() (stockroom.AllocationResult, error) { return s.pack(no, line) })
	case op == 6:
		a.act("ship", no, func() (stockroom.AllocationResult, error) {
			return s.shipOrder(no, stockroom.ShipRequest{Lines: []stockroom.AllocLine{line}})
		})
	case op == 7:
		_, err := s.withdraw(stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: part, WID: wid, Units: u(int64(1 + rng.IntN(3)))})
		a.other("issue", err)
	case op == 8:
		_, err := s.withdraw(stockroom.Withdrawal{Type: stockroom.TxMove, PartNo: part, WID: wid, ToWID: int64(1 + rng.IntN(2)),
			ToSpot: fmt.Sprint("M", rng.IntN(3)), Units: u(int64(1 + rng.IntN(3)))})
		a.other("move", err)
	default:
		_, err := s.SetHold(ctx, nil, stockroom.HoldChange{RecNo: m.lots[rng.IntN(len(m.lots))], Hold: rng.IntN(2) == 0}, s.entry(), func(l stockroom.Lot) error {
			if l.Units.IsZero() {
				return stockroom.Errorf(stockroom.ECONFLICT, "Lot %d is empty.", l.RecNo)
			}
			return nil
		})
		a.other("hold", err)
	}
}

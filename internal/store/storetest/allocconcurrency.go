package storetest

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stockroom/stockroom"
)

// testNeverPromisedTwice: 32 workers commit (all or nothing, or in part),
// uncommit, pack and ship lines of shipping orders whose demand is twice
// the stock of the two items they share, between plain issues, moves,
// holds and releases of the same lots. Afterwards every line's committed,
// packed and shipped add up to what its successful commits and uncommits
// did, its shipped to what its ships did; every commit in the ledger is a
// successful commit's (a refused one wrote nothing); no level promises
// more than it holds; and the audit finds nothing.
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
	tally := &allocTally{net: map[string]stockroom.Units{}, shipped: map[string]stockroom.Units{}, commits: map[int64]bool{}, ok: map[string]int{}}
	before := s.WriteStats()
	var wg sync.WaitGroup
	for w := range 32 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 14))
			for range 10 {
				s.allocStep(rng, items, orders, lots, tally)
			}
		})
	}
	wg.Wait()
	for _, err := range tally.errs {
		t.Error(err)
	}
	if tally.ok["commit"] == 0 || tally.ok["ship"] == 0 || tally.shortCommits == 0 {
		t.Fatalf("the mix met no contention: %v successes, %d short commits", tally.ok, tally.shortCommits)
	}
	for _, no := range orders {
		for _, la := range s.soLines(no) {
			k := fmt.Sprint(no, "/", la.LineNo)
			if got := la.Committed.Add(la.Packed).Add(la.Shipped); got != tally.net[k] || la.Shipped != tally.shipped[k] || la.Units.Less(got) {
				t.Errorf("%s: committed/packed/shipped %s of %s units; the answers say %s promised, %s shipped", k, figures(la), la.Units, tally.net[k], tally.shipped[k])
			}
		}
	}
	for _, tx := range s.ledgerOf(stockroom.TxCommit) {
		if !tally.commits[tx.ID] {
			t.Errorf("commit entry %d is no successful commit's", tx.ID)
		}
	}
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

// allocStep carries out one random step of the mix.
func (s *stockDB) allocStep(rng *rand.Rand, items []int64, orders []string, lots []int64, a *allocTally) {
	no := orders[rng.IntN(len(orders))]
	line := allocLine(int64(1+rng.IntN(2)), nil)
	if rng.IntN(2) == 0 {
		line.Units = up(int64(1 + rng.IntN(3)))
	}
	part, wid := items[rng.IntN(len(items))], int64(1+rng.IntN(2))
	switch op := rng.IntN(10); {
	case op < 4:
		req := stockroom.CommitRequest{AllowPartial: rng.IntN(3) == 0}
		if rng.IntN(2) == 0 {
			req.Lines = []stockroom.AllocLine{line}
		}
		res, err := s.commit(no, req)
		a.add("commit", no, res, err)
	case op == 4:
		res, err := s.uncommit(no, line)
		a.add("uncommit", no, res, err)
	case op == 5:
		res, err := s.pack(no, line)
		a.add("pack", no, res, err)
	case op == 6:
		res, err := s.shipOrder(no, stockroom.ShipRequest{Lines: []stockroom.AllocLine{line}})
		a.add("ship", no, res, err)
	case op == 7:
		_, err := s.withdraw(stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: part, WID: wid, Units: u(int64(1 + rng.IntN(3)))})
		a.other("issue", err)
	case op == 8:
		_, err := s.withdraw(stockroom.Withdrawal{Type: stockroom.TxMove, PartNo: part, WID: wid, ToWID: int64(1 + rng.IntN(2)),
			ToSpot: fmt.Sprint("M", rng.IntN(3)), Units: u(int64(1 + rng.IntN(3)))})
		a.other("move", err)
	default:
		_, err := s.SetHold(ctx, nil, lots[rng.IntN(len(lots))], rng.IntN(2) == 0, s.entry(), func(l stockroom.Lot) error {
			if l.Units.IsZero() {
				return stockroom.Errorf(stockroom.ECONFLICT, "Lot %d is empty.", l.RecNo)
			}
			return nil
		})
		a.other("hold", err)
	}
}

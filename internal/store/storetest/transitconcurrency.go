package storetest

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"

	"github.com/stockroom/stockroom"
)

// testTransitConcurrency: many workers receive lines of the same two
// transits at once (a transfer of three lots, and a notice of two order
// lines), in small parts with some rejections, until nothing is due. No
// line takes more than it carries, every unit an answer reported is on its
// line and in the ledger, and the audit finds nothing.
func (h *harness) testTransitConcurrency(t *testing.T) {
	s := h.openStock(t)
	for range 3 {
		s.receive(s.a.PartNo, 1, "A", u(40))
	}
	transfer := *s.transfer(s.a.PartNo, u(120), "").TransitID
	s.placeOrder()
	notice, err := s.ship("ASN-C", stockroom.ShipNoticeLine{Line: 1, Units: u(90)}, stockroom.ShipNoticeLine{Line: 2, Units: u(10)},
		stockroom.ShipNoticeLine{Line: 1, Units: u(10)})
	must(t, err)
	transits := []stockroom.Transit{s.transit(transfer), notice}
	answers := newTransitAnswers()
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for range 60 {
				tr := transits[rng.IntN(len(transits))]
				line := recv(tr.Lines[rng.IntN(len(tr.Lines))].Line, u(int64(1+rng.IntN(4))), u(int64(rng.IntN(3)/2)))
				if rng.IntN(10) == 0 {
					line.Units = nil // what is still due
				}
				res, err := s.ReceiveTransit(ctx, nil, stockroom.TransitAction{ID: tr.ID, Entry: s.entry()}, stockroom.TransitReceiveRequest{Lines: []stockroom.TransitReceiveLine{line}}, allowTransit)
				answers.add(tr.ID, res, err)
			}
		})
	}
	wg.Wait()
	for _, tr := range transits { // what the workers left
		res, err := s.receiveTransit(tr.ID)
		answers.add(tr.ID, res, err)
	}
	for _, err := range answers.errs {
		t.Error(err)
	}
	ledger := transitLedger(t, s)
	for _, tr := range transits {
		tr := s.transit(tr.ID)
		if tr.Status != stockroom.TransitReceived {
			t.Errorf("transit %d is %s after everything was received", tr.ID, tr.Status)
		}
		for _, l := range tr.Lines {
			k := [2]int64{tr.ID, l.Line}
			got := answers.sums[k]
			if l.UnitsReceived.Add(l.UnitsRejected) != l.Units || got.units != l.UnitsReceived || got.rejected != l.UnitsRejected ||
				ledger[k] != got {
				t.Errorf("transit %d line %d of %s: %s received, %s rejected; the answers say %+v, the ledger %+v",
					tr.ID, l.Line, l.Units, l.UnitsReceived, l.UnitsRejected, got, ledger[k])
			}
		}
	}
	s.audit()
}

// taken is what receipts took of a transit line.
type taken struct{ units, rejected stockroom.Units }

// transitAnswers gathers the answers of concurrent receipts: per transit
// and line, the sums of the successful ones; the errors that are not
// refusals for want of units due.
type transitAnswers struct {
	mu   sync.Mutex
	sums map[[2]int64]taken
	errs []error
}

func newTransitAnswers() *transitAnswers { return &transitAnswers{sums: map[[2]int64]taken{}} }

func (a *transitAnswers) add(id int64, res stockroom.TransitReceiveResult, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err != nil {
		if stockroom.ErrorCode(err) != stockroom.ECONFLICT {
			a.errs = append(a.errs, err)
		}
		return
	}
	for _, l := range res.Lines {
		k := [2]int64{id, l.Line}
		a.sums[k] = taken{a.sums[k].units.Add(l.Units), a.sums[k].rejected.Add(l.Rejected)}
	}
}

// transitLedger sums the ledger's transit-receive and transit-reject
// entries per transit and line.
func transitLedger(t *testing.T, s *stockDB) map[[2]int64]taken {
	t.Helper()
	out := map[[2]int64]taken{}
	for _, typ := range []stockroom.TxType{stockroom.TxTransitReceive, stockroom.TxTransitReject} {
		for page := int64(1); ; page++ {
			p, err := s.ListTransactions(ctx, stockroom.Scope{All: true}, stockroom.TransactionFilter{Type: typ}, stockroom.PageRequest{Page: page, PageSize: 250})
			must(t, err)
			for _, e := range p.Items {
				k := [2]int64{detailInt(t, e, "transitID"), detailInt(t, e, "transitLine")}
				got := out[k]
				if typ == stockroom.TxTransitReceive {
					got.units = got.units.Add(e.Units)
				} else {
					got.rejected = got.rejected.Add(e.Units)
				}
				out[k] = got
			}
			if int64(len(p.Items)) < p.PageSize {
				break
			}
		}
	}
	return out
}

// detailInt reads an integer of a ledger entry's details.
func detailInt(t *testing.T, e stockroom.Transaction, key string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(fmt.Sprint(e.Details[key]), 10, 64)
	if err != nil {
		t.Fatalf("transaction %d: details[%s] = %v", e.ID, key, e.Details[key])
	}
	return n
}

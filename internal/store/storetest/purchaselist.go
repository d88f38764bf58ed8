package storetest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// placeListOrders places the orders testPurchaseLists lists: L-1 (closed),
// L-2 and L-3, a day apart, L-3 with a line of customer c's, which it
// returns.
func placeListOrders(t *testing.T, s *purchaseDB) stockroom.Party {
	c := newParty(stockroom.Customer, "ACME", t0)
	must(t, s.CreateParty(ctx, nil, &c))
	place := func(no string, at time.Time, lines ...stockroom.PurchaseLine) {
		o := stockroom.PurchaseOrder{PONo: no, VendorID: s.vendor.ID, OrderHead: stockroom.OrderHead{OrderDate: at}, Lines: lines}
		_, err := s.CreatePurchaseOrder(ctx, nil, o, s.entry())
		must(t, err)
	}
	owned := line(s.a.PartNo, 2, u(4), u(5))
	owned.Owner = c.ID
	place("L-3", t0.Add(2*listDay), owned, line(s.b.PartNo, 1, u(1), u(1)))
	place("L-1", t0, line(s.a.PartNo, 1, u(1), u(1)))
	place("L-2", t0.Add(listDay), line(s.b.PartNo, 2, u(2), u(3)))
	_, err := s.change("L-1", func(o *stockroom.PurchaseOrder) (bool, error) { return true, o.End(false) })
	must(t, err)
	return c
}

// listDay is the time between the orders placeListOrders places.
const listDay = 24 * time.Hour

func (h *harness) testPurchaseLists(t *testing.T) {
	s := h.openPurchase(t)
	c := placeListOrders(t, s)
	day := listDay
	all := stockroom.Scope{All: true}
	list := func(scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest) ([]string, stockroom.Page[stockroom.PurchaseOrder]) {
		t.Helper()
		if req.Page == 0 {
			req.Page, req.PageSize = 1, 50
		}
		p, err := s.ListPurchaseOrders(ctx, scope, f, req)
		must(t, err)
		var nos []string
		for _, o := range p.Items {
			nos = append(nos, o.PONo)
			if o.Lines != nil {
				t.Errorf("list entry %s has lines", o.PONo)
			}
		}
		return nos, p
	}
	start, end := t0.Add(day), t0.Add(day)
	for _, tc := range []struct {
		name  string
		scope stockroom.Scope
		f     stockroom.OrderFilter
		req   stockroom.PageRequest
		want  []string
	}{
		{"All", all, stockroom.OrderFilter{}, stockroom.PageRequest{}, []string{"L-1", "L-2", "L-3"}},
		{"Open", all, stockroom.OrderFilter{OpenOnly: true}, stockroom.PageRequest{}, []string{"L-2", "L-3"}},
		{"Status", all, stockroom.OrderFilter{Status: stockroom.OrderClosed}, stockroom.PageRequest{}, []string{"L-1"}},
		{"Scope", stockroom.Scope{IDs: []int64{1}}, stockroom.OrderFilter{}, stockroom.PageRequest{}, []string{"L-1", "L-3"}},
		{"Item", all, stockroom.OrderFilter{ItemShortID: "b"}, stockroom.PageRequest{}, []string{"L-2", "L-3"}},
		{"ItemInScope", stockroom.Scope{IDs: []int64{2}}, stockroom.OrderFilter{ItemShortID: "B"}, stockroom.PageRequest{}, []string{"L-2"}},
		{"Warehouse", all, stockroom.OrderFilter{WID: 2}, stockroom.PageRequest{}, []string{"L-2", "L-3"}},
		{"Owner", all, stockroom.OrderFilter{Owners: &stockroom.Scope{IDs: []int64{c.ID}}}, stockroom.PageRequest{}, []string{"L-3"}},
		{"Dates", all, stockroom.OrderFilter{StartDate: &start, EndDate: &end}, stockroom.PageRequest{}, []string{"L-2"}},
		{"SortDesc", all, stockroom.OrderFilter{}, stockroom.PageRequest{Page: 1, PageSize: 50, Sort: "PONO", Direction: "DESC"}, []string{"L-3", "L-2", "L-1"}},
		{"Modified", all, stockroom.OrderFilter{}, stockroom.PageRequest{Page: 1, PageSize: 50, Sort: "modified"}, []string{"L-3", "L-2", "L-1"}},
	} {
		if got, p := list(tc.scope, tc.f, tc.req); !slices.Equal(got, tc.want) || p.Total != int64(len(tc.want)) {
			t.Errorf("%s: %v (total %d), want %v", tc.name, got, p.Total, tc.want)
		}
	}
	// Totals count the lines the list covers only.
	_, p := list(stockroom.Scope{IDs: []int64{2}}, stockroom.OrderFilter{}, stockroom.PageRequest{})
	if p.Items[1].PONo != "L-3" || p.Items[1].TotalLines != 1 || p.Items[1].TotalValue != u(20) || p.Items[1].Vendor != "Name BOLTCO" {
		t.Fatalf("L-3 in warehouse 2: %+v", p.Items[1])
	}
	_, p = list(all, stockroom.OrderFilter{Owners: &stockroom.Scope{IDs: []int64{0}}}, stockroom.PageRequest{})
	if len(p.Items) != 3 || p.Items[2].TotalLines != 1 || p.Items[2].TotalValue != u(1) {
		t.Fatalf("the house's lines: %+v", p.Items)
	}
	// Pages, by either path.
	for _, direct := range []int64{store.DefaultDirectOffset, 0} {
		s.SetDirectOffset(direct)
		var got []string
		for pg := int64(1); pg <= 3; pg++ {
			nos, p := list(all, stockroom.OrderFilter{}, stockroom.PageRequest{Page: pg, PageSize: 2})
			if p.Total != 3 || p.HasMore() != (pg == 1) {
				t.Errorf("page %d: total %d more %v", pg, p.Total, p.HasMore())
			}
			got = append(got, nos...)
		}
		if !slices.Equal(got, []string{"L-1", "L-2", "L-3"}) {
			t.Errorf("pages of 2 (direct offset %d): %v", direct, got)
		}
	}
}

// testPurchaseConcurrency has many workers receive against the same few
// lines of one order, beside plain receipts and issues of the same items,
// until the order completes and refuses the rest. Each line must have
// received exactly what its successful receipts brought, onOrder must be
// what is still due, the ledger must agree, and the audit find nothing.
func (h *harness) testPurchaseConcurrency(t *testing.T) {
	s := h.openPurchase(t)
	workers, each := 16, 30
	if testdb.Race {
		each = 12
	}
	// 12 workers receive 2 units on average per step over 3 lines: about
	// 8*each a line, so the order completes about two thirds through.
	due := u(int64(5 * each))
	o := s.mustPlace("CC-1", line(s.a.PartNo, 1, due, u(1)), line(s.b.PartNo, 1, due, u(2)), line(s.a.PartNo, 2, due, u(3)))
	var (
		mu       sync.Mutex
		received = map[int64]stockroom.Units{} // line -> units of successful receipts
		refused  int
		wg       sync.WaitGroup
	)
	for g := range workers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 13))
			for i := range each {
				n, units := int64(1+rng.IntN(3)), u(int64(1+rng.IntN(3)))
				if g%4 == 3 { // plain stock traffic on the same levels
					s.plainStep(rng, o, fmt.Sprintf("p%d-%d", g, i))
					continue
				}
				_, err := s.receiveOn(o, n, units)
				mu.Lock()
				switch {
				case err == nil:
					received[n] = received[n].Add(units)
				case errors.Is(err, stockroom.ErrOrderEnded):
					refused++
				default:
					t.Errorf("receipt on line %d: %v", n, err)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	t.Logf("received %v; %d receipts refused after the order completed", received, refused)
	s.checkConcurrentOrder(received)
	s.audit()
}

// plainStep receives or issues a unit of a line's item without an order.
func (s *purchaseDB) plainStep(rng *rand.Rand, o stockroom.PurchaseOrder, ref string) {
	l := o.Lines[rng.IntN(len(o.Lines))]
	e := s.entry()
	e.Reference = ref
	if rng.IntN(2) == 0 {
		_, err := s.Receive(ctx, nil, stockroom.Receipt{PartNo: l.PartNo, ReceiveRequest: stockroom.ReceiveRequest{WID: l.Warehouse, Units: u(1)}}, e)
		must(s.t, err)
		return
	}
	_, err := s.Withdraw(ctx, nil, stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: l.PartNo, WID: l.Warehouse, Units: u(1)}, e)
	if err != nil && stockroom.ErrorCode(err) != stockroom.ECONFLICT {
		s.t.Error(err)
	}
}

// checkConcurrentOrder compares order CC-1 with what its receipts brought.
func (s *purchaseDB) checkConcurrentOrder(received map[int64]stockroom.Units) {
	t := s.t
	got, err := s.FindPurchaseOrder(ctx, "CC-1")
	must(t, err)
	inLedger := map[int64]stockroom.Units{}
	for page := int64(1); ; page++ {
		p, err := s.ListTransactions(ctx, stockroom.Scope{All: true}, stockroom.TransactionFilter{Type: stockroom.TxReceive}, stockroom.PageRequest{Page: page, PageSize: 250})
		must(t, err)
		for _, tx := range p.Items {
			if tx.Details["poNo"] == "CC-1" {
				n, _ := tx.Details["line"].(interface{ Int64() (int64, error) }).Int64()
				inLedger[n] = inLedger[n].Add(tx.Units)
			}
		}
		if !p.HasMore() {
			break
		}
	}
	due := map[[2]int64]stockroom.Units{}
	complete := true
	for _, l := range got.Lines {
		if l.UnitsReceived != received[l.LineNo] || inLedger[l.LineNo] != received[l.LineNo] {
			t.Errorf("line %d received %s; its successful receipts brought %s, the ledger has %s", l.LineNo, l.UnitsReceived, received[l.LineNo], inLedger[l.LineNo])
		}
		complete = complete && l.Delivered()
		k := [2]int64{l.PartNo, l.Warehouse}
		due[k] = due[k].Add(l.Due(got.Status))
	}
	if complete != (got.Status == stockroom.OrderClosed) {
		t.Errorf("status %s with every line delivered: %v", got.Status, complete)
	}
	for k, d := range due {
		if lv := s.level(k[0], k[1]); lv.OnOrder != d {
			t.Errorf("item %d in warehouse %d: onOrder %s, the order has %s due", k[0], k[1], lv.OnOrder, d)
		}
	}
}

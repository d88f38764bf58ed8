package storetest

import (
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// u is n whole units.
func u(n int64) stockroom.Units { return stockroom.Whole(n) }

// newRec is a move's new recNo for a draw, 0 when none.
func newRec(d stockroom.Draw) int64 { return d.SplitRecNo() }

// stockDB is a database with two warehouses and two items.
type stockDB struct {
	*store.DB
	t      *testing.T
	a, b   stockroom.Item
	clock  time.Time
	ticker atomic.Int64
	// batches counts the batches runBatchOf made.
	batches atomic.Int64
}

func (h *harness) openStock(t *testing.T) *stockDB { return stockOn(t, h.open(t)) }

// stockOn makes db, fresh and migrated, the stock fixture: warehouses 1
// and 2, items A and B.
func stockOn(t *testing.T, db *store.DB) *stockDB {
	for _, w := range []int64{1, 2} {
		must(t, db.CreateWarehouse(ctx, stockroom.Warehouse{ID: w, Name: fmt.Sprint("W", w), Active: true, Created: t0, Modified: t0}))
	}
	s := &stockDB{DB: db, t: t, a: newItem("A", t0), b: newItem("B", t0), clock: t0}
	must(t, db.CreateItem(ctx, nil, &s.a))
	must(t, db.CreateItem(ctx, nil, &s.b))
	return s
}

// entry is a ledger entry one second after the previous one.
func (s *stockDB) entry() stockroom.LedgerEntry {
	n := s.ticker.Add(1)
	return stockroom.LedgerEntry{ClientID: "tester", Time: s.clock.Add(time.Duration(n) * time.Second), Reference: "ref"}
}

func (s *stockDB) receive(part, wid int64, spot string, units stockroom.Units) stockroom.Lot {
	s.t.Helper()
	res, err := s.Receive(ctx, nil, stockroom.Receipt{PartNo: part, ReceiveRequest: stockroom.ReceiveRequest{WID: wid, Spot: spot, Units: units}}, s.entry())
	must(s.t, err)
	return res.Lot
}

func (s *stockDB) withdraw(w stockroom.Withdrawal) ([]stockroom.Draw, error) {
	res, err := s.Withdraw(ctx, nil, w, s.entry())
	return res.Lines, err
}

// audit fails the test on any broken invariant.
func (s *stockDB) audit() {
	s.t.Helper()
	found, err := s.Audit(ctx)
	must(s.t, err)
	for _, d := range found {
		s.t.Error("audit:", d.What)
	}
	if len(found) > 0 {
		s.t.FailNow()
	}
}

func (s *stockDB) level(part, wid int64) stockroom.StockLevel {
	s.t.Helper()
	p, err := s.ListStockLevels(ctx, stockroom.Scope{All: true}, stockroom.StockFilter{WID: wid, IncludeZero: true}, stockroom.PageRequest{Page: 1, PageSize: 250})
	must(s.t, err)
	for _, l := range p.Items {
		if l.PartNo == part {
			return l
		}
	}
	return stockroom.StockLevel{}
}

func (s *stockDB) lot(recNo int64) stockroom.Lot {
	s.t.Helper()
	l, err := s.FindLot(ctx, recNo)
	must(s.t, err)
	return l
}

func (h *harness) testInventory(t *testing.T) {
	t.Run("ReceiveCreatesALotAndLevels", h.testInventoryReceiveCreatesALotAndLevels)
	t.Run("IssueDrawsFIFOAndEmptiesLots", h.testInventoryIssueDrawsFIFOAndEmptiesLots)
	t.Run("DrawsAcrossManyLots", h.testInventoryDrawsAcrossManyLots)
	t.Run("BulkReceiptsOverManyItems", h.testInventoryBulkReceiptsOverManyItems)
	t.Run("DrawsFromMoreLotsThanOneBatchHolds", h.testInventoryDrawsFromMoreLotsThanOneBatchHolds)
	t.Run("ShortStockChangesNothing", h.testInventoryShortStockChangesNothing)
	t.Run("MoveWholeLotInPlaceAndSplit", h.testInventoryMoveWholeLotInPlaceAndSplit)
	t.Run("HoldsExcludeLotsAndFollowLevels", h.testInventoryHoldsExcludeLotsAndFollowLevels)
	t.Run("HeldLotsMoveOnlyWhenNamed", h.testHeldLotsMoveOnlyWhenNamed)
	t.Run("Filters", h.testInventoryFilters)
	t.Run("ListsAndCounts", h.testInventoryLists)
	t.Run("ModifiedSince", h.testInventoryModifiedSince)
	t.Run("LedgerIsAppendOnly", h.testInventoryLedgerIsAppendOnly)
	t.Run("AuditFindsEachKindOfDamage", h.testAuditDamage)
	t.Run("AuditFindsLevelSumDamage", h.testLevelSumAudit)
	t.Run("AuditFindsMissingReferences", h.testReferenceAudit)
	t.Run("ConcurrentTransactionsKeepInvariants", h.testInventoryConcurrency)
	t.Run("ConcurrentTransactionsOfOwnersKeepInvariants", h.testOwnerConcurrency)
	t.Run("RoundTrips", h.testRoundTrips)
}

func (h *harness) testInventoryLists(t *testing.T) {
	s := h.openStock(t)
	var recs []int64
	for i := range 12 {
		wid := int64(1 + i%2)
		recs = append(recs, s.receive([]int64{s.a.PartNo, s.b.PartNo}[i%3%2], wid, fmt.Sprint("S", i%3), u(int64(i+1))).RecNo)
	}
	_, err := s.withdraw(stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: s.a.PartNo, WID: 1, Units: u(1)}) // empties lot 0
	must(t, err)
	all := stockroom.Scope{All: true}
	page := s.listLots
	p := page(all, stockroom.LotFilter{}, stockroom.PageRequest{Page: 1, PageSize: 5})
	if p.Total != 11 || p.Items[0].RecNo != recs[11] || p.Items[4].RecNo != recs[7] {
		t.Fatalf("newest first: total %d first %d", p.Total, p.Items[0].RecNo)
	}
	if p := page(all, stockroom.LotFilter{IncludeShipped: true}, stockroom.PageRequest{Page: 3, PageSize: 5}); p.Total != 12 || p.Items[len(p.Items)-1].RecNo != recs[0] {
		t.Fatalf("includeShipped: total %d", p.Total)
	}
	if p := page(stockroom.Scope{IDs: []int64{2}}, stockroom.LotFilter{}, stockroom.PageRequest{Page: 1, PageSize: 250}); p.Total != 6 || len(p.Items) != 6 {
		t.Fatalf("scope 2: %d/%d", p.Total, len(p.Items))
	}
	if p := page(all, stockroom.LotFilter{WID: 1}, stockroom.PageRequest{Page: 1, PageSize: 250}); p.Total != 5 {
		t.Fatalf("wid 1: %d", p.Total)
	}
	held := true
	if p := page(all, stockroom.LotFilter{Hold: &held}, stockroom.PageRequest{Page: 1, PageSize: 250}); p.Total != 0 {
		t.Fatalf("held: %d", p.Total)
	}
	if p := page(all, stockroom.LotFilter{ItemShortID: "b"}, stockroom.PageRequest{Page: 1, PageSize: 250}); p.Total != 4 {
		t.Fatalf("item b: %d", p.Total)
	}
	spot := "S2"
	if p := page(all, stockroom.LotFilter{Spot: &spot}, stockroom.PageRequest{Page: 1, PageSize: 250}); p.Total != 4 {
		t.Fatalf("spot S2: %d", p.Total)
	}
	// The deep-page path agrees with the one-statement path.
	s.SetDirectOffset(0)
	for pg := int64(1); pg <= 4; pg++ {
		q := stockroom.PageRequest{Page: pg, PageSize: 3}
		p0 := page(all, stockroom.LotFilter{}, q)
		s.SetDirectOffset(store.DefaultDirectOffset)
		p1 := page(all, stockroom.LotFilter{}, q)
		s.SetDirectOffset(0)
		if p0.Total != p1.Total || !slices.EqualFunc(p0.Items, p1.Items, func(a, b stockroom.Lot) bool { return a.RecNo == b.RecNo }) {
			t.Fatalf("page %d differs between paths", pg)
		}
	}
	s.checkListedLevels()
}

// listLots lists lots, failing the test on an error.
func (s *stockDB) listLots(scope stockroom.Scope, f stockroom.LotFilter, req stockroom.PageRequest) stockroom.Page[stockroom.Lot] {
	s.t.Helper()
	p, err := s.ListLots(ctx, scope, f, req)
	must(s.t, err)
	return p
}

// checkListedLevels checks the levels and ledger testInventoryLists made,
// then adds an item C and checks that it is listed with no stock.
func (s *stockDB) checkListedLevels() {
	t, all, page := s.t, stockroom.Scope{All: true}, s.listLots
	levels, err := s.ListStockLevels(ctx, all, stockroom.StockFilter{}, stockroom.PageRequest{Page: 1, PageSize: 250})
	must(t, err)
	// item A: lots 0,2,3,5,6,8,9,11 (i%3%2==0) = 1+3+4+6+7+9+10+12 = 52, less 1 issued.
	if levels.Total != 2 || levels.Items[0].PartNo != s.a.PartNo || levels.Items[0].InStock != u(51) || levels.Items[1].InStock != u(2+5+8+11) {
		t.Fatalf("levels %+v", levels.Items)
	}
	scoped, err := s.ListStockLevels(ctx, stockroom.Scope{IDs: []int64{2}}, stockroom.StockFilter{}, stockroom.PageRequest{Page: 1, PageSize: 250})
	must(t, err)
	var sum stockroom.Units
	for _, l := range scoped.Items {
		sum = sum.Add(l.InStock)
	}
	lots2 := page(stockroom.Scope{IDs: []int64{2}}, stockroom.LotFilter{}, stockroom.PageRequest{Page: 1, PageSize: 250})
	var lotSum stockroom.Units
	for _, l := range lots2.Items {
		lotSum = lotSum.Add(l.Units)
	}
	if sum != lotSum || sum.IsZero() {
		t.Fatalf("scoped levels sum %s, lots in warehouse 2 sum %s", sum, lotSum)
	}
	c := newItem("C", t0)
	must(t, s.CreateItem(ctx, nil, &c))
	withZero, err := s.ListStockLevels(ctx, all, stockroom.StockFilter{IncludeZero: true}, stockroom.PageRequest{Page: 1, PageSize: 250})
	must(t, err)
	if withZero.Total != 3 || withZero.Items[2].ShortID != "C" || !withZero.Items[2].InStock.IsZero() {
		t.Fatalf("includeZero: %+v", withZero.Items)
	}
	txs, err := s.ListTransactions(ctx, stockroom.Scope{IDs: []int64{2}}, stockroom.TransactionFilter{Type: stockroom.TxReceive}, stockroom.PageRequest{Page: 1, PageSize: 250})
	must(t, err)
	if txs.Total != 6 || len(txs.Items[0].Lines) != 1 || txs.Items[0].ID < txs.Items[1].ID {
		t.Fatalf("ledger in scope 2: %+v", txs)
	}
	_, err = s.FindTransaction(ctx, stockroom.Scope{IDs: []int64{2}}, nil, txs.Items[0].ID-1) // a receipt into warehouse 1
	wantCode(t, err, stockroom.ENOTFOUND)
	s.audit()
}

// skipSizeUnderRace skips a test of a size limit on SQLite under the race
// detector, where pure-Go SQLite runs many times slower: the limits are
// PostgreSQL's, proven there with the race detector, and the same code is
// proven on SQLite without it.
func skipSizeUnderRace(t *testing.T, s *stockDB) {
	if testdb.Race && s.Engine() == store.SQLite {
		t.Skip("a size limit of PostgreSQL's; on SQLite it runs without the race detector")
	}
}

package storetest

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store"
)

func newItem(shortID string, at time.Time) stockroom.Item {
	return stockroom.Item{ShortID: shortID, Description: "desc " + shortID, UOM: "EA", Created: at, Modified: at, CreatedBy: "tester"}
}

func (h *harness) testItems(t *testing.T) {
	t.Run("CreateAndFind", h.testItemCreateAndFind)
	t.Run("ShortIDUniqueInAnyCase", h.testItemShortIDUniqueInAnyCase)
	t.Run("ConcurrentCreatesGetDistinctPartNos", h.testItemConcurrentCreatesGetDistinctPartNos)
	t.Run("UpdateKeepsCountsAndIdentity", h.testItemUpdateKeepsCountsAndIdentity)
	t.Run("CategoryListsActiveInShortIDOrder", h.testItemCategoryListsActiveInShortIDOrder)
	t.Run("BulkCreate", h.testItemBulkCreate)
	t.Run("PagingMatchesTheFullOrder", h.testItemPagingMatchesTheFullOrder)
	t.Run("ModifiedSince", h.testItemModifiedSince)
	t.Run("Aliases", h.testAliases)
}

// testItemPaging checks every page of several orders against the whole
// list read at once, so the back-half reversal and the tie-breakers are
// exact.
func (h *harness) testItemPaging(t *testing.T, direct int64) {
	db := h.open(t)
	db.SetDirectOffset(direct)
	for i := range 37 {
		it := newItem(fmt.Sprintf("P%02d", (i*17)%37), t0.Add(time.Duration(i%5)*time.Second))
		it.Units = stockroom.Whole(int64(i % 4))
		it.Description = []string{"bolt", "Nut", "washer"}[i%3]
		it.Discontinued = i%6 == 0
		must(t, db.CreateItem(ctx, nil, &it))
	}
	for _, all := range []bool{false, true} {
		for _, tc := range []struct{ sort, dir string }{{"", ""}, {"shortID", "DESC"}, {"description", ""}, {"units", "DESC"}, {"modified", "ASC"}, {"active", "DESC"}} {
			req := stockroom.PageRequest{Page: 1, PageSize: 250, Sort: tc.sort, Direction: tc.dir}
			whole, err := db.ListItems(ctx, !all, nil, req)
			must(t, err)
			for _, size := range []int64{1, 4, 5, 36} {
				var got []int64
				for page := int64(1); page <= whole.Total/size+2; page++ {
					req.Page, req.PageSize = page, size
					p, err := db.ListItems(ctx, !all, nil, req)
					must(t, err)
					if p.Total != whole.Total {
						t.Fatalf("total %d on page %d, %d on the whole", p.Total, page, whole.Total)
					}
					for _, it := range p.Items {
						got = append(got, it.PartNo)
					}
				}
				var want []int64
				for _, it := range whole.Items {
					want = append(want, it.PartNo)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("all=%v sort %q %q size %d:\n got %v\nwant %v", all, tc.sort, tc.dir, size, got, want)
				}
			}
			if tc.sort == "" && !sort.SliceIsSorted(whole.Items, func(i, j int) bool {
				return strings.ToLower(whole.Items[i].ShortID) < strings.ToLower(whole.Items[j].ShortID)
			}) {
				t.Fatalf("default order is not by ShortID: %v", whole.Items)
			}
		}
	}
}

func (h *harness) testAliases(t *testing.T) {
	db := h.open(t)
	a, b := newItem("Alpha", t0), newItem("Beta", t0)
	must(t, db.CreateItem(ctx, nil, &a))
	must(t, db.CreateItem(ctx, nil, &b))
	mk := func(alias, item string) error {
		al := stockroom.Alias{Alias: alias, ShortID: item, Created: t0, Modified: t0}
		return db.CreateAlias(ctx, nil, &al, byTester, anyItem)
	}
	must(t, mk("OLD-ALPHA", "alpha"))
	must(t, mk("a2", "ALPHA"))
	must(t, mk("b-old", "Beta"))
	wantCode(t, mk("old-alpha", "beta"), stockroom.ECONFLICT)
	wantCode(t, mk("ghost", "gamma"), stockroom.ENOTFOUND)

	got, err := db.FindItemByAlias(ctx, "Old-Alpha")
	must(t, err)
	if got.PartNo != a.PartNo {
		t.Fatalf("alias found %+v", got)
	}
	_, err = db.FindItemByAlias(ctx, "nothing")
	wantCode(t, err, stockroom.ENOTFOUND)

	p, err := db.ListAliases(ctx, "alpha", nil, stockroom.PageRequest{Page: 1, PageSize: 25})
	must(t, err)
	if p.Total != 2 || p.Items[0].Alias != "a2" || p.Items[1].Alias != "OLD-ALPHA" || p.Items[1].ShortID != "Alpha" || p.Items[1].PartNo != a.PartNo {
		t.Fatalf("aliases of alpha: %+v", p)
	}
	del, err := db.DeleteAlias(ctx, "old-alpha", byTester, anyItem)
	must(t, err)
	if del.Alias != "OLD-ALPHA" {
		t.Fatalf("deleted %+v", del)
	}
	_, err = db.DeleteAlias(ctx, "old-alpha", byTester, anyItem)
	wantCode(t, err, stockroom.ENOTFOUND)
	p, err = db.ListAliases(ctx, "", nil, stockroom.PageRequest{Page: 1, PageSize: 25})
	must(t, err)
	if p.Total != 2 {
		t.Fatalf("after delete: %+v", p)
	}
	later := stockroom.Alias{Alias: "late", ShortID: "beta", Created: t0.Add(time.Hour), Modified: t0.Add(time.Hour)}
	must(t, db.CreateAlias(ctx, nil, &later, byTester, anyItem))
	p, err = db.ListAliases(ctx, "", nil, stockroom.PageRequest{Page: 1, PageSize: 25, ModifiedSince: t0.Add(time.Minute)})
	must(t, err)
	if p.Total != 1 || p.Items[0].Alias != "late" {
		t.Fatalf("aliases modified since: %+v", p)
	}
}

func (h *harness) testItemCreateAndFind(t *testing.T) {
	db := h.open(t)
	it := newItem("Bolt-M8", t0)
	it.Units, it.Category, it.DfltOwner = stockroom.MustParseUnits("12.5"), 4, 9
	must(t, db.CreateItem(ctx, nil, &it))
	if it.PartNo < 1 {
		t.Fatalf("partNo %d", it.PartNo)
	}
	for _, key := range []string{"Bolt-M8", "bolt-m8", "BOLT-M8", " bolt-m8 "} {
		got, err := db.FindItemByShortID(ctx, key)
		must(t, err)
		if got != it {
			t.Fatalf("by %q: %+v, want %+v", key, got, it)
		}
	}
	got, err := db.FindItem(ctx, it.PartNo)
	must(t, err)
	if got != it {
		t.Fatalf("by partNo: %+v", got)
	}
	_, err = db.FindItem(ctx, it.PartNo+1)
	wantCode(t, err, stockroom.ENOTFOUND)
	_, err = db.FindItemByShortID(ctx, "nut")
	wantCode(t, err, stockroom.ENOTFOUND)
}

func (h *harness) testItemShortIDUniqueInAnyCase(t *testing.T) {
	db := h.open(t)
	a := newItem("straße", t0)
	must(t, db.CreateItem(ctx, nil, &a))
	for _, dup := range []string{"straße", "STRASSE", "Straße"} {
		d := newItem(dup, t0)
		wantCode(t, db.CreateItem(ctx, nil, &d), stockroom.ECONFLICT)
	}
	// A failed insert does not make a partNo reusable: the next is higher.
	b := newItem("next", t0)
	must(t, db.CreateItem(ctx, nil, &b))
	if b.PartNo <= a.PartNo {
		t.Fatalf("partNo %d after %d", b.PartNo, a.PartNo)
	}
}

func (h *harness) testItemConcurrentCreatesGetDistinctPartNos(t *testing.T) {
	db := h.open(t)
	var (
		wg  sync.WaitGroup
		mu  sync.Mutex
		nos = map[int64]bool{}
	)
	for g := range 8 {
		wg.Go(func() {
			for i := range 25 {
				it := newItem(fmt.Sprintf("C-%d-%d", g, i), t0)
				if err := db.CreateItem(ctx, nil, &it); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				nos[it.PartNo] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	p, err := db.ListItems(ctx, true, nil, stockroom.PageRequest{Page: 1, PageSize: 1})
	must(t, err)
	if len(nos) != 200 || p.Total != 200 {
		t.Fatalf("%d distinct partNos and total %d, want 200", len(nos), p.Total)
	}
}

func (h *harness) testItemUpdateKeepsCountsAndIdentity(t *testing.T) {
	db := h.open(t)
	var items []stockroom.Item
	for i := range 5 {
		it := newItem(fmt.Sprintf("U%d", i), t0)
		must(t, db.CreateItem(ctx, nil, &it))
		items = append(items, it)
	}
	totals := func() (active, all int64) {
		a, err := db.ListItems(ctx, true, nil, stockroom.PageRequest{Page: 1, PageSize: 250})
		must(t, err)
		b, err := db.ListItems(ctx, false, nil, stockroom.PageRequest{Page: 1, PageSize: 250})
		must(t, err)
		if int64(len(a.Items)) != a.Total || int64(len(b.Items)) != b.Total {
			t.Fatalf("kept totals %d/%d disagree with rows %d/%d", a.Total, b.Total, len(a.Items), len(b.Items))
		}
		return a.Total, b.Total
	}
	discontinue := func(shortID string, v bool) stockroom.Item {
		got, err := db.UpdateItem(ctx, shortID, byTester, func(it *stockroom.Item) (bool, error) {
			changed := it.Discontinued != v
			it.Discontinued, it.Modified = v, t0.Add(time.Hour)
			return changed, nil
		})
		must(t, err)
		return got
	}
	discontinue("u1", true)
	discontinue("U1", true) // again: no change
	discontinue("u3", true)
	if a, all := totals(); a != 3 || all != 5 {
		t.Fatalf("after two discontinued: active %d all %d", a, all)
	}
	got := discontinue("u1", false)
	if a, _ := totals(); a != 4 {
		t.Fatalf("after reactivation: active %d", a)
	}
	if got.PartNo != items[1].PartNo || got.ShortID != "U1" || !got.Created.Equal(t0) || got.CreatedBy != "tester" {
		t.Fatalf("update changed identity: %+v", got)
	}
	_, err := db.UpdateItem(ctx, "nope", byTester, func(*stockroom.Item) (bool, error) { return true, nil })
	wantCode(t, err, stockroom.ENOTFOUND)
}

func (h *harness) testItemCategoryListsActiveInShortIDOrder(t *testing.T) {
	db := h.open(t)
	for _, id := range []string{"b", "C", "a", "d"} {
		it := newItem(id, t0)
		it.Category = 7
		it.Discontinued = id == "d"
		must(t, db.CreateItem(ctx, nil, &it))
	}
	other := newItem("x", t0)
	must(t, db.CreateItem(ctx, nil, &other))
	got, err := db.ListItemsInCategory(ctx, 7, nil)
	must(t, err)
	var ids []string
	for _, it := range got {
		ids = append(ids, it.ShortID)
	}
	if !slices.Equal(ids, []string{"a", "b", "C"}) {
		t.Fatalf("category 7: %v", ids)
	}
	got, err = db.ListItemsInCategory(ctx, 8, nil)
	must(t, err)
	if got == nil || len(got) != 0 {
		t.Fatalf("empty category: %v", got)
	}
}

func (h *harness) testItemBulkCreate(t *testing.T) {
	db := h.open(t)
	first := newItem("bulk-0", t0)
	must(t, db.CreateItem(ctx, nil, &first))
	var batch []stockroom.Item
	for i := range 300 {
		it := newItem(fmt.Sprintf("BULK-%d", i), t0)
		it.Discontinued = i%10 == 0
		batch = append(batch, it)
	}
	n, err := db.CreateItems(ctx, batch, nil)
	must(t, err)
	active, err := db.ListItems(ctx, true, nil, stockroom.PageRequest{Page: 1, PageSize: 1})
	must(t, err)
	all, err := db.ListItems(ctx, false, nil, stockroom.PageRequest{Page: 1, PageSize: 1})
	must(t, err)
	// BULK-0 is bulk-0 in another case: skipped. 29 of the stored are discontinued.
	if n != 299 || all.Total != 300 || active.Total != 271 {
		t.Fatalf("stored %d (want 299), total %d (want 300), active %d (want 271)", n, all.Total, active.Total)
	}
}

func (h *harness) testItemPagingMatchesTheFullOrder(t *testing.T) {
	for _, direct := range []int64{store.DefaultDirectOffset, 0, 7} {
		t.Run(fmt.Sprint("DirectBelow", direct), func(t *testing.T) { h.testItemPaging(t, direct) })
	}
}

func (h *harness) testItemModifiedSince(t *testing.T) {
	db := h.open(t)
	for i := range 10 {
		it := newItem(fmt.Sprintf("M%d", i), t0.Add(time.Duration(i)*time.Minute))
		must(t, db.CreateItem(ctx, nil, &it))
	}
	since := t0.Add(6 * time.Minute)
	p, err := db.ListItems(ctx, false, nil, stockroom.PageRequest{Page: 1, PageSize: 3, ModifiedSince: since, Sort: "modified"})
	must(t, err)
	if p.Total != 4 || len(p.Items) != 3 || p.Items[0].ShortID != "M6" {
		t.Fatalf("modifiedSince %v: total %d first %v", since, p.Total, p.Items)
	}
}

// byTester is the client and time of a change of the catalogue in tests.
var byTester = stockroom.LedgerEntry{ClientID: "tester", Time: t0}

package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store"
)

// anyItem lets an alias be made or removed whatever its item (the
// service's owner boundary refuses nothing here).
func anyItem(stockroom.Item) error { return nil }

// The catalogues of these tests: an item belongs to the one of its
// dfltOwner; a client limited to owner 7 reads the house's and 7's.
const (
	houseCatalogue int64 = 0
	seenCatalogue  int64 = 7
	otherCatalogue int64 = 8
)

// seenCatalogues are the catalogues a client limited to owner 7 reads.
var seenCatalogues = &stockroom.Scope{IDs: []int64{houseCatalogue, seenCatalogue}}

// testItemCatalogues: the lists of items, of a category's items and of
// aliases, read for some catalogues, hold those catalogues' items only,
// and their totals count those only, as items are created one by one and
// in bulk, move between catalogues and are discontinued; every page of
// every order is the whole list's, read forwards and from the back.
func (h *harness) testItemCatalogues(t *testing.T) {
	for _, direct := range []int64{store.DefaultDirectOffset, 0} {
		t.Run(fmt.Sprint("DirectBelow", direct), func(t *testing.T) {
			db := h.open(t)
			db.SetDirectOffset(direct)
			fillCatalogues(t, db)
			for _, all := range []bool{false, true} {
				checkCataloguePages(t, db, !all)
			}
			checkCatalogueReads(t, db)
			if d, err := db.Audit(ctx); err != nil || len(d) != 0 {
				t.Fatalf("audit after catalogue changes: %v %v", d, err)
			}
		})
	}
}

// fillCatalogues makes items of the three catalogues, some in category 5,
// some discontinued, some in bulk, with an alias each; then moves one of
// another owner's items into the seen catalogue and one out of it, and
// discontinues and reactivates some.
func fillCatalogues(t *testing.T, db *store.DB) {
	owners := []int64{houseCatalogue, seenCatalogue, otherCatalogue}
	var bulk []stockroom.Item
	for i := range 45 {
		it := newItem(fmt.Sprintf("K%02d", (i*19)%45), t0.Add(time.Duration(i%4)*time.Second))
		it.DfltOwner, it.Discontinued = owners[i%3], i%5 == 0
		it.Description = []string{"bolt", "Nut", "washer", "pin"}[i%4]
		if i%2 == 0 {
			it.Category = 5
		}
		if i%4 == 3 {
			bulk = append(bulk, it)
			continue
		}
		must(t, db.CreateItem(ctx, nil, &it))
	}
	if _, err := db.CreateItems(ctx, bulk, nil); err != nil {
		t.Fatal(err)
	}
	set := func(shortID string, fn func(*stockroom.Item)) {
		t.Helper()
		_, err := db.UpdateItem(ctx, shortID, byTester, func(it *stockroom.Item) (bool, error) { fn(it); return true, nil })
		must(t, err)
	}
	set("K02", func(it *stockroom.Item) { it.DfltOwner = seenCatalogue })  // from 8, active
	set("K19", func(it *stockroom.Item) { it.DfltOwner = otherCatalogue }) // from 7
	set("K00", func(it *stockroom.Item) { it.Discontinued = false })       // house, was discontinued
	set("K04", func(it *stockroom.Item) { it.Discontinued = true })
	for i := range 45 {
		al := stockroom.Alias{Alias: fmt.Sprintf("AL-%02d", i), ShortID: fmt.Sprintf("K%02d", i), Created: t0, Modified: t0}
		must(t, db.CreateAlias(ctx, nil, &al, byTester, anyItem))
	}
}

// seenOf keeps the items of the seen catalogues, in their order.
func seenOf(t *testing.T, items []stockroom.Item) []int64 {
	t.Helper()
	var out []int64
	for _, it := range items {
		if slices.Contains(seenCatalogues.IDs, it.DfltOwner) {
			out = append(out, it.PartNo)
		}
	}
	if len(out) == 0 || len(out) == len(items) {
		t.Fatalf("the fixture has %d items, %d of the seen catalogues: it tests nothing", len(items), len(out))
	}
	return out
}

// checkCataloguePages reads every page of several orders of the seen
// catalogues' items and holds them to the whole list, filtered.
func checkCataloguePages(t *testing.T, db *store.DB, activeOnly bool) {
	for _, tc := range []struct{ sort, dir string }{{"", ""}, {"shortID", "DESC"}, {"description", ""}, {"modified", "DESC"}, {"active", ""}} {
		req := stockroom.PageRequest{Page: 1, PageSize: 250, Sort: tc.sort, Direction: tc.dir}
		whole, err := db.ListItems(ctx, activeOnly, nil, req)
		must(t, err)
		want := seenOf(t, whole.Items)
		for _, size := range []int64{1, 4, 7, 250} {
			var got []int64
			for page := int64(1); page <= int64(len(want))/size+2; page++ {
				req.Page, req.PageSize = page, size
				p, err := db.ListItems(ctx, activeOnly, seenCatalogues, req)
				must(t, err)
				if p.Total != int64(len(want)) {
					t.Fatalf("active %v sort %q %q size %d page %d: total %d, want %d", activeOnly, tc.sort, tc.dir, size, page, p.Total, len(want))
				}
				for _, it := range p.Items {
					got = append(got, it.PartNo)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("active %v sort %q %q size %d:\n got %v\nwant %v", activeOnly, tc.sort, tc.dir, size, got, want)
			}
		}
	}
}

// checkCatalogueReads: the category list, the aliases and a list changed
// since a time, for the seen catalogues, and a list of no catalogue.
func checkCatalogueReads(t *testing.T, db *store.DB) {
	all, err := db.ListItemsInCategory(ctx, 5, nil)
	must(t, err)
	seen, err := db.ListItemsInCategory(ctx, 5, seenCatalogues)
	must(t, err)
	if got, want := partNos(seen), seenOf(t, all); !slices.Equal(got, want) {
		t.Fatalf("category 5 of the seen catalogues: %v, want %v", got, want)
	}

	everything, err := db.ListItems(ctx, false, nil, stockroom.PageRequest{Page: 1, PageSize: 250})
	must(t, err)
	owner := map[int64]int64{}
	for _, it := range everything.Items {
		owner[it.PartNo] = it.DfltOwner
	}
	aliases, err := db.ListAliases(ctx, "", seenCatalogues, stockroom.PageRequest{Page: 1, PageSize: 250})
	must(t, err)
	if want := len(seenOf(t, everything.Items)); aliases.Total != int64(want) || len(aliases.Items) != want {
		t.Fatalf("aliases of the seen catalogues: total %d, %d listed; want %d", aliases.Total, len(aliases.Items), want)
	}
	for _, al := range aliases.Items {
		if o := owner[al.PartNo]; o == otherCatalogue {
			t.Fatalf("alias %s of an item of catalogue %d listed", al.Alias, o)
		}
	}
	mine, err := db.ListAliases(ctx, "K02", seenCatalogues, stockroom.PageRequest{Page: 1, PageSize: 25})
	must(t, err)
	other, err := db.ListAliases(ctx, "K19", seenCatalogues, stockroom.PageRequest{Page: 1, PageSize: 25})
	must(t, err)
	if mine.Total != 1 || other.Total != 0 {
		t.Fatalf("aliases of K02 (moved into the seen catalogue) %d, of K19 (moved out) %d; want 1 and 0", mine.Total, other.Total)
	}

	since := stockroom.PageRequest{Page: 1, PageSize: 250, ModifiedSince: t0.Add(2 * time.Second)}
	recent, err := db.ListItems(ctx, false, seenCatalogues, since)
	must(t, err)
	wholeRecent, err := db.ListItems(ctx, false, nil, since)
	must(t, err)
	if got, want := partNos(recent.Items), seenOf(t, wholeRecent.Items); !slices.Equal(got, want) || recent.Total != int64(len(want)) {
		t.Fatalf("changed since: %v (total %d), want %v", got, recent.Total, want)
	}

	none, err := db.ListItems(ctx, false, &stockroom.Scope{}, stockroom.PageRequest{Page: 1, PageSize: 10})
	must(t, err)
	if none.Total != 0 || len(none.Items) != 0 {
		t.Fatalf("no catalogue: %+v", none)
	}
}

func partNos(items []stockroom.Item) []int64 {
	out := make([]int64, len(items))
	for i, it := range items {
		out[i] = it.PartNo
	}
	return out
}

package storetest

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

func newParty(kind stockroom.PartyKind, shortID string, at time.Time) stockroom.Party {
	return stockroom.Party{Kind: kind, ShortID: shortID, Name: "Name " + shortID, Active: true, Created: at, Modified: at}
}

func (h *harness) testOwners(t *testing.T) {
	t.Run("PartiesByKind", func(t *testing.T) {
		db := h.open(t)
		c := newParty(stockroom.Customer, "Acme", t0)
		c.City, c.Email = "Leeds", "ops@acme.example"
		must(t, db.CreateParty(ctx, nil, &c))
		v := newParty(stockroom.Vendor, "ACME", t0)
		must(t, db.CreateParty(ctx, nil, &v))
		if c.ID < 1 || v.ID <= c.ID {
			t.Fatalf("ids %d, %d", c.ID, v.ID)
		}
		dup := newParty(stockroom.Customer, "acme", t0)
		wantCode(t, db.CreateParty(ctx, nil, &dup), stockroom.ECONFLICT)
		got, err := db.FindPartyByShortID(ctx, stockroom.Customer, "ACME")
		must(t, err)
		if got != c {
			t.Fatalf("found %+v, want %+v", got, c)
		}
		if _, err := db.FindParty(ctx, stockroom.Customer, v.ID); stockroom.ErrorCode(err) != stockroom.ENOTFOUND {
			t.Fatalf("a vendor found as a customer: %v", err)
		}
		if got, err := db.FindParty(ctx, stockroom.Vendor, v.ID); err != nil || got != v {
			t.Fatalf("vendor by id: %+v %v", got, err)
		}
	})
	t.Run("PartyUpdateAndLists", func(t *testing.T) {
		db := h.open(t)
		var ids []int64
		for i, s := range []string{"delta", "Alpha", "charlie", "Bravo"} {
			p := newParty(stockroom.Customer, s, t0.Add(time.Duration(i)*time.Second))
			must(t, db.CreateParty(ctx, nil, &p))
			ids = append(ids, p.ID)
		}
		other := newParty(stockroom.Vendor, "vendor", t0)
		must(t, db.CreateParty(ctx, nil, &other))
		later := t0.Add(time.Hour)
		got, err := db.UpdateParty(ctx, stockroom.Customer, "CHARLIE", func(p *stockroom.Party) (bool, error) {
			p.Active, p.Modified = false, later
			return true, nil
		})
		must(t, err)
		if got.Active || !got.Modified.Equal(later) {
			t.Fatalf("updated %+v", got)
		}
		// fn's error changes nothing.
		_, err = db.UpdateParty(ctx, stockroom.Customer, "delta", func(p *stockroom.Party) (bool, error) {
			p.Name = "changed"
			return true, stockroom.ErrNotFound
		})
		wantCode(t, err, stockroom.ENOTFOUND)
		if p, _ := db.FindPartyByShortID(ctx, stockroom.Customer, "delta"); p.Name != "Name delta" {
			t.Fatalf("a refused update changed %+v", p)
		}
		_, err = db.UpdateParty(ctx, stockroom.Vendor, "delta", func(*stockroom.Party) (bool, error) { return false, nil })
		wantCode(t, err, stockroom.ENOTFOUND)

		list := func(activeOnly bool, owners stockroom.Scope, req stockroom.PageRequest) ([]string, int64) {
			t.Helper()
			page, err := db.ListParties(ctx, stockroom.Customer, activeOnly, owners, req)
			must(t, err)
			var out []string
			for _, p := range page.Items {
				out = append(out, p.ShortID)
			}
			return out, page.Total
		}
		all := stockroom.Scope{All: true}
		first := stockroom.PageRequest{Page: 1, PageSize: 10}
		if got, n := list(true, all, first); !slices.Equal(got, []string{"Alpha", "Bravo", "delta"}) || n != 3 {
			t.Fatalf("active: %v (%d)", got, n)
		}
		if got, n := list(false, all, stockroom.PageRequest{Page: 2, PageSize: 3}); !slices.Equal(got, []string{"delta"}) || n != 4 {
			t.Fatalf("all, page 2: %v (%d)", got, n)
		}
		byName := stockroom.PageRequest{Page: 1, PageSize: 10, Sort: "NAME", Direction: stockroom.DirectionDesc}
		if got, _ := list(false, all, byName); !slices.Equal(got, []string{"delta", "charlie", "Bravo", "Alpha"}) {
			t.Fatalf("by name descending: %v", got)
		}
		since := stockroom.PageRequest{Page: 1, PageSize: 10, ModifiedSince: later}
		if got, n := list(false, all, since); !slices.Equal(got, []string{"charlie"}) || n != 1 {
			t.Fatalf("modifiedSince: %v (%d)", got, n)
		}
		owners := stockroom.Scope{IDs: []int64{0, ids[0], ids[2], other.ID}}
		if got, n := list(false, owners, first); !slices.Equal(got, []string{"charlie", "delta"}) || n != 2 {
			t.Fatalf("owners %v: %v (%d)", owners.IDs, got, n)
		}
		if got, n := list(true, stockroom.Scope{}, first); len(got) != 0 || n != 0 {
			t.Fatalf("no owners: %v (%d)", got, n)
		}
	})
	t.Run("Categories", func(t *testing.T) {
		db := h.open(t)
		given := stockroom.Category{CategoryID: 7, Name: "Seven", Active: true, Created: t0, Modified: t0}
		must(t, db.CreateCategory(ctx, nil, &given))
		dup := given
		wantCode(t, db.CreateCategory(ctx, nil, &dup), stockroom.ECONFLICT)
		next := stockroom.Category{Name: "Next", Active: true, Created: t0, Modified: t0}
		must(t, db.CreateCategory(ctx, nil, &next))
		if next.CategoryID != 8 {
			t.Fatalf("next id %d, want 8", next.CategoryID)
		}
		top := stockroom.Category{CategoryID: stockroom.MaxCategoryID, Name: "Top", Active: true, Created: t0, Modified: t0}
		must(t, db.CreateCategory(ctx, nil, &top))
		none := stockroom.Category{Name: "None left", Active: true, Created: t0, Modified: t0}
		if err := db.CreateCategory(ctx, nil, &none); err != stockroom.ErrNoCategoryID {
			t.Fatalf("past the largest id: %v", err)
		}
		n, err := db.CreateCategories(ctx, []stockroom.Category{given, {CategoryID: 9, Name: "Nine", Active: true, Created: t0, Modified: t0}})
		must(t, err)
		if n != 1 {
			t.Fatalf("bulk stored %d, want 1", n)
		}
		got, err := db.UpdateCategory(ctx, 7, func(c *stockroom.Category) (bool, error) {
			c.Active, c.Modified = false, t0.Add(time.Minute)
			return true, nil
		})
		must(t, err)
		if found, err := db.FindCategory(ctx, 7); err != nil || found != got || found.Active {
			t.Fatalf("after update %+v %v", found, err)
		}
		_, err = db.FindCategory(ctx, 10)
		wantCode(t, err, stockroom.ENOTFOUND)
		_, err = db.UpdateCategory(ctx, 10, func(*stockroom.Category) (bool, error) { return true, nil })
		wantCode(t, err, stockroom.ENOTFOUND)
		page, err := db.ListCategories(ctx, true, stockroom.PageRequest{Page: 1, PageSize: 10})
		must(t, err)
		var ids []int64
		for _, c := range page.Items {
			ids = append(ids, c.CategoryID)
		}
		if !slices.Equal(ids, []int64{8, 9, stockroom.MaxCategoryID}) || page.Total != 3 {
			t.Fatalf("active categories %v (%d)", ids, page.Total)
		}
	})
	t.Run("ConcurrentCategoriesTakeDistinctIDs", func(t *testing.T) {
		db := h.open(t)
		const n = 12
		ids := make([]int64, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				c := stockroom.Category{Name: "c", Active: true, Created: t0, Modified: t0}
				errs[i] = db.CreateCategory(ctx, nil, &c)
				ids[i] = c.CategoryID
			})
		}
		wg.Wait()
		for _, err := range errs {
			must(t, err)
		}
		slices.Sort(ids)
		for i, id := range ids {
			if id != int64(i+1) {
				t.Fatalf("ids %v, want 1..%d", ids, n)
			}
		}
	})
}

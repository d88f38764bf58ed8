package storetest

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

// testCategories: categories with given and assigned ids, changed and
// listed; concurrent creations take distinct ids.
func (h *harness) testCategories(t *testing.T) {
	t.Run("GivenAndAssignedIDs", func(t *testing.T) {
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
	t.Run("ConcurrentCreatesTakeDistinctIDs", func(t *testing.T) {
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

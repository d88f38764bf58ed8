package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

func newParty(kind stockroom.PartyKind, shortID string, at time.Time) stockroom.Party {
	return stockroom.Party{Kind: kind, ShortID: shortID, Name: "Name " + shortID, Active: true, Created: at, Modified: at}
}

// testParties: customers and vendors (the parties table), by kind, changed
// and listed.
func (h *harness) testParties(t *testing.T) {
	t.Run("ByKind", h.testPartiesByKind)
	t.Run("UpdateAndLists", h.testPartiesUpdateAndLists)
}

func (h *harness) testPartiesByKind(t *testing.T) {
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
}

func (h *harness) testPartiesUpdateAndLists(t *testing.T) {
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
}

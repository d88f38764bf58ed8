package service_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/testdb"
)

// TestOwnerLimitedClient holds a client limited to owners to its customers,
// on a real database: until clients can be limited from the command line,
// the principal is made here.
func TestOwnerLimitedClient(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			ctx := context.Background()
			svc := service.New(testdb.MustOpen(t, engine), service.Options{})
			perms := []stockroom.Permission{stockroom.PermItemRead, stockroom.PermItemWrite}
			admin := &stockroom.Principal{ClientID: "admin", Permissions: perms, Scope: all, Owners: all}
			var ids []int64
			for _, id := range []string{"MINE", "THEIRS", "ALSO-MINE"} {
				p, err := svc.CreateParty(ctx, admin, stockroom.Customer, service.Request[stockroom.PartyChange]{In: stockroom.PartyChange{ShortID: id, Name: new(id)}})
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, p.ID)
			}
			if _, err := svc.CreateParty(ctx, admin, stockroom.Vendor, service.Request[stockroom.PartyChange]{In: stockroom.PartyChange{ShortID: "V", Name: new("V")}}); err != nil {
				t.Fatal(err)
			}
			limited := &stockroom.Principal{ClientID: "3pl", Permissions: perms, Scope: all, Owners: stockroom.Scope{IDs: []int64{0, ids[0], ids[2]}}}
			page := service.Request[stockroom.PageRequest]{In: stockroom.PageRequest{Page: 1, PageSize: 10}}

			got, err := svc.ListParties(ctx, limited, stockroom.Customer, true, page)
			if err != nil {
				t.Fatal(err)
			}
			var seen []string
			for _, p := range got.Items {
				seen = append(seen, p.ShortID)
			}
			if !slices.Equal(seen, []string{"ALSO-MINE", "MINE"}) || got.Total != 2 {
				t.Fatalf("limited client's customers: %v (%d)", seen, got.Total)
			}
			if vendors, err := svc.ListParties(ctx, limited, stockroom.Vendor, true, page); err != nil || vendors.Total != 1 {
				t.Fatalf("vendors are not limited: %+v %v", vendors, err)
			}
			one := func(shortID string) service.Request[string] { return service.Request[string]{In: shortID} }
			if _, err := svc.GetParty(ctx, limited, stockroom.Customer, one("mine")); err != nil {
				t.Fatal(err)
			}
			_, err = svc.GetParty(ctx, limited, stockroom.Customer, one("theirs"))
			wantCode(t, err, stockroom.ENOTFOUND, `No customer with ShortID "theirs".`)

			change := func(ch stockroom.PartyChange) service.Request[stockroom.PartyChange] {
				return service.Request[stockroom.PartyChange]{In: ch}
			}
			_, err = svc.CreateParty(ctx, limited, stockroom.Customer, change(stockroom.PartyChange{ShortID: "NEW", Name: new("New")}))
			wantCode(t, err, stockroom.EFORBIDDEN, stockroom.MsgOwnerOutOfScope)
			// Validation comes before owner scope.
			_, err = svc.CreateParty(ctx, limited, stockroom.Customer, change(stockroom.PartyChange{ShortID: "NEW"}))
			wantCode(t, err, stockroom.EINVALID, stockroom.MsgValidation)
			// Vendors are the house's: read, never written, by a limited client.
			_, err = svc.CreateParty(ctx, limited, stockroom.Vendor, change(stockroom.PartyChange{ShortID: "V2", Name: new("V2")}))
			wantCode(t, err, stockroom.EFORBIDDEN, stockroom.MsgOwnerOutOfScope)

			_, err = svc.UpdateParty(ctx, limited, stockroom.Customer, change(stockroom.PartyChange{ShortID: "THEIRS", City: new("x")}))
			wantCode(t, err, stockroom.ENOTFOUND, `No customer with ShortID "THEIRS".`)
			_, err = svc.DiscontinueParty(ctx, limited, stockroom.Customer, one("theirs"))
			wantCode(t, err, stockroom.ENOTFOUND, `No customer with ShortID "theirs".`)
			if p, err := svc.GetParty(ctx, admin, stockroom.Customer, one("THEIRS")); err != nil || !p.Active || p.City != "" {
				t.Fatalf("a refused change changed %+v (%v)", p, err)
			}
			if _, err := svc.UpdateParty(ctx, limited, stockroom.Customer, change(stockroom.PartyChange{ShortID: "mine", City: new("Leeds")})); err != nil {
				t.Fatal(err)
			}
			if p, err := svc.DiscontinueParty(ctx, limited, stockroom.Customer, one("also-mine")); err != nil || p.Active {
				t.Fatalf("discontinue own customer: %+v %v", p, err)
			}

			// An item's default owner is a write naming an owner: outside the
			// client's owners it is 403 whether or not the customer exists,
			// but only once the fields pass.
			item := func(shortID string, owner int64) service.Request[stockroom.ItemChange] {
				return service.Request[stockroom.ItemChange]{In: stockroom.ItemChange{ShortID: shortID, DfltOwner: &owner}}
			}
			for _, owner := range []int64{ids[1], 987654} {
				_, err = svc.CreateItem(ctx, limited, item("THEIR-ITEM", owner))
				wantCode(t, err, stockroom.EFORBIDDEN, stockroom.MsgOwnerOutOfScope)
			}
			_, err = svc.CreateItem(ctx, limited, item("", ids[1]))
			wantCode(t, err, stockroom.EINVALID, stockroom.MsgValidation)
			if _, err := svc.CreateItem(ctx, limited, item("MY-ITEM", ids[0])); err != nil {
				t.Fatalf("an item of the client's own customer: %v", err)
			}
			_, err = svc.UpdateItem(ctx, limited, item("MY-ITEM", ids[1]))
			wantCode(t, err, stockroom.EFORBIDDEN, stockroom.MsgOwnerOutOfScope)
		})
	}
}

func wantCode(t *testing.T, err error, code, message string) {
	t.Helper()
	if stockroom.ErrorCode(err) != code || stockroom.ErrorMessage(err) != message {
		t.Fatalf("error %v, want %s %q", err, code, message)
	}
}

// partyStub knows customer 5 and vendor 6 and category 3, and counts the
// lookups that reach it.
type partyStub struct {
	stubStore
	lookups int
}

func (s *partyStub) FindParty(_ context.Context, kind stockroom.PartyKind, id int64) (stockroom.Party, error) {
	s.lookups++
	switch {
	case id == 5 && kind == stockroom.Customer, id == 6 && kind == stockroom.Vendor:
		return stockroom.Party{Kind: kind, ID: id}, nil
	}
	return stockroom.Party{}, stockroom.ErrNotFound
}

func (s *partyStub) FindCategory(_ context.Context, id int64) (stockroom.Category, error) {
	s.lookups++
	if id == 3 {
		return stockroom.Category{CategoryID: 3}, nil
	}
	return stockroom.Category{}, stockroom.ErrNotFound
}

// TestItemReferences: an item names 0 or an existing category and customer;
// what was found once is remembered, what was not is asked again.
func TestItemReferences(t *testing.T) {
	db := &partyStub{}
	svc := service.New(db, service.Options{})
	p := principal(false, all, stockroom.PermItemWrite)
	create := func(cat, owner int64) error {
		_, err := svc.CreateItem(context.Background(), p, service.Request[stockroom.ItemChange]{In: stockroom.ItemChange{ShortID: "X", Category: &cat, DfltOwner: &owner}})
		return err
	}
	for _, tc := range []struct {
		cat, owner int64
		fields     []string
		lookups    int
	}{
		{3, 5, nil, 2},
		{3, 5, nil, 0}, // remembered
		{0, 0, nil, 0},
		{4, 6, []string{"category", "dfltOwner"}, 2}, // a vendor is not a customer
		{4, 6, []string{"category", "dfltOwner"}, 2}, // not found is not remembered
	} {
		before, writes := db.lookups, db.writes
		err := create(tc.cat, tc.owner)
		var e *stockroom.Error
		var got []string
		if errors.As(err, &e) {
			for f := range e.Details {
				got = append(got, f)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.fields) || db.lookups-before != tc.lookups || (tc.fields == nil) != (db.writes > writes) {
			t.Errorf("category %d owner %d: error %v after %d lookups, want fields %v after %d", tc.cat, tc.owner, err, db.lookups-before, tc.fields, tc.lookups)
		}
	}
}

package sdktest_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
)

// TestCustomersVendorsCategories proves that a program using only the SDK
// can keep the master records items and stock name.
func TestCustomersVendorsCategories(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	c := s.admin(t)
	ctx := context.Background()

	t.Run("Customers", func(t *testing.T) {
		acme, err := c.CreateCustomer(ctx, client.PartyInput{ShortID: "ACME", Name: new("Acme Ltd"), City: new("Leeds")})
		if err != nil {
			t.Fatal(err)
		}
		if acme.Kind != stockroom.Customer || acme.ID < 1 || acme.Name != "Acme Ltd" || !acme.Active || acme.Created.IsZero() {
			t.Fatalf("created %+v", acme)
		}
		if _, err := c.CreateCustomer(ctx, client.PartyInput{ShortID: "acme", Name: new("Again")}); !isCode(err, stockroom.ECONFLICT) {
			t.Fatalf("duplicate: %v", err)
		}
		if st, err := c.UpdateCustomer(ctx, client.PartyInput{ShortID: "acme", City: new("York")}); err != nil || st.Status != "updated" || st.ShortID != "ACME" {
			t.Fatalf("update: %+v %v", st, err)
		}
		got, err := c.GetCustomer(ctx, "Acme")
		if err != nil || got.ID != acme.ID || got.City != "York" || got.Kind != stockroom.Customer {
			t.Fatalf("get: %+v %v", got, err)
		}
		if _, err := c.CreateCustomer(ctx, client.PartyInput{ShortID: "ZED", Name: new("Zed")}); err != nil {
			t.Fatal(err)
		}
		if st, err := c.DiscontinueCustomer(ctx, "zed"); err != nil || st.Status != "discontinued" {
			t.Fatalf("discontinue: %+v %v", st, err)
		}
		var active, all []string
		for p, err := range c.Customers(ctx, client.MasterListOptions{ListOptions: client.ListOptions{PageSize: 1}}) {
			if err != nil {
				t.Fatal(err)
			}
			active = append(active, p.ShortID)
		}
		for p, err := range c.Customers(ctx, client.MasterListOptions{IncludeInactive: true}) {
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, p.ShortID)
		}
		if !slices.Equal(active, []string{"ACME"}) || !slices.Equal(all, []string{"ACME", "ZED"}) {
			t.Fatalf("active %v, all %v", active, all)
		}
		if _, err := c.GetCustomer(ctx, "nobody"); !isCode(err, stockroom.ENOTFOUND) {
			t.Fatalf("unknown: %v", err)
		}
	})
	t.Run("Vendors", func(t *testing.T) {
		v, err := c.CreateVendor(ctx, client.PartyInput{ShortID: "BOLTCO/UK", Name: new("Boltco")})
		if err != nil || v.Kind != stockroom.Vendor || v.ID < 1 {
			t.Fatalf("created %+v %v", v, err)
		}
		if _, err := c.UpdateVendor(ctx, client.PartyInput{ShortID: "boltco/uk", Email: new("sales@boltco.example")}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.DiscontinueVendor(ctx, "BOLTCO/UK"); err != nil {
			t.Fatal(err)
		}
		got, err := c.GetVendor(ctx, "boltco/uk")
		if err != nil || got.Email != "sales@boltco.example" || got.Active {
			t.Fatalf("get: %+v %v", got, err)
		}
		page, err := c.ListVendors(ctx, client.MasterListOptions{ListOptions: client.ListOptions{ModifiedSince: time.Now().Add(-time.Hour)}, IncludeInactive: true})
		if err != nil || page.TotalCount != 1 || page.Value[0].ID != v.ID {
			t.Fatalf("list: %+v %v", page, err)
		}
		n := 0
		for _, err := range c.Vendors(ctx, client.MasterListOptions{}) {
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		if n != 0 {
			t.Fatalf("%d active vendors, want 0", n)
		}
	})
	t.Run("Categories", func(t *testing.T) {
		first, err := c.CreateCategory(ctx, client.CategoryInput{CategoryID: 10, Name: new("Fasteners")})
		if err != nil || first.CategoryID != 10 {
			t.Fatalf("create: %+v %v", first, err)
		}
		next, err := c.CreateCategory(ctx, client.CategoryInput{Name: new("Hinges"), Description: new("Door and gate hinges")})
		if err != nil || next.CategoryID != 11 || next.Description != "Door and gate hinges" {
			t.Fatalf("create next: %+v %v", next, err)
		}
		if st, err := c.UpdateCategory(ctx, client.CategoryInput{CategoryID: 11, Name: new("Hinges and brackets")}); err != nil || st.CategoryID != 11 {
			t.Fatalf("update: %+v %v", st, err)
		}
		if st, err := c.DiscontinueCategory(ctx, 11); err != nil || st.Status != "discontinued" {
			t.Fatalf("discontinue: %+v %v", st, err)
		}
		got, err := c.GetCategory(ctx, 11)
		if err != nil || got.Name != "Hinges and brackets" || got.Active {
			t.Fatalf("get: %+v %v", got, err)
		}
		var ids []int64
		for cat, err := range c.Categories(ctx, client.MasterListOptions{}) {
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, cat.CategoryID)
		}
		all, err := c.ListCategories(ctx, client.MasterListOptions{IncludeInactive: true})
		if !slices.Equal(ids, []int64{10}) || err != nil || all.TotalCount != 2 {
			t.Fatalf("active %v, all %+v %v", ids, all, err)
		}
		if _, err := c.CreateItem(ctx, client.ItemInput{ShortID: "NO-CAT", Category: new(int64(99))}); !isCode(err, stockroom.EINVALID) {
			t.Fatalf("item in an unknown category: %v", err)
		}
	})
}

func isCode(err error, code string) bool {
	var e *client.Error
	return errors.As(err, &e) && e.Code == code
}

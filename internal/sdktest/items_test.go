package sdktest_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
)

// TestItems/... prove that a program using only the SDK can keep the catalog:
// create, find in every way the API offers, change and discontinue items.
func TestItems(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	c := s.admin(t)
	ctx := context.Background()
	// The categories the items below name.
	for _, id := range []int64{4, 7} {
		if _, err := c.CreateCategory(ctx, client.CategoryInput{CategoryID: id, Name: new("Category")}); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("CreateReturnsTheFullItem", func(t *testing.T) {
		it, err := c.CreateItem(ctx, client.ItemInput{
			ShortID: "BOLT-M8", Description: new("Hex bolt M8x40"), UOM: new("EA"),
			Category: new(int64(4)), Units: new(units(t, "100")), PutUp: new("Box of 100"),
		})
		if err != nil {
			t.Fatal(err)
		}
		if it.PartNo == 0 || it.ShortID != "BOLT-M8" || it.Description != "Hex bolt M8x40" || it.Units != units(t, "100") ||
			!it.Active() || it.Discontinued || it.Category != 4 || it.UOM != "EA" || it.Created.IsZero() {
			t.Fatalf("created item %+v", it)
		}
	})
	t.Run("FoundByPartNoShortIDAliasAndCategory", func(t *testing.T) {
		created := mustCreateItem(t, c, "NUT-M8")
		if _, err := c.UpdateItem(ctx, client.ItemInput{ShortID: "NUT-M8", Category: new(int64(7))}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.CreateAlias(ctx, "SUPPLIER-4711", "nut-m8"); err != nil {
			t.Fatal(err)
		}
		byPartNo, err := c.GetItem(ctx, created.PartNo)
		if err != nil {
			t.Fatal(err)
		}
		byShortID, err := c.FindItemByShortID(ctx, "nut-M8") // any letter case
		if err != nil {
			t.Fatal(err)
		}
		byAlias, err := c.FindItemByAlias(ctx, "supplier-4711")
		if err != nil {
			t.Fatal(err)
		}
		inCategory, err := c.ItemsInCategory(ctx, 7)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range []*client.Item{byPartNo, byShortID, byAlias, &inCategory[0]} {
			if it.PartNo != created.PartNo || it.ShortID != "NUT-M8" || it.Category != 7 {
				t.Fatalf("found %+v, want partNo %d NUT-M8 in category 7", it, created.PartNo)
			}
		}
		if len(inCategory) != 1 {
			t.Fatalf("category 7 holds %d items, want 1", len(inCategory))
		}
	})
	t.Run("UpdateChangesOnlyTheGivenFields", func(t *testing.T) {
		mustCreateItem(t, c, "WASHER-8")
		st, err := c.UpdateItem(ctx, client.ItemInput{ShortID: "washer-8", Description: new("Flat washer 8 mm")})
		if err != nil {
			t.Fatal(err)
		}
		if st.Status != "updated" || st.ShortID != "WASHER-8" {
			t.Fatalf("update status %+v", st)
		}
		it, err := c.FindItemByShortID(ctx, "WASHER-8")
		if err != nil {
			t.Fatal(err)
		}
		if it.Description != "Flat washer 8 mm" || it.UOM != "EA" {
			t.Fatalf("after update: %+v", it)
		}
	})
	t.Run("DiscontinuedItemsLeaveTheActiveList", func(t *testing.T) {
		mustCreateItem(t, c, "OLD-PART")
		st, err := c.DiscontinueItem(ctx, "OLD-PART")
		if err != nil || st.Status != "discontinued" {
			t.Fatalf("discontinue: %+v, %v", st, err)
		}
		if names := shortIDs(t, c.Items(ctx, client.ItemListOptions{})); slices.Contains(names, "OLD-PART") {
			t.Fatalf("active list %v holds the discontinued item", names)
		}
		if names := shortIDs(t, c.Items(ctx, client.ItemListOptions{IncludeDiscontinued: true})); !slices.Contains(names, "OLD-PART") {
			t.Fatalf("full list %v lacks the discontinued item", names)
		}
		// It can no longer be received, and reactivating it is an update.
		_, err = c.Receive(ctx, client.ReceiveRequest{ItemID: "OLD-PART", Units: units(t, "1"), WID: 1, ReasonCode: 1})
		if apiErr, ok := errors.AsType[*client.Error](err); !ok || apiErr.Code != stockroom.ECONFLICT {
			t.Fatalf("receiving a discontinued item: %v, want a conflict", err)
		}
		if _, err := c.UpdateItem(ctx, client.ItemInput{ShortID: "OLD-PART", Discontinued: new(false)}); err != nil {
			t.Fatal(err)
		}
		if it, err := c.FindItemByShortID(ctx, "OLD-PART"); err != nil || !it.Active() {
			t.Fatalf("reactivated item: %+v, %v", it, err)
		}
	})
	t.Run("KeysAreEscapedInPaths", func(t *testing.T) {
		for _, key := range []string{"PIPE 1/2\"", "A/../B", "..", ".", "%41", "x;y?z#1"} {
			mustCreateItem(t, c, key)
			alias := "ALIAS " + key
			if _, err := c.CreateAlias(ctx, alias, key); err != nil {
				t.Fatal(err)
			}
			if it, err := c.FindItemByAlias(ctx, alias); err != nil || it.ShortID != key {
				t.Fatalf("by alias %q: %+v, %v", alias, it, err)
			}
			if st, err := c.DeleteAlias(ctx, alias); err != nil || st.Status != "deleted" || st.Alias != alias {
				t.Fatalf("delete alias %q: %+v, %v", alias, st, err)
			}
			if st, err := c.DiscontinueItem(ctx, key); err != nil || st.ShortID != key {
				t.Fatalf("discontinue %q: %+v, %v", key, st, err)
			}
		}
	})
	t.Run("AliasesAreListedPerItem", func(t *testing.T) {
		mustCreateItem(t, c, "GEAR-20")
		for _, a := range []string{"G20-B", "G20-A"} {
			if _, err := c.CreateAlias(ctx, a, "GEAR-20"); err != nil {
				t.Fatal(err)
			}
		}
		var got []string
		for al, err := range c.Aliases(ctx, client.AliasListOptions{ItemID: "gear-20"}) {
			if err != nil {
				t.Fatal(err)
			}
			if al.ShortID != "GEAR-20" {
				t.Fatalf("alias %+v of another item", al)
			}
			got = append(got, al.Alias)
		}
		if !slices.Equal(got, []string{"G20-A", "G20-B"}) {
			t.Fatalf("aliases %v, want [G20-A G20-B]", got)
		}
	})
}

// TestReferenceLists proves the warehouses and reason codes that stock calls
// need can be read.
func TestReferenceLists(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	s.addWarehouse(t, 2, "North")
	c := s.admin(t)
	ctx := context.Background()
	var names []string
	for w, err := range c.Warehouses(ctx, client.ListOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, w.Name)
	}
	if !slices.Equal(names, []string{"Main", "North"}) {
		t.Fatalf("warehouses %v", names)
	}
	var receiveCodes []int64
	for rc, err := range c.ReasonCodes(ctx, client.ListOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		if rc.Direction == stockroom.DirectionReceive {
			receiveCodes = append(receiveCodes, rc.Code)
		}
	}
	if !slices.Contains(receiveCodes, 1) {
		t.Fatalf("receive reason codes %v lack 1", receiveCodes)
	}
}

func shortIDs(t *testing.T, seq func(func(client.Item, error) bool)) []string {
	t.Helper()
	var out []string
	for it, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, it.ShortID)
	}
	return out
}

package stockroom_test

import (
	"slices"
	"testing"

	"github.com/stockroom/stockroom"
)

func TestClientChange(t *testing.T) {
	base := func() stockroom.Client {
		return stockroom.Client{
			ID: "app", Name: "App", Permissions: []stockroom.Permission{11, 15, 88, 95, 116, 301, 302, 303, 370},
			Scope: stockroom.Scope{IDs: []int64{1, 2}}, Owners: stockroom.Scope{All: true},
		}
	}
	all, _ := stockroom.ParsePermissions("all")
	name, yes := "New", true
	for _, tc := range []struct {
		what    string
		ch      stockroom.ClientChange
		changed bool
		check   func(stockroom.Client) bool
	}{
		{"nothing", stockroom.ClientChange{}, false, nil},
		{"same permissions in another order", stockroom.ClientChange{Permissions: all}, false, nil},
		{"same warehouses", stockroom.ClientChange{Scope: &stockroom.Scope{IDs: []int64{1, 2}}}, false, nil},
		{"name", stockroom.ClientChange{Name: &name}, true, func(c stockroom.Client) bool { return c.Name == "New" }},
		{"fewer permissions", stockroom.ClientChange{Permissions: []stockroom.Permission{11}}, true,
			func(c stockroom.Client) bool { return slices.Equal(c.Permissions, []stockroom.Permission{11}) }},
		{"all warehouses", stockroom.ClientChange{Scope: &stockroom.Scope{All: true}}, true, func(c stockroom.Client) bool { return c.Scope.All }},
		{"owners from all to a list", stockroom.ClientChange{Owners: &stockroom.Scope{IDs: []int64{0}}}, true,
			func(c stockroom.Client) bool { return !c.Owners.All && slices.Equal(c.Owners.IDs, []int64{0}) }},
		{"read-only", stockroom.ClientChange{ReadOnly: &yes}, true, func(c stockroom.Client) bool { return c.ReadOnly }},
	} {
		c := base()
		if got := tc.ch.Apply(&c); got != tc.changed {
			t.Errorf("%s: Apply reported %t, want %t", tc.what, got, tc.changed)
		}
		if tc.check != nil && !tc.check(c) {
			t.Errorf("%s: client after Apply %+v", tc.what, c)
		}
		if tc.ch.IsEmpty() != (tc.what == "nothing") {
			t.Errorf("%s: IsEmpty %t", tc.what, tc.ch.IsEmpty())
		}
	}
	blank := "  "
	for _, ch := range []stockroom.ClientChange{
		{Name: &blank},
		{Permissions: []stockroom.Permission{}},
		{Permissions: []stockroom.Permission{12}},
		{Scope: &stockroom.Scope{}},
		{Owners: &stockroom.Scope{}},
	} {
		if stockroom.ErrorCode(ch.Validate()) != stockroom.EINVALID {
			t.Errorf("%+v passed validation", ch)
		}
	}
}

func TestWarehouseChange(t *testing.T) {
	w := stockroom.Warehouse{ID: 2, Name: "North", Active: true}
	name, no := " North ", false
	ch := stockroom.WarehouseChange{Name: &name}
	if err := ch.Validate(2); err != nil || ch.Apply(&w) {
		t.Fatalf("the same name, padded: %v, or reported as a change", err)
	}
	ch = stockroom.WarehouseChange{Active: &no}
	if !ch.Apply(&w) || w.Active {
		t.Fatalf("deactivation: %+v", w)
	}
	for _, wid := range []int64{0, -1, stockroom.MaxWarehouseID + 1} {
		if stockroom.ErrorCode(ch.Validate(wid)) != stockroom.EINVALID {
			t.Errorf("warehouse id %d passed validation", wid)
		}
	}
}

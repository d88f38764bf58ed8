package sdktest_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
)

// crates places shipping orders numbered nos to customer, of one crate
// from warehouse 1 each.
func crates(t *testing.T, c *client.Client, customer int64, nos ...string) {
	for _, no := range nos {
		if _, err := c.CreateShippingOrder(t.Context(), client.ShippingOrderRequest{SONo: no, CustomerID: &stockroom.OwnerRef{ID: customer},
			Lines: []client.ShippingLineRequest{{ItemID: "CRATE", Units: new(stockroom.Whole(1)), Warehouse: 1}}}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestShippingOrders proves that a program using only the SDK can place a
// shipping order to a customer, read it back, change it, and walk the
// order lists page by page.
func TestShippingOrders(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	c, ctx := s.admin(t), t.Context()
	s.addWarehouse(t, 2, "North")
	mustCreateItem(t, c, "CRATE")
	acme, err := c.CreateCustomer(ctx, client.PartyInput{ShortID: "ACME", Name: new("Acme Logistics")})
	if err != nil {
		t.Fatal(err)
	}
	ship := time.Date(2030, 3, 1, 0, 0, 0, 0, time.UTC)
	so, err := c.CreateShippingOrder(ctx, client.ShippingOrderRequest{CustomerID: &stockroom.OwnerRef{ShortID: "acme"}, ShipDate: &ship,
		Owner: &stockroom.OwnerRef{ID: acme.ID}, Lines: []client.ShippingLineRequest{
			{ItemID: "CRATE", Units: new(units(t, "12")), Warehouse: 2},
			{ItemID: "CRATE", Units: new(units(t, "0.5")), Warehouse: 1, Owner: &stockroom.OwnerRef{}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	if so.SONo != "SO-000001" || so.Customer != "Acme Logistics" || so.Status != stockroom.OrderOpen || !so.ShipDate.Equal(ship) ||
		len(so.Lines) != 2 || so.Lines[0].Owner != acme.ID || so.Lines[1].Owner != 0 || so.Lines[0].WarehouseName != "North" {
		t.Fatalf("placed %+v", so)
	}
	got, err := c.GetShippingOrder(ctx, "so-000001")
	if err != nil || !slices.Equal(got.Lines, so.Lines) || got.TotalLines != 2 {
		t.Fatalf("read back %+v, %v", got, err)
	}
	if _, err := c.UpdateShippingOrder(ctx, client.ShippingOrderRequest{SONo: "SO-000001", Lines: []client.ShippingLineRequest{{LineNo: 3, Units: new(units(t, "1"))}}}); !isCode(err, stockroom.EINVALID) {
		t.Fatalf("a change to line 3 of 2: %v", err)
	}
	changed, err := c.UpdateShippingOrder(ctx, client.ShippingOrderRequest{SONo: "SO-000001", Remark: new("gate 4"),
		Lines: []client.ShippingLineRequest{{LineNo: 1, Units: new(units(t, "10"))}}})
	if err != nil || changed.Remark != "gate 4" || changed.Lines[0].Units != units(t, "10") {
		t.Fatalf("changed %+v, %v", changed, err)
	}
	crates(t, c, acme.ID, "B-1", "B-2", "B-3", "B-4")
	var walked []string
	for o, err := range c.ShippingOrders(ctx, client.ShippingOrderListOptions{All: true, WID: 1, ListOptions: client.ListOptions{PageSize: 2, Sort: "soNo", Direction: "desc"}}) {
		if err != nil {
			t.Fatal(err)
		}
		walked = append(walked, o.SONo)
	}
	if !slices.Equal(walked, []string{"SO-000001", "B-4", "B-3", "B-2", "B-1"}) {
		t.Fatalf("walked %v", walked)
	}
	p, err := c.ListShippingOrders(ctx, client.ShippingOrderListOptions{Owner: &stockroom.OwnerRef{ShortID: "ACME"}, ListOptions: client.ListOptions{PageSize: 99}})
	if err != nil || p.PageSize != stockroom.MaxOrderPerPage || p.TotalCount != 1 || p.Value[0].TotalLines != 1 || p.Value[0].Lines != nil {
		t.Fatalf("ACME's stock on order: %+v, %v", p, err)
	}
}

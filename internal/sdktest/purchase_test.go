package sdktest_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
)

// TestPurchaseOrders proves that a program using only the SDK can place an
// order, receive it line by line, and follow onOrder and the order's state.
func TestPurchaseOrders(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	c := s.admin(t)
	ctx := context.Background()
	s.addWarehouse(t, 2, "North")
	mustCreateItem(t, c, "NUT")
	mustCreateItem(t, c, "WASHER")
	if _, err := c.CreateVendor(ctx, client.PartyInput{ShortID: "BOLTCO", Name: new("Boltco")}); err != nil {
		t.Fatal(err)
	}
	due := time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC)
	po, err := c.CreatePurchaseOrder(ctx, client.PurchaseOrderRequest{
		VendorID: &stockroom.OwnerRef{ShortID: "boltco"}, ExpectedDate: &due, Reference: new("REQ-7"),
		Lines: []client.PurchaseLineRequest{
			{ItemID: "NUT", Units: new(units(t, "100")), UnitPrice: new(units(t, "0.05")), Warehouse: 1},
			{ItemID: "WASHER", Units: new(units(t, "40")), Warehouse: 2},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if po.PONo != "PO-000001" || po.Status != stockroom.OrderOpen || po.TotalValue != units(t, "5") || len(po.Lines) != 2 ||
		!po.ExpectedDate.Equal(due) || po.Lines[1].WarehouseName != "North" {
		t.Fatalf("placed %+v", po)
	}
	if l := level(t, c, "NUT", 1); l.OnOrder != units(t, "100") {
		t.Fatalf("onOrder of NUT %s", l.OnOrder)
	}

	t.Run("ReceiveAgainstLine", func(t *testing.T) { testSDKReceiveAgainstLine(t, c) })
	t.Run("ReceivePurchaseLine", func(t *testing.T) { testSDKReceivePurchaseLine(t, c) })
	t.Run("UpdateCloseCancel", func(t *testing.T) { testSDKUpdateCloseCancel(t, c) })
	t.Run("Iterators", func(t *testing.T) { testSDKPurchaseIterators(t, c) })
	found, err := s.svc.Audit(ctx)
	if err != nil || len(found) > 0 {
		t.Fatalf("audit: %v %v", found, err)
	}
}

func testSDKReceiveAgainstLine(t *testing.T, c *client.Client) {
	ctx := context.Background()
	res, err := c.ReceiveAgainstLine(ctx, "po-000001", 1, client.ReceiveRequest{ItemID: "NUT", Units: units(t, "30"), WID: 1, ReasonCode: 1, Spot: "A-1"})
	if err != nil || res.Lot.Price != units(t, "0.05") || res.Lot.Reference != "PO-000001" {
		t.Fatalf("receipt %+v %v", res, err)
	}
	_, err = c.ReceiveAgainstLine(ctx, "PO-000001", 1, client.ReceiveRequest{ItemID: "WASHER", Units: units(t, "1"), WID: 1, ReasonCode: 1})
	var apiErr *client.Error
	if !errors.As(err, &apiErr) || apiErr.Code != stockroom.EINVALID || apiErr.Details["itemID"] == nil {
		t.Fatalf("another item against line 1: %v", err)
	}
	if l := level(t, c, "NUT", 1); l.OnOrder != units(t, "70") || l.InStock != units(t, "30") {
		t.Fatalf("NUT after 30 received: %+v", l)
	}
}

func testSDKReceivePurchaseLine(t *testing.T, c *client.Client) {
	ctx := context.Background()
	res, err := c.ReceivePurchaseLine(ctx, "PO-000001", 1, "A-2")
	if err != nil || res.Lot.Units != units(t, "70") || res.Lot.Spot != "A-2" {
		t.Fatalf("the rest of line 1: %+v %v", res, err)
	}
	if _, err := c.ReceivePurchaseLine(ctx, "PO-000001", 1); !errors.Is(err, client.ErrNothingDue) {
		t.Fatalf("line 1 again: %v", err)
	}
	if _, err := c.ReceivePurchaseLine(ctx, "PO-000001", 7); !errors.Is(err, client.ErrNoLine) {
		t.Fatalf("line 7: %v", err)
	}
	if _, err := c.ReceivePurchaseLine(ctx, "PO-404", 1); !isCode(err, stockroom.ENOTFOUND) {
		t.Fatalf("order PO-404: %v", err)
	}
	got, err := c.GetPurchaseOrder(ctx, "PO-000001")
	if err != nil || got.Status != stockroom.OrderPartial || got.Lines[0].UnitsDue.Sign() != 0 || got.Lines[0].UnitsReceived != units(t, "100") {
		t.Fatalf("order after line 1: %+v %v", got, err)
	}
	if _, err := c.ReceivePurchaseLine(ctx, "PO-000001", 2); err != nil {
		t.Fatal(err)
	}
	if got, _ := c.GetPurchaseOrder(ctx, "PO-000001"); got.Status != stockroom.OrderClosed {
		t.Fatalf("every line received: %s", got.Status)
	}
}

func testSDKUpdateCloseCancel(t *testing.T, c *client.Client) {
	ctx := context.Background()
	_, err := c.CreatePurchaseOrder(ctx, client.PurchaseOrderRequest{PONo: "UP-1", VendorID: &stockroom.OwnerRef{ShortID: "BOLTCO"},
		Lines: []client.PurchaseLineRequest{{ItemID: "NUT", Units: new(units(t, "10")), Warehouse: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	o, err := c.UpdatePurchaseOrder(ctx, client.PurchaseOrderRequest{PONo: "up-1", Remark: new("more"), Lines: []client.PurchaseLineRequest{
		{LineNo: 1, Units: new(units(t, "15"))}, {ItemID: "WASHER", Units: new(units(t, "5")), Warehouse: 2}}})
	if err != nil || o.Remark != "more" || len(o.Lines) != 2 || o.Lines[0].Units != units(t, "15") {
		t.Fatalf("updated %+v %v", o, err)
	}
	if l := level(t, c, "NUT", 1); l.OnOrder != units(t, "15") {
		t.Fatalf("onOrder of NUT %s", l.OnOrder)
	}
	if _, err := c.ReceivePurchaseLine(ctx, "UP-1", 2); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CancelPurchaseOrder(ctx, "UP-1"); !isCode(err, stockroom.ECONFLICT) {
		t.Fatalf("cancel after a receipt: %v", err)
	}
	if o, err := c.ClosePurchaseOrder(ctx, "UP-1"); err != nil || o.Status != stockroom.OrderClosed {
		t.Fatalf("close: %+v %v", o, err)
	}
	if l := level(t, c, "NUT", 1); !l.OnOrder.IsZero() {
		t.Fatalf("onOrder of NUT after close %s", l.OnOrder)
	}
	if _, err := c.CreatePurchaseOrder(ctx, client.PurchaseOrderRequest{PONo: "CX-1", VendorID: &stockroom.OwnerRef{ShortID: "BOLTCO"},
		Lines: []client.PurchaseLineRequest{{ItemID: "NUT", Units: new(units(t, "1")), Warehouse: 1}}}); err != nil {
		t.Fatal(err)
	}
	if o, err := c.CancelPurchaseOrder(ctx, "CX-1"); err != nil || o.Status != stockroom.OrderCanceled {
		t.Fatalf("cancel: %+v %v", o, err)
	}
	// The lists as CSV: every order of the list, its filters applied.
	var buf bytes.Buffer
	opts := client.OrderListOptions{All: true, Status: stockroom.OrderCanceled, ListOptions: client.ListOptions{PageSize: 1}}
	if _, err := c.ExportOrdersCSV(ctx, stockroom.OrderKindPurchase, opts, &buf); err != nil {
		t.Fatal(err)
	}
	if rows, err := csv.NewReader(&buf).ReadAll(); err != nil || len(rows) != 2 || rows[0][0] != "poNo" || rows[1][0] != "CX-1" {
		t.Fatalf("canceled purchase orders as CSV %q: %v", rows, err)
	}
	if _, err := c.ExportTransitsCSV(ctx, client.TransitListOptions{WID: 99}, &buf); !isCode(err, stockroom.ENOTFOUND) {
		t.Fatalf("transits of warehouse 99 as CSV: %v", err)
	}
}

func testSDKPurchaseIterators(t *testing.T, c *client.Client) {
	ctx := context.Background()
	for i := range 3 {
		if _, err := c.CreatePurchaseOrder(ctx, client.PurchaseOrderRequest{PONo: fmt.Sprintf("IT-%d", i), VendorID: &stockroom.OwnerRef{ShortID: "BOLTCO"},
			Lines: []client.PurchaseLineRequest{{ItemID: "WASHER", Units: new(units(t, "1")), Warehouse: 2}}}); err != nil {
			t.Fatal(err)
		}
	}
	var open, all []string
	for o, err := range c.PurchaseOrders(ctx, client.PurchaseOrderListOptions{ListOptions: client.ListOptions{PageSize: 2, Sort: "poNo"}}) {
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, o.PONo)
	}
	for o, err := range c.PurchaseOrders(ctx, client.PurchaseOrderListOptions{All: true, WID: 2, Status: stockroom.OrderClosed}) {
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, o.PONo)
	}
	if !slices.Equal(open, []string{"IT-0", "IT-1", "IT-2"}) || !slices.Equal(all, []string{"PO-000001", "UP-1"}) {
		t.Fatalf("open %v; closed in warehouse 2 %v", open, all)
	}
	p, err := c.ListPurchaseOrders(ctx, client.PurchaseOrderListOptions{All: true, ItemID: "nut", StartDate: time.Now().Add(-time.Hour),
		EndDate: time.Now().Add(time.Hour), ListOptions: client.ListOptions{PageSize: 500}})
	if err != nil || p.PageSize != stockroom.MaxOrderPerPage || p.TotalCount != 3 {
		t.Fatalf("orders of NUT today: %+v %v", p, err)
	}
}

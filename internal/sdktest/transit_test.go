package sdktest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
	"github.com/stockroom/stockroom/internal/service"
)

// wantAPICode checks that err is an *Error with the given code.
func wantAPICode(t *testing.T, err error, code string) {
	t.Helper()
	if apiErr, ok := errors.AsType[*client.Error](err); !ok || apiErr.Code != code {
		t.Fatalf("error %v, want code %q", err, code)
	}
}

// TestTransitsThroughTheSDK: a transfer shipped, seen and received in part
// by a client of the destination only, the rest canceled back; the lists
// walked page by page; a vendor's notice shipped and received whole.
func TestTransitsThroughTheSDK(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	s.addWarehouse(t, 2, "North")
	c := s.admin(t)
	ctx := context.Background()
	mustCreateItem(t, c, "PUMP-1")
	mustReceive(t, c, "PUMP-1", units(t, "50"), 1, "A-01")
	north := s.clientWith(t, service.NewClient{Permissions: []stockroom.Permission{stockroom.PermItemRead, stockroom.PermMove}, Scope: stockroom.Scope{IDs: []int64{2}}})

	if _, err := c.Transfer(ctx, client.MoveRequest{ItemID: "PUMP-1", Units: units(t, "1"), WID: 1, ShipToWID: 2}); !errors.Is(err, client.ErrNotATransfer) {
		t.Fatalf("a transfer without a slip: %v", err)
	}
	req := client.MoveRequest{ItemID: "PUMP-1", Units: units(t, "30"), WID: 1, ShipToWID: 2, TransitSlip: "TS-9", ToSpot: new("IN")}
	_, err := north.Transfer(ctx, req)
	wantAPICode(t, err, stockroom.EFORBIDDEN)
	res, err := c.Transfer(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Type != stockroom.TxTransfer || res.TransitID == nil || level(t, c, "PUMP-1", 1).InStock != units(t, "20") || level(t, c, "PUMP-1", 2).ASN != units(t, "30") {
		t.Fatalf("transfer %+v", res)
	}
	tr, err := north.GetTransit(ctx, *res.TransitID)
	if err != nil || tr.TransitSlip != "TS-9" || tr.Lines[0].UnitsDue != units(t, "30") {
		t.Fatalf("GetTransit: %+v %v", tr, err)
	}
	got, err := north.ReceiveTransit(ctx, tr.ID, client.TransitReceiveRequest{Lines: []client.TransitReceiveLine{{Line: 1, Units: new(units(t, "12.5"))}}})
	if err != nil || got.Transit.Status != stockroom.TransitPartial || got.Lines[0].RecNo == nil {
		t.Fatalf("ReceiveTransit: %+v %v", got, err)
	}
	_, err = north.ReceiveTransit(ctx, tr.ID, client.TransitReceiveRequest{Lines: []client.TransitReceiveLine{{Line: 1, Units: new(units(t, "18"))}}})
	wantAPICode(t, err, stockroom.ECONFLICT)
	canceled, err := c.CancelTransit(ctx, tr.ID)
	if err != nil || canceled.Status != stockroom.TransitCanceled || level(t, c, "PUMP-1", 1).InStock != units(t, "37.5") {
		t.Fatalf("CancelTransit: %+v %v", canceled, err)
	}
	_, err = c.CancelTransit(ctx, tr.ID)
	wantAPICode(t, err, stockroom.ECONFLICT)

	for range 3 {
		if _, err := c.Transfer(ctx, client.MoveRequest{ItemID: "PUMP-1", Units: units(t, "1"), WID: 1, ShipToWID: 2, TransitSlip: "TS-X"}); err != nil {
			t.Fatal(err)
		}
	}
	var open, all []int64
	for tr, err := range north.Transits(ctx, client.TransitListOptions{ListOptions: client.ListOptions{PageSize: 2}}) {
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, tr.ID)
	}
	for tr, err := range c.Transits(ctx, client.TransitListOptions{IncludeEnded: true, WID: 1, ListOptions: client.ListOptions{PageSize: 2, Sort: "id"}}) {
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, tr.ID)
	}
	if len(open) != 3 || len(all) != 4 || all[0] != tr.ID {
		t.Fatalf("open transits %v, all %v", open, all)
	}
	canceledOnly, err := c.ListTransits(ctx, client.TransitListOptions{IncludeEnded: true, Status: stockroom.TransitCanceled})
	if err != nil || canceledOnly.TotalCount != 1 {
		t.Fatalf("canceled transits: %+v %v", canceledOnly, err)
	}
	shipAndReceiveNotice(t, s, c, north)
}

// shipAndReceiveNotice: a vendor's notice of 60 of 100 ordered, received
// whole by a client of the destination.
func shipAndReceiveNotice(t *testing.T, s *testServer, c, north *client.Client) {
	ctx := context.Background()
	if _, err := c.CreateVendor(ctx, client.PartyInput{ShortID: "V-9", Name: new("Vendor")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreatePurchaseOrder(ctx, client.PurchaseOrderRequest{PONo: "PO-9", VendorID: &stockroom.OwnerRef{ShortID: "V-9"},
		Lines: []client.PurchaseLineRequest{{ItemID: "PUMP-1", Units: new(units(t, "100")), Warehouse: 2}}}); err != nil {
		t.Fatal(err)
	}
	notice, err := c.ShipPurchaseOrder(ctx, "po-9", client.ShipNoticeRequest{ASN: "ASN-9", Lines: []client.ShipNoticeLine{{Line: 1, Units: units(t, "60")}}})
	if err != nil || notice.PONo != "PO-9" || level(t, c, "PUMP-1", 2).OnOrder != units(t, "40") {
		t.Fatalf("ShipPurchaseOrder: %+v %v", notice, err)
	}
	_, err = c.ShipPurchaseOrder(ctx, "PO-10", client.ShipNoticeRequest{ASN: "A", Lines: []client.ShipNoticeLine{{Line: 1, Units: units(t, "1")}}})
	wantAPICode(t, err, stockroom.ENOTFOUND)
	whole, err := north.ReceiveTransit(ctx, notice.ID, client.TransitReceiveRequest{})
	if err != nil || whole.Transit.Status != stockroom.TransitReceived || level(t, c, "PUMP-1", 2).InStock != units(t, "72.5") {
		t.Fatalf("a whole notice received: %+v %v", whole, err)
	}
	po, err := c.GetPurchaseOrder(ctx, "PO-9")
	if err != nil || po.Status != stockroom.OrderPartial || po.Lines[0].UnitsReceived != units(t, "60") || po.Lines[0].UnitsDue != units(t, "40") {
		t.Fatalf("the order after its notice: %+v %v", po, err)
	}
	if found, err := s.svc.Audit(ctx); err != nil || len(found) > 0 {
		t.Fatalf("audit: %v %v", found, err)
	}
}

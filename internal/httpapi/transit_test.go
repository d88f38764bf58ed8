package httpapi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// transitAPI is stockAPI with warehouse 3 too, and 50 of ITEM-A in bin A-01
// of warehouse 1.
func transitAPI(t *testing.T, a *api) string {
	t.Helper()
	tok := stockAPI(t, a)
	if err := a.svc.AddWarehouse(context.Background(), service.Operator, stockroom.Warehouse{ID: 3, Name: "Third"}); err != nil {
		t.Fatal(err)
	}
	a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 50, "wid": 1, "reasonCode": 1, "spot": "A-01", "serial": "S-1"}, 201)
	return tok
}

// scopedToken is a token of a new client with the permissions on the given
// warehouses (nil: all) and owners (nil: all).
func (a *api) scopedToken(t *testing.T, wids []int64, owners *stockroom.Scope, perms ...stockroom.Permission) string {
	t.Helper()
	scope := stockroom.Scope{IDs: wids, All: wids == nil}
	id, secret := a.addClient(t, service.NewClient{Permissions: perms, Scope: scope, Owners: owners})
	return a.token(t, id, secret)
}

// ship30 transfers 30 of ITEM-A from warehouse 1 to 2 and returns the
// transit's id.
func (a *api) ship30(t *testing.T, tok string) int64 {
	t.Helper()
	res := decode[stockroom.DrawResult](t, a.mustSend(t, "POST", "/api/v1/Inventory/Move", tok,
		map[string]any{"itemID": "ITEM-A", "units": 30, "wid": 1, "shipToWid": 2, "toSpot": "R-10", "transitSlip": "TS-1"}, 200))
	if res.Type != stockroom.TxTransfer || res.TransitID == nil || len(res.Lines) != 1 || res.Lines[0].Remaining != stockroom.Whole(20) {
		t.Fatalf("transfer answer %+v", res)
	}
	return *res.TransitID
}

// wantLevel checks ITEM-A's inStock and aSN in a warehouse.
func (a *api) wantLevel(t *testing.T, tok string, wid int, inStock, asn int64) {
	t.Helper()
	if l := a.levelOf(t, tok, "ITEM-A", wid); l.InStock != stockroom.Whole(inStock) || l.ASN != stockroom.Whole(asn) {
		t.Fatalf("warehouse %d: inStock %s, aSN %s; want %d and %d", wid, l.InStock, l.ASN, inStock, asn)
	}
}

// TestTransferStory is the issue's: 30 from warehouse 1 to 2 in transit.
// Warehouse 1's inStock drops at once, 2's aSN is 30 until received; a
// client scoped to warehouse 2 alone sees and receives it but cannot ship
// from 1; the cancel of what is left returns it to warehouse 1.
func TestTransferStory(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := transitAPI(t, a)
		north := a.scopedToken(t, []int64{2}, nil, stockroom.PermItemRead, stockroom.PermMove)
		r := a.send(t, "POST", "/api/v1/Inventory/Move", north, map[string]any{"itemID": "ITEM-A", "units": 30, "wid": 1, "shipToWid": 2, "transitSlip": "TS-1"})
		wantError(t, r, 403, stockroom.EFORBIDDEN)

		id := a.ship30(t, tok)
		a.wantLevel(t, tok, 1, 20, 0)
		a.wantLevel(t, tok, 2, 0, 30)
		a.auditClean(t)

		open := decode[stockroom.Envelope[stockroom.Transit]](t, a.get(t, "/api/v1/Transit", north))
		if open.TotalCount != 1 || open.Value[0].ID != id || open.Value[0].Status != stockroom.TransitInTransit || open.Value[0].ToSpot != "R-10" ||
			open.Value[0].Lines[0].Serial != "S-1" || open.Value[0].Lines[0].UnitsDue != stockroom.Whole(30) {
			t.Fatalf("GET /Transit as warehouse 2: %+v", open)
		}
		got := decode[stockroom.TransitReceiveResult](t, a.mustSend(t, "POST", fmt.Sprintf("/api/v1/Transit/%d/Receive", id), north,
			map[string]any{"lines": []any{map[string]any{"line": 1, "units": 10}}}, 200))
		if got.Transit.Status != stockroom.TransitPartial || got.Lines[0].RecNo == nil {
			t.Fatalf("receipt %+v", got)
		}
		lot := decode[stockroom.Envelope[stockroom.Lot]](t, a.get(t, "/api/v1/Inventory/2", north))
		if lot.TotalCount != 1 || lot.Value[0].Spot != "R-10" || lot.Value[0].Serial != "S-1" || lot.Value[0].Units != stockroom.Whole(10) {
			t.Fatalf("lots of warehouse 2: %+v", lot)
		}
		a.wantLevel(t, tok, 2, 10, 20)
		a.auditClean(t)

		// Warehouse 2 cannot send the rest back to 1, out of its scope.
		wantError(t, a.send(t, "POST", fmt.Sprintf("/api/v1/Transit/%d/Cancel", id), north, nil), 403, stockroom.EFORBIDDEN)
		tr := decode[stockroom.Transit](t, a.mustSend(t, "POST", fmt.Sprintf("/api/v1/Transit/%d/Cancel", id), tok, nil, 200))
		if tr.Status != stockroom.TransitCanceled {
			t.Fatalf("canceled %+v", tr)
		}
		a.wantLevel(t, tok, 1, 40, 0)
		a.wantLevel(t, tok, 2, 10, 0)
		a.auditClean(t)
		if p := decode[stockroom.Envelope[stockroom.Transit]](t, a.get(t, "/api/v1/Transit", north)); p.TotalCount != 0 {
			t.Fatalf("open transits after the cancel: %+v", p)
		}
		all := decode[stockroom.Envelope[stockroom.Transit]](t, a.get(t, "/api/v1/Transit/All?status=canceled&wid=1", tok))
		if all.TotalCount != 1 || all.Value[0].Lines[0].UnitsReceived != stockroom.Whole(10) || !all.Value[0].Lines[0].UnitsDue.IsZero() {
			t.Fatalf("GET /Transit/All: %+v", all)
		}
		ledger := decode[stockroom.Envelope[stockroom.Transaction]](t, a.get(t, "/api/v1/Inventory/Transactions?type=transit-cancel", north))
		if ledger.TotalCount != 1 || ledger.Value[0].Figures[0].ASN != stockroom.Whole(-20) {
			t.Fatalf("the cancel's ledger entry as warehouse 2 sees it: %+v", ledger)
		}
	})
}

// TestTransitVisibility: a transit is seen from either end, and by a client
// of one of its lines' owners; anyone else finds nothing.
func TestTransitVisibility(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := transitAPI(t, a)
		id := a.ship30(t, tok)
		path := fmt.Sprintf("/api/v1/Transit/%d", id)
		source := a.scopedToken(t, []int64{1}, nil, stockroom.PermItemRead, stockroom.PermMove)
		third := a.scopedToken(t, []int64{3}, nil, stockroom.PermItemRead, stockroom.PermMove)
		customer := int64(a.mustPost(t, tok, "/api/v1/Customer", map[string]any{"shortID": "C-1", "name": "Customer"}, 201)["customerID"].(float64))
		otherOwner := a.scopedToken(t, nil, &stockroom.Scope{IDs: []int64{customer}}, stockroom.PermItemRead, stockroom.PermMove)
		if tr := decode[stockroom.Transit](t, a.get(t, path, source)); tr.ID != id || *tr.FromWID != 1 {
			t.Fatalf("the source's view %+v", tr)
		}
		for _, tk := range []string{third, otherOwner} {
			wantError(t, a.get(t, path, tk), 404, stockroom.ENOTFOUND)
			wantError(t, a.send(t, "POST", path+"/Receive", tk, nil), 404, stockroom.ENOTFOUND)
			wantError(t, a.send(t, "POST", path+"/Cancel", tk, nil), 404, stockroom.ENOTFOUND)
			if p := decode[stockroom.Envelope[stockroom.Transit]](t, a.get(t, "/api/v1/Transit/All", tk)); p.TotalCount != 0 || len(p.Value) != 0 {
				t.Fatalf("a client that may not see the transit lists %+v", p)
			}
		}
		// The source sees it but may not receive it: the destination is not its.
		wantError(t, a.send(t, "POST", path+"/Receive", source, nil), 403, stockroom.EFORBIDDEN)
		a.mustSend(t, "POST", path+"/Cancel", source, nil, 200)
		a.auditClean(t)
	})
}

// TestNoticeStory: an order of 100; the vendor ships 60 (onOrder 40, aSN
// 60); 55 arrive and 5 are rejected (inStock 55, aSN 0).
func TestNoticeStory(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := transitAPI(t, a)
		vendor := a.mustPost(t, tok, "/api/v1/Vendor", map[string]any{"shortID": "V-1", "name": "Vendor One"}, 201)["vendorID"].(float64)
		a.mustPost(t, tok, "/api/v1/PurchaseOrder", map[string]any{"poNo": "PO-7", "vendorID": "V-1", "lines": []any{
			line("itemID", "ITEM-A", "units", 100, "unitPrice", 1.25, "warehouse", 2)}}, 201)
		if l := a.levelOf(t, tok, "ITEM-A", 2); l.OnOrder != stockroom.Whole(100) || l.ASN.Sign() != 0 {
			t.Fatalf("after the order: %+v", l)
		}
		r := a.mustSend(t, "POST", "/api/v1/PurchaseOrder/po-7/Ship", tok, map[string]any{"asn": "ASN-1", "lines": []any{map[string]any{"line": 1, "units": 60}}}, 201)
		tr := decode[stockroom.Transit](t, r)
		if r.header.Get("Location") != fmt.Sprintf("/api/v1/Transit/%d", tr.ID) || tr.ASN != "ASN-1" || tr.PONo != "PO-7" || tr.Kind != stockroom.TransitASN {
			t.Fatalf("notice %s %+v", r.header.Get("Location"), tr)
		}
		if l := a.levelOf(t, tok, "ITEM-A", 2); l.OnOrder != stockroom.Whole(40) || l.ASN != stockroom.Whole(60) {
			t.Fatalf("after the notice: %+v", l)
		}
		a.auditClean(t)
		got := decode[stockroom.TransitReceiveResult](t, a.mustSend(t, "POST", fmt.Sprintf("/api/v1/Transit/%d/Receive", tr.ID), tok,
			map[string]any{"spot": "DOCK", "lines": []any{map[string]any{"line": 1, "rejected": 5, "reasonCode": 20}}}, 200))
		if got.Transit.Status != stockroom.TransitReceived || got.Lines[0].Units != stockroom.Whole(55) || got.Lines[0].Rejected != stockroom.Whole(5) {
			t.Fatalf("receipt %+v", got)
		}
		lots := decode[stockroom.Envelope[stockroom.Lot]](t, a.get(t, "/api/v1/Inventory/2?spot=DOCK", tok))
		if lots.TotalCount != 1 || lots.Value[0].Price != stockroom.MustParseUnits("1.25") || lots.Value[0].Supplier != int64(vendor) ||
			lots.Value[0].Reference != "PO-7" || lots.Value[0].Line != 1 || lots.Value[0].Units != stockroom.Whole(55) {
			t.Fatalf("the received lot: %+v", lots)
		}
		if l := a.levelOf(t, tok, "ITEM-A", 2); l.InStock != stockroom.Whole(55) || l.ASN.Sign() != 0 || l.OnOrder != stockroom.Whole(40) {
			t.Fatalf("after the receipt: %+v", l)
		}
		po := decode[stockroom.PurchaseOrder](t, a.get(t, "/api/v1/PurchaseOrder/PO-7", tok))
		if l := po.Lines[0]; po.Status != stockroom.OrderPartial || l.UnitsReceived != stockroom.Whole(55) || l.UnitsRejected != stockroom.Whole(5) ||
			l.UnitsInTransit.Sign() != 0 || l.UnitsDue != stockroom.Whole(40) {
			t.Fatalf("the order after the receipt: %s %+v", po.Status, l)
		}
		entry := decode[stockroom.Transaction](t, a.get(t, fmt.Sprintf("/api/v1/Inventory/Transactions/%d", *got.Lines[0].TransactionID), tok))
		if entry.Type != stockroom.TxTransitReceive || entry.Details["poNo"] != "PO-7" || entry.Details["asn"] != "ASN-1" || len(entry.Lines) != 1 {
			t.Fatalf("ledger entry %+v", entry)
		}
		a.auditClean(t)
	})
}

// TestTransitReceiptIsIdempotent: a receipt repeated with its key is
// answered again and applied once; the key with another body is 422.
func TestTransitReceiptIsIdempotent(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := transitAPI(t, a)
		id := a.ship30(t, tok)
		path := fmt.Sprintf("/api/v1/Transit/%d/Receive", id)
		body := `{"lines":[{"line":1,"units":10}]}`
		send := func(body string) response {
			return a.do(t, "POST", path, strings.NewReader(body), "Authorization", "Bearer "+tok, "Content-Type", "application/json", "Idempotency-Key", "rcv-1")
		}
		first, again := send(body), send(` {"LINES":[{"units":10.0,"line":1}]}`)
		if first.status != 200 || again.status != 200 || string(again.body) != string(first.body) || again.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("first %d %s; again %d %s %v", first.status, first.body, again.status, again.body, again.header)
		}
		a.wantLevel(t, tok, 2, 10, 20)
		wantError(t, send(`{}`), 422, stockroom.EIDEMPOTENCY)
		a.wantLevel(t, tok, 2, 10, 20)
		a.auditClean(t)
	})
}

// TestNoticeLinesOfOtherOwners: a client limited to owners sees a notice by
// its own lines, and only those, and may receive them but not the others'.
func TestNoticeLinesOfOtherOwners(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := transitAPI(t, a)
		customer := int64(a.mustPost(t, tok, "/api/v1/Customer", map[string]any{"shortID": "C-1", "name": "Customer"}, 201)["customerID"].(float64))
		a.placeOrder(t, tok, customer)
		tr := decode[stockroom.Transit](t, a.mustSend(t, "POST", "/api/v1/PurchaseOrder/PO-7/Ship", tok,
			map[string]any{"asn": "ASN-1", "lines": []any{line("line", 3, "units", 4), line("line", 1, "units", 5)}}, 201))
		if len(tr.Lines) != 2 || tr.Lines[0].Owner != customer || *tr.Lines[0].POLine != 3 {
			t.Fatalf("notice %+v", tr)
		}
		mine := a.scopedToken(t, nil, &stockroom.Scope{IDs: []int64{customer}}, stockroom.PermItemRead, stockroom.PermMove)
		seen := decode[stockroom.Transit](t, a.get(t, fmt.Sprintf("/api/v1/Transit/%d", tr.ID), mine))
		if len(seen.Lines) != 1 || seen.Lines[0].Line != 1 || seen.Lines[0].Owner != customer {
			t.Fatalf("the customer's view %+v", seen)
		}
		path := fmt.Sprintf("/api/v1/Transit/%d/Receive", tr.ID)
		// Another owner's line is as one the transit lacks.
		hidden := wantError(t, a.send(t, "POST", path, mine, map[string]any{"lines": []any{line("line", 2)}}), 400, stockroom.EINVALID)
		missing := wantError(t, a.send(t, "POST", path, mine, map[string]any{"lines": []any{line("line", 9)}}), 400, stockroom.EINVALID)
		if fmt.Sprint(hidden) != fmt.Sprint(missing) {
			t.Errorf("another owner's line: %v; a missing one: %v", hidden, missing)
		}
		wantError(t, a.send(t, "POST", path, mine, nil), 403, stockroom.EFORBIDDEN) // every line due, the other's too
		got := decode[stockroom.TransitReceiveResult](t, a.mustSend(t, "POST", path, mine, map[string]any{"lines": []any{line("line", 1)}}, 200))
		if got.Transit.Status != stockroom.TransitPartial || got.Lines[0].Units != stockroom.Whole(4) {
			t.Fatalf("the customer's receipt %+v", got)
		}
		a.auditClean(t)
	})
}

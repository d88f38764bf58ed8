package httpapi_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// refusal is a request that must be refused, changing nothing.
type refusal struct {
	name         string
	method, path string
	tok          string
	body         any // a string is sent as it is
	status       int
	code         string
	fields       []string // a validation error's fields, sorted
	msg          string   // part of the message
}

// check sends the request and checks its refusal.
func (c refusal) check(t *testing.T, a *api) {
	t.Helper()
	r := a.send(t, c.method, c.path, c.tok, c.body)
	v := wantError(t, r, c.status, c.code)
	if c.fields != nil && !slices.Equal(detailFields(v), c.fields) {
		t.Fatalf("%s: fields %v (%s), want %v", c.name, detailFields(v), r.body, c.fields)
	}
	if !strings.Contains(v["message"].(string), c.msg) {
		t.Fatalf("%s: message %q, want it to hold %q", c.name, v["message"], c.msg)
	}
}

// runRefusals runs each refusal as a subtest, then checks that none of
// them changed the stock or the ledger, and that the audit holds.
func runRefusals(t *testing.T, a *api, tok string, cases []refusal) {
	t.Helper()
	before, ledger := a.stockState(t, tok)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.check(t, a) })
	}
	if after, n := a.stockState(t, tok); after != before || n != ledger {
		t.Fatal("a refused request changed the stock or the ledger")
	}
	a.auditClean(t)
}

// placeOrder places PO-7 for the admin's view: line 1 of 100 ITEM-A for
// warehouse 2, line 2 of 10 ITEM-B for warehouse 3, line 3 of 10 ITEM-A
// for warehouse 2 owned by customer owner.
func (a *api) placeOrder(t *testing.T, tok string, owner int64) {
	t.Helper()
	a.mustPost(t, tok, "/api/v1/Vendor", map[string]any{"shortID": "V-1", "name": "Vendor One"}, 201)
	a.mustPost(t, tok, "/api/v1/PurchaseOrder", map[string]any{"poNo": "PO-7", "vendorID": "V-1", "lines": []any{
		line("itemID", "ITEM-A", "units", 100, "warehouse", 2),
		line("itemID", "ITEM-B", "units", 10, "warehouse", 3),
		line("itemID", "ITEM-A", "units", 10, "warehouse", 2, "owner", owner),
	}}, 201)
}

func line(fields ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(fields); i += 2 {
		m[fields[i].(string)] = fields[i+1]
	}
	return m
}

// TestTransitRefusals: every 400, 403, 404 and 409 of the transit
// endpoints and of a transfer, each changing nothing.
func TestTransitRefusals(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := transitAPI(t, a)
		customer := int64(a.mustPost(t, tok, "/api/v1/Customer", map[string]any{"shortID": "C-1", "name": "Customer"}, 201)["customerID"].(float64))
		a.placeOrder(t, tok, customer)
		id := a.ship30(t, tok)
		notice := decode[stockroom.Transit](t, a.mustSend(t, "POST", "/api/v1/PurchaseOrder/PO-7/Ship", tok,
			map[string]any{"asn": "ASN-1", "lines": []any{line("line", 1, "units", 5), line("line", 3, "units", 5)}}, 201)).ID
		paths := transitPaths{transit: fmt.Sprintf("/api/v1/Transit/%d", id), notice: fmt.Sprintf("/api/v1/Transit/%d", notice)}
		runRefusals(t, a, tok, transitRefusals(t, a, tok, paths))
		tpath, npath, move := paths.transit, paths.notice, "/api/v1/Inventory/Move"
		ship, good := "/api/v1/PurchaseOrder/PO-7/Ship", map[string]any{"asn": "ASN-2", "lines": []any{line("line", 1, "units", 1)}}
		second := a.scopedToken(t, []int64{2}, nil, stockroom.AllPermissions...)
		houseOnly := a.scopedToken(t, nil, &stockroom.Scope{IDs: []int64{0}}, stockroom.AllPermissions...)

		// The state refusals: an inactive destination, an ended transit, an
		// ended order.
		off, on := false, true
		setActive := func(active *bool) {
			if _, err := a.svc.UpdateWarehouse(context.Background(), service.Operator, 2, stockroom.WarehouseChange{Active: active}); err != nil {
				t.Fatal(err)
			}
		}
		setActive(&off)
		runRefusals(t, a, tok, []refusal{
			{"TransferToInactive", "POST", move, tok, map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "shipToWid": 2, "transitSlip": "T"}, 409, stockroom.ECONFLICT, nil, "Warehouse 2 is inactive"},
			{"ReceiveAtInactive", "POST", tpath + "/Receive", tok, nil, 409, stockroom.ECONFLICT, nil, "Warehouse 2 is inactive"},
		})
		setActive(&on)
		a.mustSend(t, "POST", npath+"/Receive", houseOnly, map[string]any{"lines": []any{line("line", 1)}}, 200)
		a.mustSend(t, "POST", tpath+"/Receive", second, nil, 200)
		a.mustSend(t, "POST", "/api/v1/PurchaseOrder/PO-7/Close", tok, nil, 200)
		runRefusals(t, a, tok, []refusal{
			{"ReceiveReceived", "POST", tpath + "/Receive", tok, nil, 409, stockroom.ECONFLICT, nil, fmt.Sprintf("Transit %d is Received; only a transit on its way can be received.", id)},
			{"CancelReceived", "POST", tpath + "/Cancel", tok, nil, 409, stockroom.ECONFLICT, nil, "only a transit on its way can be canceled"},
			{"ShipClosedOrder", "POST", ship, tok, good, 409, stockroom.ECONFLICT, nil, "Purchase order PO-7 is Closed; only an open order can ship."},
		})
	})
}

// transitPaths are the paths of the transits TestTransitRefusals refuses
// requests about: a transfer of 30 from warehouse 1 to 2, and a notice of
// PO-7 lines 1 and 3 (the house's and a customer's) for warehouse 2.
type transitPaths struct{ transit, notice string }

// transitRefusals are the refusals of TestTransitRefusals that the state
// of the data does not change.
func transitRefusals(t *testing.T, a *api, tok string, p transitPaths) []refusal {
	var (
		readOnly  = a.clientToken(t, true, stockroom.AllPermissions...)
		reader    = a.clientToken(t, false, stockroom.PermItemRead)
		mover     = a.clientToken(t, false, stockroom.PermItemRead, stockroom.PermMove)
		noRead    = a.clientToken(t, false, stockroom.PermMove)
		third     = a.scopedToken(t, []int64{3}, nil, stockroom.AllPermissions...)
		second    = a.scopedToken(t, []int64{2}, nil, stockroom.AllPermissions...)
		first     = a.scopedToken(t, []int64{1}, nil, stockroom.AllPermissions...)
		houseOnly = a.scopedToken(t, nil, &stockroom.Scope{IDs: []int64{0}}, stockroom.AllPermissions...)
		ship      = "/api/v1/PurchaseOrder/PO-7/Ship"
		tpath     = p.transit
		npath     = p.notice
		move      = "/api/v1/Inventory/Move"
		good      = map[string]any{"asn": "ASN-2", "lines": []any{line("line", 1, "units", 1)}}
		forbidden = stockroom.MsgOutOfScope
	)
	return []refusal{
		{"ShipReadOnly", "POST", ship, readOnly, good, 403, stockroom.EFORBIDDEN, nil, stockroom.MsgReadOnly},
		{"ShipWithout301", "POST", ship, mover, good, 403, stockroom.EFORBIDDEN, nil, stockroom.MsgNoPermission},
		{"ShipNotJSON", "POST", ship, tok, "asn", 400, stockroom.EBADREQUEST, nil, ""},
		{"ShipNothing", "POST", ship, tok, map[string]any{}, 400, stockroom.EINVALID, []string{"asn", "lines"}, ""},
		{"ShipLinesNotArray", "POST", ship, tok, map[string]any{"asn": "A", "lines": "1"}, 400, stockroom.EINVALID, []string{"lines"}, ""},
		{"ShipLineNotObject", "POST", ship, tok, map[string]any{"asn": "A", "lines": []any{1}}, 400, stockroom.EINVALID, []string{"lines[0]", "lines[0].line", "lines[0].units"}, ""},
		{"ShipBadLine", "POST", ship, tok, map[string]any{"asn": strings.Repeat("x", 101), "lines": []any{line("line", 0, "units", -1, "serial", 5)}}, 400,
			stockroom.EINVALID, []string{"asn", "lines[0].line", "lines[0].serial", "lines[0].units"}, ""},
		{"ShipUnknownOrder", "POST", "/api/v1/PurchaseOrder/PO-8/Ship", tok, good, 404, stockroom.ENOTFOUND, nil, `No purchase order "PO-8".`},
		{"ShipUnknownLine", "POST", ship, tok, map[string]any{"asn": "A", "lines": []any{line("line", 9, "units", 1)}}, 400, stockroom.EINVALID, []string{"lines[0].line"}, ""},
		{"ShipTwoWarehouses", "POST", ship, tok, map[string]any{"asn": "A", "lines": []any{line("line", 1, "units", 1), line("line", 2, "units", 1)}}, 400,
			stockroom.EINVALID, []string{"lines[1].line"}, ""},
		// A line the client does not see (of another warehouse, of another
		// owner) is as one the order lacks.
		{"ShipOutOfScope", "POST", ship, third, good, 400, stockroom.EINVALID, []string{"lines[0].line"}, ""},
		{"ShipOtherOwner", "POST", ship, houseOnly, map[string]any{"asn": "A", "lines": []any{line("line", 3, "units", 1)}}, 400, stockroom.EINVALID, []string{"lines[0].line"}, ""},

		{"TransferToItsOwnWarehouse", "POST", move, tok, map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "shipToWid": 1, "toSpot": "B", "transitSlip": "T"}, 400,
			stockroom.EINVALID, []string{"shipToWid"}, ""},
		{"TransferToNoWarehouse", "POST", move, tok, map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "shipToWid": 99, "transitSlip": "T"}, 404, stockroom.ENOTFOUND, nil, "Warehouse 99 does not exist."},
		{"ScopedTransferToNoWarehouse", "POST", move, first, map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "shipToWid": 99, "transitSlip": "T"}, 403, stockroom.EFORBIDDEN, nil, forbidden},
		{"TransferFromOutOfScope", "POST", move, second, map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "shipToWid": 2, "transitSlip": "T"}, 403, stockroom.EFORBIDDEN, nil, forbidden},
		{"TransferShort", "POST", move, first, map[string]any{"itemID": "ITEM-A", "units": 21, "wid": 1, "shipToWid": 3, "transitSlip": "T"}, 409, stockroom.ECONFLICT, nil, "Insufficient stock: 21 units requested, 20 available."},

		{"GetWithout11", "GET", tpath, noRead, nil, 403, stockroom.EFORBIDDEN, nil, stockroom.MsgNoPermission},
		{"GetNotAnID", "GET", "/api/v1/Transit/x", tok, nil, 404, stockroom.ENOTFOUND, nil, ""},
		{"GetUnknown", "GET", "/api/v1/Transit/999", tok, nil, 404, stockroom.ENOTFOUND, nil, "No transit 999."},
		{"ListWithout11", "GET", "/api/v1/Transit", noRead, nil, 403, stockroom.EFORBIDDEN, nil, stockroom.MsgNoPermission},
		{"ListBadFilters", "GET", "/api/v1/Transit/All?status=gone&wid=x&page=0", tok, nil, 400, stockroom.EINVALID, []string{"page", "status", "wid"}, ""},
		{"ListOtherWarehouse", "GET", "/api/v1/Transit?wid=3", second, nil, 403, stockroom.EFORBIDDEN, nil, forbidden},
		{"ListNoWarehouse", "GET", "/api/v1/Transit?wid=99", tok, nil, 404, stockroom.ENOTFOUND, nil, ""},
		{"ListOtherOwner", "GET", "/api/v1/Transit?owner=C-1", houseOnly, nil, 403, stockroom.EFORBIDDEN, nil, stockroom.MsgOwnerOutOfScope},

		{"ReceiveReadOnly", "POST", tpath + "/Receive", readOnly, nil, 403, stockroom.EFORBIDDEN, nil, stockroom.MsgReadOnly},
		{"ReceiveWithout15", "POST", tpath + "/Receive", reader, nil, 403, stockroom.EFORBIDDEN, nil, stockroom.MsgNoPermission},
		{"ReceiveNotJSON", "POST", tpath + "/Receive", tok, "lines", 400, stockroom.EBADREQUEST, nil, ""},
		{"ReceiveBadLines", "POST", tpath + "/Receive", tok, map[string]any{"spot": 5, "lines": []any{line("units", -1), line("line", 1, "rejected", 2),
			line("line", 1, "rejected", 2, "reasonCode", 1), line("line", 1, "units", 0), line("line", 1, "reasonCode", 99)}}, 400, stockroom.EINVALID,
			[]string{"lines[0].line", "lines[0].units", "lines[1].reasonCode", "lines[2].reasonCode", "lines[3].units", "lines[4].reasonCode", "spot"}, ""},
		{"ReceiveNotAnID", "POST", "/api/v1/Transit/x/Receive", tok, nil, 404, stockroom.ENOTFOUND, nil, ""},
		{"ReceiveUnknown", "POST", "/api/v1/Transit/999/Receive", tok, nil, 404, stockroom.ENOTFOUND, nil, "No transit 999."},
		{"ReceiveUnseen", "POST", tpath + "/Receive", third, nil, 404, stockroom.ENOTFOUND, nil, ""},
		{"ReceiveAtTheSource", "POST", tpath + "/Receive", first, nil, 403, stockroom.EFORBIDDEN, nil, forbidden},
		{"ReceiveOtherOwnersLines", "POST", npath + "/Receive", houseOnly, nil, 403, stockroom.EFORBIDDEN, nil, stockroom.MsgOwnerOutOfScope},
		{"ReceiveNoSuchLine", "POST", tpath + "/Receive", tok, map[string]any{"lines": []any{line("line", 2)}}, 400, stockroom.EINVALID, []string{"lines[0].line"}, ""},
		{"ReceiveMoreThanDue", "POST", tpath + "/Receive", second, map[string]any{"lines": []any{line("line", 1, "units", 29, "rejected", 2, "reasonCode", 22)}}, 409,
			stockroom.ECONFLICT, nil, "line 1 has 30 units due; 31 units given (29 received, 2 rejected)"},

		{"CancelReadOnly", "POST", tpath + "/Cancel", readOnly, nil, 403, stockroom.EFORBIDDEN, nil, stockroom.MsgReadOnly},
		{"CancelWithout15", "POST", tpath + "/Cancel", reader, nil, 403, stockroom.EFORBIDDEN, nil, stockroom.MsgNoPermission},
		{"CancelNotAnID", "POST", "/api/v1/Transit/0/Cancel", tok, nil, 404, stockroom.ENOTFOUND, nil, ""},
		{"CancelUnknown", "POST", "/api/v1/Transit/999/Cancel", tok, nil, 404, stockroom.ENOTFOUND, nil, ""},
		{"CancelAtTheDestination", "POST", tpath + "/Cancel", second, nil, 403, stockroom.EFORBIDDEN, nil, forbidden},
		{"CancelNoticeAtTheSource", "POST", npath + "/Cancel", first, nil, 404, stockroom.ENOTFOUND, nil, ""},
	}
}

package httpapi_test

import (
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// shippingRefusals are requests to /api/v1/ShippingOrder+path by the
// client tok (shippingClients; "none": no token) and the error each gets:
// for a validation error want is its detail fields, else a part of its
// message. Order SO-1 has lines in warehouses 1 and 2, order TWO in 2 only,
// all of the house's stock.
var shippingRefusals = []struct {
	name, tok, method, path string
	body                    any
	status                  int
	code, want              string
}{
	{"NoToken", "none", "GET", "", nil, 401, stockroom.EUNAUTHORIZED, "token"},
	{"NoTokenToPlace", "none", "POST", "", nil, 401, stockroom.EUNAUTHORIZED, "token"},
	{"ReadOnlyPlaces", "readOnly", "POST", "", shipment("", 7, 1), 403, stockroom.EFORBIDDEN, stockroom.MsgReadOnly},
	{"ReadOnlyChanges", "readOnly", "PUT", "", `{}`, 403, stockroom.EFORBIDDEN, stockroom.MsgReadOnly},
	{"ReaderPlaces", "reader", "POST", "", `not json`, 403, stockroom.EFORBIDDEN, stockroom.MsgNoPermission},
	{"ReaderChanges", "reader", "PUT", "", shipment("SO-1", 7, 1), 403, stockroom.EFORBIDDEN, stockroom.MsgNoPermission},
	{"PurchaserPlaces", "purchase", "POST", "", shipment("", 7, 1), 403, stockroom.EFORBIDDEN, stockroom.MsgNoPermission},
	{"WriterLists", "writer", "GET", "/All?pageSize=0", nil, 403, stockroom.EFORBIDDEN, stockroom.MsgNoPermission},
	{"WriterReads", "writer", "GET", "/SO-1", nil, 403, stockroom.EFORBIDDEN, stockroom.MsgNoPermission},
	{"NotAnObject", "admin", "POST", "", `[1]`, 400, stockroom.EBADREQUEST, "JSON"},
	{"NotJSON", "admin", "PUT", "", `{"soNo":`, 400, stockroom.EBADREQUEST, "JSON"},
	{"Empty", "admin", "POST", "", `{}`, 400, stockroom.EINVALID, "customerID lines"},
	{"UnknownCustomer", "admin", "POST", "", shipment("", 99, 1), 400, stockroom.EINVALID, "customerID"},
	{"VendorAsCustomer", "admin", "POST", "", `{"customerID":"BOLTCO","lines":[{"itemID":"ITEM-A","units":1,"wid":1}]}`, 400, stockroom.EINVALID, "customerID"},
	{"HiddenCustomer", "limited", "POST", "", `{"customerID":"C-8","owner":7,"lines":[{"itemID":"ITEM-A","units":1,"wid":1}]}`, 400, stockroom.EINVALID, "customerID"},
	{"ReservedNumber", "admin", "POST", "", `{"soNo":" all ","customerID":"","lines":[{"itemID":"ITEM-A","units":1,"wid":1}]}`, 400, stockroom.EINVALID, "customerID soNo"},
	{"BadLines", "admin", "POST", "", `{"customerID":7,"owner":"NOBODY","lines":[{"units":0,"owner":"NOBODY"},7]}`, 400, stockroom.EINVALID,
		"lines[0].itemID lines[0].owner lines[0].units lines[0].warehouse lines[1] lines[1].itemID lines[1].units lines[1].warehouse owner"},
	{"WrongTypes", "admin", "POST", "", `{"customerID":7,"shipDate":"soon","lines":[{"itemID":"ITEM-A","units":"1","warehouse":1,"wid":2}]}`, 400, stockroom.EINVALID,
		"lines[0].units lines[0].wid shipDate"},
	{"NoNumber", "admin", "PUT", "", `{"remark":1}`, 400, stockroom.EINVALID, "remark soNo"},
	{"OtherCustomer", "admin", "PUT", "", `{"soNo":"SO-1","customerID":8}`, 400, stockroom.EINVALID, "customerID"},
	{"NoSuchLine", "admin", "PUT", "", `{"soNo":"SO-1","lines":[{"lineNo":9,"units":1}]}`, 400, stockroom.EINVALID, "lines[0].lineNo"},
	{"FixedFields", "admin", "PUT", "", `{"soNo":"SO-1","lines":[{"lineNo":1,"itemID":"ITEM-B","warehouse":2,"owner":7}]}`, 400, stockroom.EINVALID,
		"lines[0].itemID lines[0].owner lines[0].warehouse"},
	{"LineTwice", "admin", "PUT", "", `{"soNo":"SO-1","lines":[{"lineNo":1,"units":9},{"lineNo":1,"units":8}]}`, 400, stockroom.EINVALID, "lines[1].lineNo"},
	{"PageSize", "admin", "GET", "?pageSize=0", nil, 400, stockroom.EINVALID, "pageSize"},
	{"StatusAndDate", "admin", "GET", "?status=shipped&startDate=no", nil, 400, stockroom.EINVALID, "startDate status"},
	{"DateAndWarehouse", "admin", "GET", "/All?endDate=x&wid=x", nil, 400, stockroom.EINVALID, "endDate wid"},
	{"NoSuchOwner", "admin", "GET", "?owner=99", nil, 400, stockroom.EINVALID, "owner"},
	{"LineOutOfScope", "scoped", "POST", "", shipment("", 7, 1, 2), 403, stockroom.EFORBIDDEN, stockroom.MsgOutOfScope},
	{"UnknownWarehouseOutOfScope", "scoped", "POST", "", shipment("", 7, 99), 403, stockroom.EFORBIDDEN, stockroom.MsgOutOfScope},
	{"OrderOutOfScope", "scoped", "PUT", "", `{"soNo":"SO-1","remark":"x"}`, 403, stockroom.EFORBIDDEN, stockroom.MsgOutOfScope},
	{"ListOutOfScope", "scoped", "GET", "?wid=2", nil, 403, stockroom.EFORBIDDEN, stockroom.MsgOutOfScope},
	{"OtherOwnersLine", "limited", "POST", "", `{"customerID":7,"lines":[{"itemID":"ITEM-A","units":1,"wid":1,"owner":"C-8"}]}`, 403, stockroom.EFORBIDDEN, stockroom.MsgOwnerOutOfScope},
	{"OtherOwnerForAll", "limited", "POST", "", `{"customerID":7,"owner":8,"lines":[{"itemID":"ITEM-A","units":1,"wid":1}]}`, 403, stockroom.EFORBIDDEN, stockroom.MsgOwnerOutOfScope},
	{"ItemsDefaultOwner", "twoOwners", "POST", "", shipment("", 7, 1), 403, stockroom.EFORBIDDEN, stockroom.MsgOwnerOutOfScope},
	{"ListOtherOwner", "limited", "GET", "/All?owner=C-8", nil, 403, stockroom.EFORBIDDEN, stockroom.MsgOwnerOutOfScope},
	{"NoSuchOrder", "admin", "GET", "/NOPE", nil, 404, stockroom.ENOTFOUND, `No shipping order "NOPE".`},
	{"ChangeNoSuchOrder", "admin", "PUT", "", `{"soNo":"NOPE","remark":"x"}`, 404, stockroom.ENOTFOUND, `No shipping order "NOPE".`},
	{"NoSuchItem", "admin", "POST", "", `{"customerID":7,"lines":[{"itemID":"NO-SUCH","units":1,"wid":1}]}`, 404, stockroom.ENOTFOUND, "NO-SUCH"},
	{"NoSuchWarehouse", "admin", "POST", "", shipment("", 7, 99), 404, stockroom.ENOTFOUND, "99"},
	{"ListNoSuchWarehouse", "admin", "GET", "?wid=99", nil, 404, stockroom.ENOTFOUND, "99"},
	{"OrderUnseenByScope", "scoped", "GET", "/TWO", nil, 404, stockroom.ENOTFOUND, "TWO"},
	{"ChangeUnseenByScope", "scoped", "PUT", "", `{"soNo":"two","remark":"x"}`, 404, stockroom.ENOTFOUND, "two"},
	{"OrderUnseenByOwner", "limited", "GET", "/so-1", nil, 404, stockroom.ENOTFOUND, "so-1"},
	{"ChangeUnseenByOwner", "limited", "PUT", "", `{"soNo":"SO-1","remark":"x"}`, 404, stockroom.ENOTFOUND, "SO-1"},
	{"NumberTaken", "admin", "POST", "", shipment("so-1", 7, 1), 409, stockroom.ECONFLICT, "exists already"},
}

// TestShippingOrderRefusals: every 4xx of the shipping order endpoints, in
// the order of contract §2.
func TestShippingOrderRefusals(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok, _ := shipAPI(t, a)
		a.mustSend(t, "POST", "/api/v1/ShippingOrder", tok, shipment("TWO", 8, 2), 201)
		toks := shippingClients(t, a)
		toks["admin"] = tok
		runRefusalTable(t, a, "/api/v1/ShippingOrder", toks, shippingRefusals)
		t.Run("State", func(t *testing.T) { testShippingState(t, a, tok) })
		a.auditClean(t)
	})
}

// shippingClients makes the clients the refusals are sent by.
func shippingClients(t *testing.T, a *api) map[string]string {
	scoped, secret := a.addClient(t, service.NewClient{Permissions: stockroom.AllPermissions, Scope: stockroom.Scope{IDs: []int64{1}}})
	limited, secret2 := a.addClient(t, service.NewClient{Permissions: stockroom.AllPermissions, Scope: stockroom.Scope{All: true},
		Owners: &stockroom.Scope{IDs: []int64{ownerA}}})
	_, twoOwners := a.ownerClient(t, ownerA, ownerB)
	return map[string]string{
		"readOnly": a.clientToken(t, true, stockroom.AllPermissions...),
		"reader":   a.clientToken(t, false, 11),
		"writer":   a.clientToken(t, false, 302),
		"purchase": a.clientToken(t, false, 11, 301),
		"scoped":   a.token(t, scoped, secret),
		"limited":  a.token(t, limited, secret2),
		// A client of several owners defaults to the item's dfltOwner (a
		// client of one, to that owner: TestSoleOwnerIsTheDefault).
		"twoOwners": twoOwners,
	}
}

// testShippingState: the refusals that depend on state, and what an
// ended item, warehouse or owner does not refuse.
func testShippingState(t *testing.T, a *api, tok string) {
	a.setCustomerActive(t, ownerB, false)
	defer a.setCustomerActive(t, ownerB, true)
	v := wantError(t, a.send(t, "POST", "/api/v1/ShippingOrder", tok, shipment("", 8, 1)), 400, stockroom.EINVALID)
	if d := v["details"].(map[string]any)["customerID"].([]any); !strings.Contains(d[0].(string), "inactive customer") {
		t.Errorf("an inactive customer: %v", d)
	}
	a.mustSend(t, "PUT", "/api/v1/ShippingOrder", tok, map[string]any{"soNo": "TWO", "customerID": 8, "remark": "still its customer"}, 200)
	// What stock is left of a discontinued item, or of an inactive
	// customer, can still ship, from an inactive warehouse too.
	a.mustSend(t, "DELETE", "/api/v1/Item/ITEM-B", tok, nil, 200)
	if _, err := a.svc.UpdateWarehouse(t.Context(), service.Operator, 2, stockroom.WarehouseChange{Active: new(false)}); err != nil {
		t.Fatal(err)
	}
	a.mustSend(t, "POST", "/api/v1/ShippingOrder", tok, `{"customerID":7,"lines":[{"itemID":"ITEM-B","units":1,"wid":2,"owner":8}]}`, 201)
	a.setLine(t, "TWO", 0, "status = 'Closed'")
	v = wantError(t, a.send(t, "PUT", "/api/v1/ShippingOrder", tok, `{"soNo":"TWO","remark":"late"}`), 409, stockroom.ECONFLICT)
	if msg := v["message"].(string); msg != "Shipping order TWO is Closed; only an open order can be changed." {
		t.Errorf("message %q", msg)
	}
}

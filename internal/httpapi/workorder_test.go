package httpapi_test

import (
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
)

// work is a work order body building units of ITEM-B at warehouse wid from
// perUnit ITEM-A each; no ("") is left out.
func work(no string, wid int64, units, perUnit any) map[string]any {
	body := map[string]any{"itemID": "ITEM-B", "units": units, "wid": wid, "components": []any{map[string]any{"itemID": "ITEM-A", "units": perUnit}}}
	if no != "" {
		body["woNo"] = no
	}
	return body
}

// workRefusals are requests to /api/v1/WorkOrder+path by the client tok
// (workClients; "none": no token) and the error each gets, as
// shippingRefusals. Order WO-1 (3 of ITEM-B from 2 ITEM-A each) is in
// warehouse 1, of the house; TWO in warehouse 2, of customer 8; FINE needs
// a millionth of ITEM-A per product.
var workRefusals = []tableRefusal{
	{"NoToken", "none", "GET", "", nil, 401, stockroom.EUNAUTHORIZED, "token"},
	{"NoTokenToComplete", "none", "POST", "/WO-1/Complete", nil, 401, stockroom.EUNAUTHORIZED, "token"},
	{"ReadOnlyPlaces", "readOnly", "POST", "", work("", 1, 1, 1), 403, stockroom.EFORBIDDEN, stockroom.MsgReadOnly},
	{"ReadOnlyCompletes", "readOnly", "POST", "/WO-1/Complete", `{"units":1}`, 403, stockroom.EFORBIDDEN, stockroom.MsgReadOnly},
	{"ReaderPlaces", "reader", "POST", "", `not json`, 403, stockroom.EFORBIDDEN, stockroom.MsgNoPermission},
	{"ShipperCommits", "shipper", "POST", "/WO-1/Commit", nil, 403, stockroom.EFORBIDDEN, stockroom.MsgNoPermission},
	{"ShipperCancels", "shipper", "POST", "/WO-1/Cancel", nil, 403, stockroom.EFORBIDDEN, stockroom.MsgNoPermission},
	{"WriterLists", "writer", "GET", "/All", nil, 403, stockroom.EFORBIDDEN, stockroom.MsgNoPermission},
	{"WriterReads", "writer", "GET", "/WO-1", nil, 403, stockroom.EFORBIDDEN, stockroom.MsgNoPermission},
	{"NotAnObject", "admin", "POST", "", `[1]`, 400, stockroom.EBADREQUEST, "JSON"},
	{"CompleteNotJSON", "admin", "POST", "/WO-1/Complete", `{"units":`, 400, stockroom.EBADREQUEST, "JSON"},
	{"Empty", "admin", "POST", "", `{}`, 400, stockroom.EINVALID, "components itemID units wid"},
	{"BadComponents", "admin", "POST", "", `{"itemID":"ITEM-B","units":2,"wid":1,"components":[{"itemID":"item-b","units":0},7,{"units":1}]}`, 400,
		stockroom.EINVALID, "components[0].itemID components[0].units components[1] components[1].itemID components[1].units components[2].itemID"},
	{"ComponentTwice", "admin", "POST", "", `{"itemID":"ITEM-B","units":2,"wid":1,"components":[{"itemID":"ITEM-A","units":1},{"itemID":"item-a","units":1}]}`, 400,
		stockroom.EINVALID, "components[1].itemID"},
	{"WrongTypes", "admin", "POST", "", `{"itemID":"ITEM-B","units":"2","wid":"1","dueDate":"soon","components":[{"itemID":"ITEM-A","units":1}]}`, 400,
		stockroom.EINVALID, "dueDate units wid"},
	{"NotWholeMillionths", "admin", "POST", "", work("", 1, 0.001, 0.0001), 400, stockroom.EINVALID, "components[0].units"},
	{"ReservedNumber", "admin", "POST", "", work(" All ", 1, 1, 1), 400, stockroom.EINVALID, "woNo"},
	{"TooLong", "admin", "POST", "", `{"itemID":"ITEM-B","units":1,"wid":1,"assignee":"` + strings.Repeat("x", 101) + `","components":[{"itemID":"ITEM-A","units":1}]}`, 400,
		stockroom.EINVALID, "assignee"},
	{"UnknownOwner", "admin", "POST", "", `{"itemID":"ITEM-B","units":1,"wid":1,"owner":99,"components":[{"itemID":"ITEM-A","units":1}]}`, 400, stockroom.EINVALID, "owner"},
	{"CompleteNoUnits", "admin", "POST", "/WO-1/Complete", `{}`, 400, stockroom.EINVALID, "units"},
	{"CompleteZero", "admin", "POST", "/WO-1/Complete", `{"units":0}`, 400, stockroom.EINVALID, "units"},
	{"CompleteFraction", "admin", "POST", "/FINE/Complete", `{"units":0.5}`, 400, stockroom.EINVALID, "units"},
	{"CommitBadLine", "admin", "POST", "/WO-1/Commit", `{"lines":[{"line":0}],"allowPartial":"yes"}`, 400, stockroom.EINVALID, "allowPartial lines[0].line"},
	{"CommitNoSuchLine", "admin", "POST", "/WO-1/Commit", `{"lines":[{"line":9}]}`, 400, stockroom.EINVALID, "lines[0].line"},
	{"PageSize", "admin", "GET", "?pageSize=0", nil, 400, stockroom.EINVALID, "pageSize"},
	{"StatusAndDate", "admin", "GET", "/All?status=done&endDate=x", nil, 400, stockroom.EINVALID, "endDate status"},
	{"OutOfScope", "scoped", "POST", "", work("", 2, 1, 1), 403, stockroom.EFORBIDDEN, stockroom.MsgOutOfScope},
	{"UnknownWarehouseOutOfScope", "scoped", "POST", "", work("", 99, 1, 1), 403, stockroom.EFORBIDDEN, stockroom.MsgOutOfScope},
	{"ListOutOfScope", "scoped", "GET", "?wid=2", nil, 403, stockroom.EFORBIDDEN, stockroom.MsgOutOfScope},
	{"OtherOwner", "limited", "POST", "", `{"itemID":"ITEM-B","units":1,"wid":1,"owner":"C-8","components":[{"itemID":"ITEM-A","units":1}]}`, 403,
		stockroom.EFORBIDDEN, stockroom.MsgOwnerOutOfScope},
	{"ProductsDefaultOwner", "twoOwners", "POST", "", work("", 1, 1, 1), 403, stockroom.EFORBIDDEN, stockroom.MsgOwnerOutOfScope},
	{"NoSuchOrder", "admin", "GET", "/NOPE", nil, 404, stockroom.ENOTFOUND, `No work order "NOPE".`},
	{"CommitNoSuchOrder", "admin", "POST", "/NOPE/Commit", nil, 404, stockroom.ENOTFOUND, `No work order "NOPE".`},
	{"CompleteNoSuchOrder", "admin", "POST", "/NOPE/Complete", `{"units":1}`, 404, stockroom.ENOTFOUND, `No work order "NOPE".`},
	{"CloseNoSuchOrder", "admin", "POST", "/NOPE/Close", nil, 404, stockroom.ENOTFOUND, `No work order "NOPE".`},
	{"NoSuchProduct", "admin", "POST", "", `{"itemID":"NO-SUCH","units":1,"wid":1,"components":[{"itemID":"ITEM-A","units":1}]}`, 404, stockroom.ENOTFOUND, "NO-SUCH"},
	{"NoSuchComponent", "admin", "POST", "", `{"itemID":"ITEM-B","units":1,"wid":1,"components":[{"itemID":"NO-SUCH","units":1}]}`, 404, stockroom.ENOTFOUND, "NO-SUCH"},
	{"NoSuchWarehouse", "admin", "POST", "", work("", 99, 1, 1), 404, stockroom.ENOTFOUND, "99"},
	{"UnseenByScope", "scoped", "GET", "/two", nil, 404, stockroom.ENOTFOUND, "two"},
	{"CommitUnseenByScope", "scoped", "POST", "/TWO/Commit", nil, 404, stockroom.ENOTFOUND, "TWO"},
	{"CompleteUnseenByOwner", "limited", "POST", "/WO-1/Complete", `{"units":1}`, 404, stockroom.ENOTFOUND, "WO-1"},
	{"CancelUnseenByOwner", "limited", "POST", "/wo-1/Cancel", nil, 404, stockroom.ENOTFOUND, "wo-1"},
	{"NumberTaken", "admin", "POST", "", work("wo-1", 1, 1, 1), 409, stockroom.ECONFLICT, "exists already"},
	{"MoreThanLeft", "admin", "POST", "/WO-1/Complete", `{"units":4}`, 409, stockroom.ECONFLICT, "Work order WO-1 has 3 units left to complete; 4 asked."},
	{"ComponentShort", "admin", "POST", "/TWO/Complete", `{"units":1}`, 409, stockroom.ECONFLICT,
		"Insufficient stock of component ITEM-A (line 1): 1 unit wanted, 0 available."},
	{"CommitShort", "admin", "POST", "/TWO/Commit", nil, 409, stockroom.ECONFLICT, "Insufficient stock to commit line 1"},
}

// TestWorkOrderRefusals: every 4xx of the work order endpoints, in the
// order of contract §2, then those that depend on the order's state.
func TestWorkOrderRefusals(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := purchaseAPI(t, a)
		a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 10, "wid": 1, "reasonCode": 1}, 201)
		a.mustSend(t, "POST", "/api/v1/WorkOrder", tok, work("WO-1", 1, 3, 2), 201)
		two := work("TWO", 2, 1, 1)
		two["owner"] = "C-8"
		a.mustSend(t, "POST", "/api/v1/WorkOrder", tok, two, 201)
		a.mustSend(t, "POST", "/api/v1/WorkOrder", tok, work("FINE", 1, 2, 0.000001), 201)
		toks := shippingClients(t, a)
		toks["admin"], toks["writer"], toks["shipper"] = tok, a.clientToken(t, false, 303), a.clientToken(t, false, 11, 302)
		runRefusalTable(t, a, "/api/v1/WorkOrder", toks, workRefusals)
		t.Run("State", func(t *testing.T) { testWorkState(t, a, tok) })
		a.auditClean(t)
	})
}

// testWorkState: the refusals that depend on state.
func testWorkState(t *testing.T, a *api, tok string) {
	a.mustSend(t, "POST", "/api/v1/WorkOrder/WO-1/Complete", tok, `{"units":1}`, 200)
	for path, want := range map[string]string{
		"/WO-1/Cancel": "Work order WO-1 has completed units; it can be closed, not canceled.",
		"/FINE/Cancel": "",
	} {
		r := a.send(t, "POST", "/api/v1/WorkOrder"+path, tok, nil)
		if want == "" {
			if r.status != 200 {
				t.Errorf("%s: %d %s", path, r.status, r.body)
			}
			continue
		}
		if v := wantError(t, r, 409, stockroom.ECONFLICT); v["message"] != want {
			t.Errorf("%s: %v", path, v["message"])
		}
	}
	a.mustSend(t, "POST", "/api/v1/WorkOrder/WO-1/Close", tok, nil, 200)
	for _, action := range []string{"Commit", "Close"} {
		v := wantError(t, a.send(t, "POST", "/api/v1/WorkOrder/WO-1/"+action, tok, nil), 409, stockroom.ECONFLICT)
		if msg := v["message"].(string); !strings.HasPrefix(msg, "Work order WO-1 is Closed; only an open order can be") {
			t.Errorf("%s of a closed order: %s", action, msg)
		}
	}
	v := wantError(t, a.send(t, "POST", "/api/v1/WorkOrder/WO-1/Complete", tok, `{"units":1}`), 409, stockroom.ECONFLICT)
	if msg := v["message"].(string); msg != "Work order WO-1 is Closed; only an open order can be completed." {
		t.Errorf("complete of a closed order: %s", msg)
	}
	a.mustSend(t, "DELETE", "/api/v1/Item/ITEM-B", tok, nil, 200)
	v = wantError(t, a.send(t, "POST", "/api/v1/WorkOrder", tok, work("", 1, 1, 1)), 409, stockroom.ECONFLICT)
	if msg := v["message"].(string); !strings.Contains(msg, "is discontinued and cannot be built") {
		t.Errorf("a discontinued product: %s", msg)
	}
	list := decode[struct{ Value []stockroom.WorkOrder }](t, a.mustSend(t, "GET", "/api/v1/WorkOrder/All?status=closed&itemID=item-a", tok, nil, 200))
	if len(list.Value) != 1 || list.Value[0].WONo != "WO-1" || list.Value[0].UnitsCompleted != stockroom.Whole(1) {
		t.Errorf("closed orders %+v", list)
	}
}

// tableRefusal is a request to base+path by the client tok ("none": no token)
// and the error it gets: for a validation error want is its detail
// fields, else a part of its message.
type tableRefusal = struct {
	name, tok, method, path string
	body                    any
	status                  int
	code, want              string
}

// runRefusalTable sends each refusal as a subtest of its own.
func runRefusalTable(t *testing.T, a *api, base string, toks map[string]string, cases []tableRefusal) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := a.send(t, tc.method, base+tc.path, toks[tc.tok], tc.body)
			if tc.tok == "none" {
				r = a.doBody(t, tc.method, base+tc.path, "{}", "Content-Type", "application/json")
			}
			v := wantError(t, r, tc.status, tc.code)
			switch {
			case tc.code == stockroom.EINVALID:
				if got := strings.Join(detailFields(v), " "); got != tc.want {
					t.Errorf("details %q, want %q", got, tc.want)
				}
			case !strings.Contains(v["message"].(string), tc.want):
				t.Errorf("message %q, want it to say %q", v["message"], tc.want)
			}
		})
	}
}

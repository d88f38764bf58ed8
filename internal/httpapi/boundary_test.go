package httpapi_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// The owner boundary over shared records (contract §9), for a client
// limited to owner A: MINE is an item of A's catalogue, THEIRS of B's,
// ITEM-A and ITEM-B the house's; each has an alias (MINE-AL, THEIRS-AL,
// HOUSE-AL); BOLTCO is a vendor, category 3 holds MINE, THEIRS and ITEM-A.

// boundaryAPI is ownersAPI with those records; it returns the
// administrator's token and the limited client's id and token.
func boundaryAPI(t *testing.T, a *api) (admin, limitedID, limited string) {
	t.Helper()
	admin, _ = ownersAPI(t, a)
	limitedID, limited = a.ownerClient(t, ownerA)
	a.createCategories(t, admin, 3)
	a.mustSend(t, "POST", "/api/v1/Vendor", admin, map[string]any{"shortID": "BOLTCO", "name": "Boltco"}, 201)
	a.createItem(t, admin, map[string]any{"shortID": "MINE", "dfltOwner": ownerA, "category": 3})
	a.createItem(t, admin, map[string]any{"shortID": "THEIRS", "dfltOwner": ownerB, "category": 3})
	a.mustSend(t, "PUT", "/api/v1/Item", admin, map[string]any{"shortID": "ITEM-A", "category": 3}, 200)
	for alias, itemID := range map[string]string{"MINE-AL": "MINE", "THEIRS-AL": "THEIRS", "HOUSE-AL": "ITEM-A"} {
		a.mustSend(t, "POST", "/api/v1/Alias", admin, map[string]any{"alias": alias, "itemID": itemID}, 201)
	}
	return admin, limitedID, limited
}

// TestOwnerBoundaryReads: another owner's items are as if absent from every
// read of the catalogue, and another client's id is blank.
func TestOwnerBoundaryReads(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin, _, limited := boundaryAPI(t, a)
		theirs := a.getItem(t, admin, "/api/v1/Item?key=THEIRS")
		for _, list := range []string{"/api/v1/Item/All?pageSize=2", "/api/v1/Item?pageSize=250", "/api/v1/Item/All?pageSize=250&sort=dfltOwner&direction=desc"} {
			p := decode[itemPage](t, a.get(t, list, limited))
			all := p
			for n := 2; all.HasMore; n++ {
				next := decode[itemPage](t, a.get(t, fmt.Sprintf("%s&page=%d", list, n), limited))
				all.Value, all.HasMore = append(all.Value, next.Value...), next.HasMore
			}
			got := shortIDs(all.Value)
			slices.Sort(got)
			if !slices.Equal(got, []string{"ITEM-A", "ITEM-B", "MINE"}) || p.TotalCount != 3 {
				t.Errorf("%s: %v (totalCount %d), want the house's items and MINE", list, got, p.TotalCount)
			}
			for _, it := range all.Value {
				if it.CreatedBy != "" {
					t.Errorf("%s: %s shows createdBy %q, made by another client", list, it.ShortID, it.CreatedBy)
				}
			}
		}
		if got := shortIDs(decode[[]item](t, a.get(t, "/api/v1/Item?Category=3", limited))); !slices.Equal(got, []string{"ITEM-A", "MINE"}) {
			t.Errorf("category 3: %v", got)
		}
		for _, path := range []string{fmt.Sprintf("/api/v1/Item/%d", theirs.PartNo), "/api/v1/Item?key=theirs", "/api/v1/Item?key=THEIRS-AL&type=alias"} {
			wantError(t, a.get(t, path, limited), 404, stockroom.ENOTFOUND)
		}
		if it := a.getItem(t, limited, "/api/v1/Item?key=MINE-AL&type=alias"); it.ShortID != "MINE" || it.CreatedBy != "" {
			t.Errorf("MINE by its alias: %+v", it)
		}
		if it := a.getItem(t, admin, "/api/v1/Item?key=MINE"); it.CreatedBy != a.adminID {
			t.Errorf("the administrator reads createdBy %q, want its own id", it.CreatedBy)
		}
		aliases := decode[page[stockroom.Alias]](t, a.get(t, "/api/v1/Alias?pageSize=250", limited))
		var names []string
		for _, al := range aliases.Value {
			names = append(names, al.Alias)
		}
		if slices.Sort(names); !slices.Equal(names, []string{"HOUSE-AL", "MINE-AL"}) || aliases.TotalCount != 2 {
			t.Errorf("aliases: %v (totalCount %d)", names, aliases.TotalCount)
		}
		if p := decode[page[stockroom.Alias]](t, a.get(t, "/api/v1/Alias?itemID=THEIRS", limited)); p.TotalCount != 0 || len(p.Value) != 0 {
			t.Errorf("aliases of THEIRS: %+v", p)
		}
		// Vendors and categories are the house's: read by all.
		a.mustSend(t, "GET", "/api/v1/Vendor/BOLTCO", limited, nil, 200)
		a.mustSend(t, "GET", "/api/v1/Category/3", limited, nil, 200)
	})
}

// TestOwnerBoundaryLedgerClientIDs: a client limited to owners reads its
// own id on the ledger entries it made and a blank one on another's; a
// client of every owner reads every id.
func TestOwnerBoundaryLedgerClientIDs(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin, limitedID, limited := boundaryAPI(t, a)
		mine := a.mustPost(t, limited, "/api/v1/Inventory/Receive", map[string]any{"itemID": "MINE", "units": 2, "wid": 1, "reasonCode": 1}, 201)
		theirs := a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "MINE", "units": 3, "wid": 1, "reasonCode": 1}, 201)
		type entry struct {
			ID       float64 `json:"id"`
			ClientID string  `json:"clientID"`
		}
		for _, tc := range []struct {
			tok, by string
			id      any
			want    string
		}{
			{limited, "the limited client", mine["transactionID"], limitedID},
			{limited, "the limited client", theirs["transactionID"], ""},
			{admin, "the administrator", mine["transactionID"], limitedID},
			{admin, "the administrator", theirs["transactionID"], a.adminID},
		} {
			one := decode[entry](t, a.get(t, fmt.Sprintf("/api/v1/Inventory/Transactions/%v", tc.id), tc.tok))
			list := decode[page[entry]](t, a.get(t, "/api/v1/Inventory/Transactions?itemID=MINE", tc.tok))
			i := slices.IndexFunc(list.Value, func(e entry) bool { return e.ID == tc.id })
			if one.ClientID != tc.want || i < 0 || list.Value[i].ClientID != tc.want {
				t.Errorf("%s reads entry %v with clientID %q (in the list: %+v), want %q", tc.by, tc.id, one.ClientID, list.Value, tc.want)
			}
		}
	})
}

// boundaryWrite is one write of the owner boundary table and its answer:
// a status and, for a refusal, its code and message.
type boundaryWrite struct {
	method, path string
	body         any
	status       int
	message      string // of a refusal; "" when any
}

var (
	outOfScope = stockroom.MsgOwnerOutOfScope
	// The refusals of the limited client, each of which changes nothing.
	boundaryRefusals = []boundaryWrite{
		{"POST", "/Item", map[string]any{"shortID": "NEW-B", "dfltOwner": ownerB}, 403, outOfScope},
		{"POST", "/Item", map[string]any{"shortID": "NEW-H", "dfltOwner": 0}, 403, outOfScope},
		{"POST", "/Item", map[string]any{"shortID": "NEW-X", "dfltOwner": 99}, 403, outOfScope},
		{"PUT", "/Item", map[string]any{"shortID": "MINE", "dfltOwner": ownerB}, 403, outOfScope},
		{"PUT", "/Item", map[string]any{"shortID": "MINE", "dfltOwner": 0}, 403, outOfScope},
		{"PUT", "/Item", map[string]any{"shortID": "THEIRS", "description": "x"}, 404, `No item with ShortID "THEIRS".`},
		{"PUT", "/Item", map[string]any{"shortID": "THEIRS", "dfltOwner": ownerA}, 404, `No item with ShortID "THEIRS".`},
		{"PUT", "/Item", map[string]any{"shortID": "ITEM-A", "description": "x"}, 403, outOfScope},
		{"PUT", "/Item", map[string]any{"shortID": "ITEM-A", "dfltOwner": ownerA}, 403, outOfScope},
		{"DELETE", "/Item/THEIRS", nil, 404, `No item with ShortID "THEIRS".`},
		{"DELETE", "/Item/ITEM-A", nil, 403, outOfScope},
		{"POST", "/Alias", map[string]any{"alias": "NEW-AL", "itemID": "THEIRS"}, 404, `No item with ShortID "THEIRS".`},
		{"POST", "/Alias", map[string]any{"alias": "NEW-AL", "itemID": "ITEM-A"}, 403, outOfScope},
		{"DELETE", "/Alias/THEIRS-AL", nil, 404, `No alias "THEIRS-AL".`},
		{"DELETE", "/Alias/HOUSE-AL", nil, 403, outOfScope},
		{"POST", "/Vendor", map[string]any{"shortID": "V2", "name": "Vendor 2"}, 403, outOfScope},
		{"PUT", "/Vendor", map[string]any{"shortID": "BOLTCO", "email": "pay@attacker.example"}, 403, outOfScope},
		{"PUT", "/Vendor", map[string]any{"shortID": "NO-SUCH", "email": "pay@attacker.example"}, 403, outOfScope},
		{"DELETE", "/Vendor/BOLTCO", nil, 403, outOfScope},
		{"POST", "/Category", map[string]any{"categoryID": 4, "name": "Four"}, 403, outOfScope},
		{"PUT", "/Category", map[string]any{"categoryID": 3, "name": "Renamed"}, 403, outOfScope},
		{"DELETE", "/Category/3", nil, 403, outOfScope},
		{"POST", "/Customer", map[string]any{"shortID": "C-9", "name": "Customer 9"}, 403, outOfScope},
		{"PUT", "/Customer", map[string]any{"shortID": "C-8", "name": "Renamed"}, 404, `No customer with ShortID "C-8".`},
		{"DELETE", "/Customer/C-8", nil, 404, `No customer with ShortID "C-8".`},
	}
	// What the limited client may do: its own catalogue and customer.
	boundaryAllowed = []boundaryWrite{
		{"POST", "/Item", map[string]any{"shortID": "NEW-A", "dfltOwner": ownerA}, 201, ""},
		{"PUT", "/Item", map[string]any{"shortID": "MINE", "description": "mine"}, 200, ""},
		{"DELETE", "/Item/MINE", nil, 200, ""},
		{"PUT", "/Item", map[string]any{"shortID": "MINE", "active": true}, 200, ""},
		{"POST", "/Alias", map[string]any{"alias": "NEW-AL", "itemID": "MINE"}, 201, ""},
		{"DELETE", "/Alias/MINE-AL", nil, 200, ""},
		{"PUT", "/Customer", map[string]any{"shortID": "C-7", "city": "Leeds"}, 200, ""},
	}
)

// TestOwnerBoundaryWrites: each write of a shared record kind by a client
// limited to owner A, against A's records, another owner's and the
// house's: exactly the contract's answers, and nothing changed where
// refused (records, lots, levels, ledger).
func TestOwnerBoundaryWrites(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin, limitedID, limited := boundaryAPI(t, a)
		a.receiveFor(t, admin, ownerB, 4)
		a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "THEIRS", "units": 5, "wid": 1, "reasonCode": 1}, 201)
		before := a.sharedState(t, admin)
		for _, w := range boundaryRefusals {
			r := a.send(t, w.method, "/api/v1"+w.path, limited, w.body)
			code := map[int]string{403: stockroom.EFORBIDDEN, 404: stockroom.ENOTFOUND}[w.status]
			if v := wantError(t, r, w.status, code); v["message"] != w.message {
				t.Errorf("%s %s %v: message %q, want %q", w.method, w.path, w.body, v["message"], w.message)
			}
		}
		if after := a.sharedState(t, admin); after != before {
			t.Fatalf("refused writes changed shared records or stock:\n%s\n%s", before, after)
		}
		for _, w := range boundaryAllowed {
			a.mustSend(t, w.method, "/api/v1"+w.path, limited, w.body, w.status)
		}
		// Written for its owner when it names none: the one owner it has.
		made := decode[item](t, a.mustSend(t, "POST", "/api/v1/Item", limited, map[string]any{"shortID": "NEW-NONE"}, 201))
		if made.DfltOwner != ownerA || made.CreatedBy != limitedID {
			t.Errorf("an item made by a client of owner %d naming no owner: %+v", ownerA, made)
		}
		if it := a.getItem(t, admin, "/api/v1/Item?key=MINE"); it.Description != "mine" || !it.Active {
			t.Errorf("MINE after its owner's changes: %+v", it)
		}
		if al := a.getItem(t, admin, "/api/v1/Item?key=NEW-AL&type=alias"); al.ShortID != "MINE" {
			t.Errorf("NEW-AL names %s", al.ShortID)
		}
		wantError(t, a.get(t, "/api/v1/Item?key=MINE-AL&type=alias", admin), 404, stockroom.ENOTFOUND)
		a.auditClean(t)
	})
}

// sharedState is every record a refused write must leave alone, as the
// administrator reads it: items, aliases, vendors, categories, customers,
// lots, levels, the ledger, orders and transits.
func (a *api) sharedState(t *testing.T, admin string) string {
	t.Helper()
	var b strings.Builder
	for _, path := range []string{"/Item/All", "/Alias", "/Vendor/All", "/Category/All", "/Customer/All",
		"/Inventory?includeShipped=true", "/Inventory/StockLevels?includeZero=true", "/Inventory/Transactions",
		"/PurchaseOrder/All", "/ShippingOrder/All", "/WorkOrder/All", "/Transit/All"} {
		r := a.get(t, "/api/v1"+path+sep(path)+"pageSize=50", admin)
		if r.status != 200 {
			t.Fatalf("GET %s: %d %s", path, r.status, r.body)
		}
		b.Write(r.body)
		b.WriteByte('\n')
	}
	return b.String()
}

// sep is what joins another query parameter to path.
func sep(path string) string {
	if strings.Contains(path, "?") {
		return "&"
	}
	return "?"
}

// TestOwnerBoundaryFindingTwo is the attack of issue 38's second finding,
// end to end: a client limited to customer 1 cannot move customer 2's
// item, or a house item, into its catalogue, so the administrator's next
// receipt without an owner stays the item's owner's, and the attacker
// cannot take it.
func TestOwnerBoundaryFindingTwo(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := a.token(t, a.adminID, a.adminSecret)
		one, two := a.createCustomer(t, admin, "ONE"), a.createCustomer(t, admin, "TWO")
		a.createItem(t, admin, map[string]any{"shortID": "B-SECRET", "dfltOwner": two})
		a.createItem(t, admin, map[string]any{"shortID": "H-1"})
		id, secret := a.addClient(t, service.NewClient{Permissions: []stockroom.Permission{11, 116, 95, 88, 15},
			Scope: stockroom.Scope{All: true}, Owners: &stockroom.Scope{IDs: []int64{one}}})
		attacker := a.token(t, id, secret)

		v := wantError(t, a.send(t, "PUT", "/api/v1/Item", attacker, map[string]any{"shortID": "B-SECRET", "dfltOwner": one}), 404, stockroom.ENOTFOUND)
		if v["message"] != `No item with ShortID "B-SECRET".` {
			t.Errorf("PUT of another owner's item: %q", v["message"])
		}
		v = wantError(t, a.send(t, "PUT", "/api/v1/Item", attacker, map[string]any{"shortID": "H-1", "dfltOwner": one}), 403, stockroom.EFORBIDDEN)
		if v["message"] != stockroom.MsgOwnerOutOfScope {
			t.Errorf("PUT of a house item into the attacker's catalogue: %q", v["message"])
		}
		for shortID, want := range map[string]int64{"B-SECRET": two, "H-1": stockroom.HouseOwner} {
			if it := a.getItem(t, admin, "/api/v1/Item?key="+shortID); it.DfltOwner != want {
				t.Errorf("%s has dfltOwner %d after the attack, want %d", shortID, it.DfltOwner, want)
			}
			lot := a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": shortID, "units": 5, "wid": 1, "reasonCode": 1}, 201)["lot"]
			if owner := lot.(map[string]any)["owner"]; owner != float64(want) {
				t.Errorf("the administrator's receipt of %s made a lot of owner %v, want %d", shortID, owner, want)
			}
		}
		before, ledger := a.stockState(t, admin)
		issue := func(itemID string, owner any) response {
			body := map[string]any{"itemID": itemID, "units": 5, "wid": 1, "reasonCode": 20}
			if owner != nil {
				body["owner"] = owner
			}
			return a.send(t, "POST", "/api/v1/Inventory/Issue", attacker, body)
		}
		wantError(t, issue("B-SECRET", nil), 404, stockroom.ENOTFOUND)
		wantError(t, issue("B-SECRET", one), 404, stockroom.ENOTFOUND)
		wantError(t, issue("H-1", nil), 409, stockroom.ECONFLICT) // its own owner's stock (it has none), never the house's
		wantError(t, issue("H-1", one), 409, stockroom.ECONFLICT)
		wantError(t, issue("H-1", stockroom.HouseOwner), 403, stockroom.EFORBIDDEN) // the house's stock
		if after, n := a.stockState(t, admin); after != before || n != ledger {
			t.Fatalf("the attacker's issues changed stock:\n%s\n%s", before, after)
		}
		if p := decode[page[map[string]any]](t, a.get(t, "/api/v1/Inventory", attacker)); p.TotalCount != 0 {
			t.Errorf("the attacker sees lots: %+v", p.Value)
		}
		a.auditClean(t)
	})
}

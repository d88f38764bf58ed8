package httpapi_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

// party is a customer or vendor as a client reads it.
type party struct {
	CustomerID int64  `json:"customerID"`
	VendorID   int64  `json:"vendorID"`
	ShortID    string `json:"shortID"`
	Name       string `json:"name"`
	Address1   string `json:"address1"`
	City       string `json:"city"`
	Email      string `json:"email"`
	Active     bool   `json:"active"`
	Created    string `json:"created"`
	Modified   string `json:"modified"`
}

type category struct {
	CategoryID  int64  `json:"categoryID"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Active      bool   `json:"active"`
	Created     string `json:"created"`
	Modified    string `json:"modified"`
}

type page[T any] struct {
	Value      []T   `json:"value"`
	TotalCount int64 `json:"totalCount"`
	HasMore    bool  `json:"hasMore"`
}

// createCategories creates categories with the given ids.
func (a *api) createCategories(t *testing.T, tok string, ids ...int64) {
	t.Helper()
	for _, id := range ids {
		a.mustSend(t, "POST", "/api/v1/Category", tok, map[string]any{"categoryID": id, "name": fmt.Sprintf("Category %d", id)}, 201)
	}
}

// createCustomer creates a customer and returns its customerID.
func (a *api) createCustomer(t *testing.T, tok, shortID string) int64 {
	t.Helper()
	return decode[party](t, a.mustSend(t, "POST", "/api/v1/Customer", tok, map[string]any{"shortID": shortID, "name": "Customer " + shortID}, 201)).CustomerID
}

func partyShortIDs(ps []party) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.ShortID)
	}
	return out
}

func TestCustomersAndVendors(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := a.token(t, a.adminID, a.adminSecret)
		for _, kind := range []string{"Customer", "Vendor"} {
			t.Run(kind, func(t *testing.T) { testParties(t, a, tok, kind) })
		}
		t.Run("OneIDSequenceForBoth", func(t *testing.T) {
			c := decode[party](t, a.mustSend(t, "POST", "/api/v1/Customer", tok, map[string]any{"shortID": "SAME", "name": "As customer"}, 201))
			v := decode[party](t, a.mustSend(t, "POST", "/api/v1/Vendor", tok, map[string]any{"shortID": "SAME", "name": "As vendor"}, 201))
			if c.CustomerID == 0 || v.VendorID == 0 || c.CustomerID == v.VendorID || c.VendorID != 0 || v.CustomerID != 0 {
				t.Fatalf("customer %+v, vendor %+v", c, v)
			}
			// A vendor is not a customer: an item cannot be owned by it.
			r := a.send(t, "POST", "/api/v1/Item", tok, map[string]any{"shortID": "OWNED", "dfltOwner": v.VendorID})
			if d := detailFields(wantError(t, r, 400, stockroom.EINVALID)); !slices.Equal(d, []string{"dfltOwner"}) {
				t.Fatalf("dfltOwner a vendor: %s", r.body)
			}
			a.mustSend(t, "POST", "/api/v1/Item", tok, map[string]any{"shortID": "OWNED", "dfltOwner": c.CustomerID}, 201)
		})
	})
}

func testParties(t *testing.T, a *api, tok, kind string) {
	base := "/api/v1/" + kind
	idOf := func(p party) int64 { return p.CustomerID + p.VendorID }
	r := a.mustSend(t, "POST", base, tok, `{"SHORTID":" Acme/1 ","name":"Acme Ltd","address1":"1 Road","city":"Leeds","email":"ops@acme.example","customerID":999,"vendorID":999}`, 201)
	acme := decode[party](t, r)
	if idOf(acme) < 1 || acme.ShortID != "Acme/1" || acme.Name != "Acme Ltd" || acme.City != "Leeds" || !acme.Active ||
		acme.Created == "" || acme.Created != acme.Modified || idOf(acme) == 999 {
		t.Fatalf("created %s", r.body)
	}
	if loc := r.header.Get("Location"); loc != base+"/Acme%2F1" {
		t.Fatalf("Location %q", loc)
	}
	if got := decode[party](t, a.get(t, base+"/"+url.PathEscape("ACME/1"), tok)); got != acme {
		t.Fatalf("GET by ShortID in another case: %+v, want %+v", got, acme)
	}
	wantError(t, a.send(t, "POST", base, tok, map[string]any{"shortID": "acme/1", "name": "Again"}), 409, stockroom.ECONFLICT)
	a.mustSend(t, "POST", base, tok, map[string]any{"shortID": "Beta", "name": "Beta plc", "city": "Bath"}, 201)

	t.Run("Validation", func(t *testing.T) {
		for body, want := range map[string][]string{
			`{}`:                          {"name", "shortID"},
			`{"shortID":"x","name":"  "}`: {"name"},
			`{"shortID":"x","name":"n","email":"` + strings.Repeat("e", 255) + `"}`: {"email"},
			`{"shortID":"x","name":"n","zip":7,"active":"yes","city":"a\u0001"}`:    {"active", "city", "zip"},
		} {
			v := wantError(t, a.send(t, "POST", base, tok, body), 400, stockroom.EINVALID)
			got := detailFields(v)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("%s: details %v, want %v", body, v["details"], want)
			}
		}
		wantError(t, a.send(t, "POST", base, tok, `{"shortID":`), 400, stockroom.EBADREQUEST)
		wantError(t, a.send(t, "PUT", base, tok, `[]`), 400, stockroom.EBADREQUEST)
		v := wantError(t, a.send(t, "PUT", base, tok, `{"name":"x"}`), 400, stockroom.EINVALID)
		if !slices.Equal(detailFields(v), []string{"shortID"}) {
			t.Fatalf("PUT without shortID: %v", v)
		}
	})
	t.Run("UpdateMovesModifiedOnlyOnChange", func(t *testing.T) {
		time.Sleep(2 * time.Millisecond)
		r := a.mustSend(t, "PUT", base, tok, map[string]any{"shortID": "acme/1", "city": "York"}, 200)
		if string(r.body) != `{"shortID":"Acme/1","status":"updated"}`+"\n" {
			t.Fatalf("PUT: %s", r.body)
		}
		got := decode[party](t, a.get(t, base+"/acme%2F1", tok))
		if got.City != "York" || got.Name != "Acme Ltd" || got.Modified <= acme.Modified || got.Created != acme.Created {
			t.Fatalf("after PUT: %+v", got)
		}
		a.mustSend(t, "PUT", base, tok, map[string]any{"shortID": "Acme/1", "city": "York"}, 200)
		if again := decode[party](t, a.get(t, base+"/acme%2F1", tok)); again.Modified != got.Modified {
			t.Fatalf("no-op PUT moved modified from %s to %s", got.Modified, again.Modified)
		}
		wantError(t, a.send(t, "PUT", base, tok, map[string]any{"shortID": "nobody", "city": "x"}), 404, stockroom.ENOTFOUND)
	})
	t.Run("DiscontinueListsAndReactivate", func(t *testing.T) {
		for range 2 { // repeatable
			r := a.mustSend(t, "DELETE", base+"/beta", tok, nil, 200)
			if string(r.body) != `{"shortID":"Beta","status":"discontinued"}`+"\n" {
				t.Fatalf("DELETE: %s", r.body)
			}
		}
		active := decode[page[party]](t, a.get(t, base, tok))
		all := decode[page[party]](t, a.get(t, base+"/All?sort=name&direction=desc", tok))
		if slices.Contains(partyShortIDs(active.Value), "Beta") || !slices.Contains(partyShortIDs(active.Value), "Acme/1") ||
			active.TotalCount != int64(len(active.Value)) {
			t.Fatalf("active list %+v", active)
		}
		if ids := partyShortIDs(all.Value); len(ids) < 2 || ids[0] != "Beta" || all.TotalCount != int64(len(ids)) {
			t.Fatalf("All by name descending: %v", ids)
		}
		if got := decode[party](t, a.get(t, base+"/Beta", tok)); got.Active {
			t.Fatalf("discontinued record reads active: %+v", got)
		}
		wantError(t, a.send(t, "DELETE", base+"/nobody", tok, nil), 404, stockroom.ENOTFOUND)
		a.mustSend(t, "PUT", base, tok, map[string]any{"shortID": "Beta", "active": true}, 200)
		if got := decode[page[party]](t, a.get(t, base, tok)); !slices.Contains(partyShortIDs(got.Value), "Beta") {
			t.Fatal("active:true did not reactivate")
		}
		future := url.QueryEscape(time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
		if got := decode[page[party]](t, a.get(t, base+"/All?modifiedSince="+future, tok)); got.TotalCount != 0 {
			t.Fatalf("modifiedSince in the future: %+v", got)
		}
		wantError(t, a.get(t, base+"?modifiedSince=soon", tok), 400, stockroom.EINVALID)
		wantError(t, a.get(t, base+"/All?page=0", tok), 400, stockroom.EINVALID)
	})
	t.Run("NotFound", func(t *testing.T) {
		wantError(t, a.get(t, base+"/nobody", tok), 404, stockroom.ENOTFOUND)
	})
	t.Run("Permissions", func(t *testing.T) {
		wantError(t, a.get(t, base, ""), 401, stockroom.EUNAUTHORIZED)
		wantError(t, a.send(t, "POST", base, "nope", map[string]any{"shortID": "x", "name": "x"}), 401, stockroom.EUNAUTHORIZED)
		reader := a.clientToken(t, true, stockroom.PermItemRead, stockroom.PermItemWrite)
		a.mustSend(t, "GET", base+"/acme%2F1", reader, nil, 200)
		for _, req := range [][2]string{{"POST", base}, {"PUT", base}, {"DELETE", base + "/acme%2F1"}} {
			v := wantError(t, a.send(t, req[0], req[1], reader, `{`), 403, stockroom.EFORBIDDEN)
			if v["message"] != stockroom.MsgReadOnly {
				t.Fatalf("%s as read-only: %v", req, v)
			}
		}
		noPerm := a.clientToken(t, false, stockroom.PermReceive)
		for _, req := range [][2]string{{"GET", base}, {"GET", base + "/All"}, {"GET", base + "/acme%2F1"}, {"POST", base}, {"PUT", base}, {"DELETE", base + "/acme%2F1"}} {
			v := wantError(t, a.send(t, req[0], req[1], noPerm, `{`), 403, stockroom.EFORBIDDEN)
			if v["message"] != stockroom.MsgNoPermission {
				t.Fatalf("%s without permission: %v", req, v)
			}
		}
		readOnly116 := a.clientToken(t, false, stockroom.PermItemRead)
		wantError(t, a.send(t, "POST", base, readOnly116, map[string]any{"shortID": "x", "name": "x"}), 403, stockroom.EFORBIDDEN)
	})
	t.Run("IdempotentCreate", func(t *testing.T) {
		body := `{"shortID":"Keyed","name":"Keyed Co"}`
		first := a.do(t, "POST", base, strings.NewReader(body), "Authorization", "Bearer "+tok, "Content-Type", "application/json", "Idempotency-Key", "party-"+kind)
		again := a.do(t, "POST", base, strings.NewReader(body), "Authorization", "Bearer "+tok, "Content-Type", "application/json", "Idempotency-Key", "party-"+kind)
		if first.status != 201 || again.status != 201 || string(first.body) != string(again.body) || again.header.Get("Idempotent-Replayed") != "true" ||
			again.header.Get("Location") != base+"/Keyed" {
			t.Fatalf("keyed create: %d %s / %d %s %v", first.status, first.body, again.status, again.body, again.header)
		}
	})
}

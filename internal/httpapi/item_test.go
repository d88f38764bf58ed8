package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

// item is the JSON item as a client reads it.
type item struct {
	PartNo       int64   `json:"partNo"`
	ShortID      string  `json:"shortID"`
	Description  string  `json:"description"`
	Category     int64   `json:"category"`
	CategoryID   int64   `json:"categoryID"`
	SubCategory  int64   `json:"subCategory"`
	UOM          string  `json:"uOM"`
	Unit         string  `json:"unit"`
	PutUp        string  `json:"putUp"`
	Units        float64 `json:"units"`
	DfltOwner    int64   `json:"dfltOwner"`
	Created      string  `json:"created"`
	Modified     string  `json:"modified"`
	Discontinued bool    `json:"discontinued"`
	Active       bool    `json:"active"`
	CreatedBy    string  `json:"createdBy"`
}

func decode[T any](t *testing.T, r response) T {
	t.Helper()
	if r.status/100 != 2 {
		t.Fatalf("status %d (%s), want a success to decode", r.status, r.body)
	}
	var v T
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
	return v
}

func (a *api) createItem(t *testing.T, tok string, body any) item {
	t.Helper()
	r := a.send(t, "POST", "/api/v1/Item", tok, body)
	if r.status != 201 {
		t.Fatalf("POST /Item %v: %d %s", body, r.status, r.body)
	}
	return decode[item](t, r)
}

func (a *api) getItem(t *testing.T, tok, path string) item {
	t.Helper()
	r := a.get(t, path, tok)
	if r.status != 200 {
		t.Fatalf("GET %s: %d %s", path, r.status, r.body)
	}
	return decode[item](t, r)
}

type itemPage struct {
	Value      []item `json:"value"`
	TotalCount int64  `json:"totalCount"`
	HasMore    bool   `json:"hasMore"`
}

func shortIDs(items []item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.ShortID)
	}
	return out
}

func TestItems(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := a.token(t, a.adminID, a.adminSecret)
		// The categories and the customer the items below name.
		a.createCategories(t, tok, 2, 3, 4, 9, 77)
		owner := a.createCustomer(t, tok, "OWNER-1")

		t.Run("CreateReturnsTheFullItem", func(t *testing.T) {
			r := a.send(t, "POST", "/api/v1/Item", tok, fmt.Sprintf(`{"shortID":" Bolt-M8 ","description":"Hex bolt M8","uOM":"EA","category":4,"subCategory":2,"putUp":"Box of 100","units":100.5,"dfltOwner":%d}`, owner))
			if r.status != 201 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			it := decode[item](t, r)
			if it.PartNo < 1 || it.ShortID != "Bolt-M8" || it.Description != "Hex bolt M8" || it.UOM != "EA" || it.Unit != "EA" ||
				it.Category != 4 || it.CategoryID != 4 || it.SubCategory != 2 || it.PutUp != "Box of 100" || it.Units != 100.5 ||
				it.DfltOwner != owner || it.Discontinued || !it.Active || it.CreatedBy != a.adminID || it.Created == "" || it.Created != it.Modified {
				t.Fatalf("created item %s", r.body)
			}
			if !strings.HasSuffix(it.Created, "Z") {
				t.Fatalf("created %q is not UTC with Z", it.Created)
			}
			loc := r.header.Get("Location")
			if loc != fmt.Sprintf("/api/v1/Item/%d", it.PartNo) {
				t.Fatalf("Location %q", loc)
			}
			if got := a.getItem(t, tok, loc); got != it {
				t.Fatalf("GET Location: %+v, want %+v", got, it)
			}
		})
		t.Run("SynonymsAndCaseInsensitiveFields", func(t *testing.T) {
			it := a.createItem(t, tok, `{"SHORTID":"syn-1","categoryID":9,"unit":"KG","active":false,"unknownField":[1,2]}`)
			if it.Category != 9 || it.UOM != "KG" || !it.Discontinued || it.Active {
				t.Fatalf("synonyms not applied: %+v", it)
			}
		})
		t.Run("DuplicateShortIDInAnyCaseIs409", func(t *testing.T) {
			a.createItem(t, tok, map[string]any{"shortID": "dup-x"})
			for _, id := range []string{"dup-x", "DUP-X", " Dup-X "} {
				wantError(t, a.send(t, "POST", "/api/v1/Item", tok, map[string]any{"shortID": id}), 409, stockroom.ECONFLICT)
			}
		})
		t.Run("ValidationNamesEveryBadField", func(t *testing.T) {
			for body, want := range map[string][]string{
				`{}`:                {"shortID"},
				`{"shortID":"   "}`: {"shortID"},
				`{"shortID":12}`:    {"shortID"},
				`{"shortID":"` + strings.Repeat("x", 65) + `"}`: {"shortID"},
				`{"shortID":"a\u0007b"}`:                        {"shortID"},
				`{"shortID":"ok","category":-1,"subCategory":"2","units":-5,"dfltOwner":1.5,"description":7,"uOM":"` + strings.Repeat("u", 21) + `","putUp":false}`: {"category", "description", "dfltOwner", "putUp", "subCategory", "uOM", "units"},
				`{"shortID":"ok","units":1.0000001}`:                 {"units"},
				`{"shortID":"ok","units":"5"}`:                       {"units"},
				`{"shortID":"ok","category":1,"categoryID":2}`:       {"categoryID"},
				`{"shortID":"ok","uOM":"EA","unit":"KG"}`:            {"unit"},
				`{"shortID":"ok","active":true,"discontinued":true}`: {"active"},
				`{"shortID":"ok","discontinued":"yes"}`:              {"discontinued"},
				`{"shortID":"ok","category":99999999999999999999}`:   {"category"},
				`{"shortID":"ok","ShortId":"ok2"}`:                   {"ShortId", "shortID"},
			} {
				r := a.send(t, "POST", "/api/v1/Item", tok, body)
				v := wantError(t, r, 400, stockroom.EINVALID)
				got := detailFields(v)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Errorf("%s: details %s, want fields %v", body, r.body, want)
				}
			}
		})
		t.Run("MalformedBodiesAre400", func(t *testing.T) {
			for _, body := range []string{``, `{`, `[]`, `"x"`, `{"shortID":"a"} trailing`, `null`} {
				wantError(t, a.send(t, "POST", "/api/v1/Item", tok, body), 400, stockroom.EBADREQUEST)
			}
			r := a.do(t, "POST", "/api/v1/Item", strings.NewReader(`{"shortID":"ct"}`), "Authorization", "Bearer "+tok, "Content-Type", "text/plain")
			wantError(t, r, 400, stockroom.EBADREQUEST)
			big := `{"shortID":"big","description":"` + strings.Repeat("x", 1<<20) + `"}`
			wantError(t, a.send(t, "POST", "/api/v1/Item", tok, big), 413, stockroom.ETOOLARGE)
		})
		t.Run("Lookups", func(t *testing.T) {
			it := a.createItem(t, tok, map[string]any{"shortID": "Look/Up"})
			for _, q := range []string{"?key=look%2Fup&type=id", "?KEY=LOOK/UP", "?key=Look/Up&Type=ID"} {
				if got := a.getItem(t, tok, "/api/v1/Item"+q); got.PartNo != it.PartNo {
					t.Fatalf("%s: %+v", q, got)
				}
			}
			wantError(t, a.get(t, "/api/v1/Item?key=nothing&type=id", tok), 404, stockroom.ENOTFOUND)
			wantError(t, a.get(t, "/api/v1/Item?key=nothing&type=alias", tok), 404, stockroom.ENOTFOUND)
			v := wantError(t, a.get(t, "/api/v1/Item?key=x&type=sku", tok), 400, stockroom.EINVALID)
			if !slices.Equal(detailFields(v), []string{"type"}) {
				t.Fatalf("bad type: %v", v)
			}
			wantError(t, a.get(t, fmt.Sprintf("/api/v1/Item/%d", it.PartNo+100000), tok), 404, stockroom.ENOTFOUND)
			wantError(t, a.get(t, "/api/v1/Item/abc", tok), 404, stockroom.ENOTFOUND)
			wantError(t, a.get(t, "/api/v1/Item/99999999999999999999", tok), 404, stockroom.ENOTFOUND)
		})
		t.Run("UpdateIsPartialAndPreservesIdentity", func(t *testing.T) {
			orig := a.createItem(t, tok, map[string]any{"shortID": "Upd-1", "description": "first", "uOM": "EA", "category": 3, "units": 2})
			time.Sleep(2 * time.Millisecond) // so a moved modified time is visible
			r := a.send(t, "PUT", "/api/v1/Item", tok, map[string]any{"shortID": "upd-1", "description": "second", "partNo": 999, "created": "2001-01-01T00:00:00Z", "createdBy": "mallory"})
			if r.status != 200 || string(r.body) != `{"shortID":"Upd-1","status":"updated"}`+"\n" {
				t.Fatalf("PUT: %d %s", r.status, r.body)
			}
			got := a.getItem(t, tok, fmt.Sprintf("/api/v1/Item/%d", orig.PartNo))
			want := orig
			want.Description, want.Modified = "second", got.Modified
			if got != want || got.Modified <= orig.Modified {
				t.Fatalf("after PUT:\n got %+v\nwant %+v", got, want)
			}
			// A PUT that changes nothing leaves modified alone.
			a.mustSend(t, "PUT", "/api/v1/Item", tok, map[string]any{"shortID": "Upd-1", "description": "second", "category": 3}, 200)
			if again := a.getItem(t, tok, fmt.Sprintf("/api/v1/Item/%d", orig.PartNo)); again.Modified != got.Modified {
				t.Fatalf("no-op PUT moved modified from %s to %s", got.Modified, again.Modified)
			}
			wantError(t, a.send(t, "PUT", "/api/v1/Item", tok, map[string]any{"shortID": "nope"}), 404, stockroom.ENOTFOUND)
			v := wantError(t, a.send(t, "PUT", "/api/v1/Item", tok, map[string]any{"description": "x"}), 400, stockroom.EINVALID)
			if !slices.Equal(detailFields(v), []string{"shortID"}) {
				t.Fatalf("PUT without shortID: %v", v)
			}
			wantError(t, a.send(t, "PUT", "/api/v1/Item", tok, "{oops"), 400, stockroom.EBADREQUEST)
		})
		t.Run("DiscontinueAndReactivate", func(t *testing.T) {
			it := a.createItem(t, tok, map[string]any{"shortID": "Disc/1"})
			for range 2 { // repeatable
				r := a.send(t, "DELETE", "/api/v1/Item/"+url.PathEscape("disc/1"), tok, nil)
				if r.status != 200 || string(r.body) != `{"shortID":"Disc/1","status":"discontinued"}`+"\n" {
					t.Fatalf("DELETE: %d %s", r.status, r.body)
				}
			}
			got := a.getItem(t, tok, fmt.Sprintf("/api/v1/Item/%d", it.PartNo))
			if !got.Discontinued || got.Active {
				t.Fatalf("after DELETE: %+v", got)
			}
			if got := a.getItem(t, tok, "/api/v1/Item?key=disc/1"); !got.Discontinued {
				t.Fatal("lookup by ShortID hides a discontinued item")
			}
			inList := func(path string) bool {
				for page := 1; ; page++ {
					p := decode[itemPage](t, a.get(t, fmt.Sprintf("%s?pageSize=250&page=%d", path, page), tok))
					if slices.Contains(shortIDs(p.Value), "Disc/1") {
						return true
					}
					if !p.HasMore {
						return false
					}
				}
			}
			if inList("/api/v1/Item") || !inList("/api/v1/Item/All") {
				t.Fatal("a discontinued item must leave /Item and stay in /Item/All")
			}
			wantError(t, a.send(t, "DELETE", "/api/v1/Item/nothing-here", tok, nil), 404, stockroom.ENOTFOUND)
			a.mustSend(t, "PUT", "/api/v1/Item", tok, map[string]any{"shortID": "Disc/1", "active": true}, 200)
			if got := a.getItem(t, tok, fmt.Sprintf("/api/v1/Item/%d", it.PartNo)); got.Discontinued || !inList("/api/v1/Item") {
				t.Fatalf("active:true did not reactivate: %+v", got)
			}
		})
		t.Run("Category", func(t *testing.T) {
			for _, id := range []string{"cat-b", "Cat-A", "cat-c"} {
				a.createItem(t, tok, map[string]any{"shortID": id, "category": 77})
			}
			a.mustSend(t, "DELETE", "/api/v1/Item/cat-c", tok, nil, 200)
			r := a.get(t, "/api/v1/Item?category=77", tok)
			got := decode[[]item](t, r)
			if r.status != 200 || !slices.Equal(shortIDs(got), []string{"Cat-A", "cat-b"}) {
				t.Fatalf("Category=77: %d %s", r.status, r.body)
			}
			if r := a.get(t, "/api/v1/Item?Category=78", tok); r.status != 200 || strings.TrimSpace(string(r.body)) != "[]" {
				t.Fatalf("empty category: %s", r.body)
			}
			v := wantError(t, a.get(t, "/api/v1/Item?Category=x", tok), 400, stockroom.EINVALID)
			if !slices.Equal(detailFields(v), []string{"Category"}) {
				t.Fatalf("%v", v)
			}
		})
	})
}

func TestItemListsSortAndSync(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := a.token(t, a.adminID, a.adminSecret)
		for i, id := range []string{"delta", "Alpha", "charlie", "Bravo", "echo"} {
			a.createItem(t, tok, map[string]any{"shortID": id, "units": 5 - i, "description": []string{"x", "y"}[i%2]})
		}
		a.mustSend(t, "DELETE", "/api/v1/Item/echo", tok, nil, 200)

		p := decode[itemPage](t, a.get(t, "/api/v1/Item", tok))
		if !slices.Equal(shortIDs(p.Value), []string{"Alpha", "Bravo", "charlie", "delta"}) || p.TotalCount != 4 {
			t.Fatalf("GET /Item: %v total %d", shortIDs(p.Value), p.TotalCount)
		}
		p = decode[itemPage](t, a.get(t, "/api/v1/Item/All?sort=UNITS", tok))
		if !slices.Equal(shortIDs(p.Value), []string{"echo", "Bravo", "charlie", "Alpha", "delta"}) || p.TotalCount != 5 {
			t.Fatalf("sort=units: %v", shortIDs(p.Value))
		}
		p = decode[itemPage](t, a.get(t, "/api/v1/Item?sort=description&direction=desc", tok))
		if !slices.Equal(shortIDs(p.Value), []string{"Bravo", "Alpha", "charlie", "delta"}) {
			t.Fatalf("sort=description desc (ties by partNo desc): %v", shortIDs(p.Value))
		}

		// Incremental sync: exactly the items changed at or after a time.
		all := decode[itemPage](t, a.get(t, "/api/v1/Item/All?sort=modified", tok))
		mark := all.Value[len(all.Value)-1].Modified
		time.Sleep(2 * time.Millisecond)
		a.mustSend(t, "PUT", "/api/v1/Item", tok, map[string]any{"shortID": "bravo", "description": "changed"}, 200)
		a.createItem(t, tok, map[string]any{"shortID": "foxtrot"})
		p = decode[itemPage](t, a.get(t, "/api/v1/Item/All?sort=modified&modifiedSince="+url.QueryEscape(mark), tok))
		if !slices.Equal(shortIDs(p.Value), []string{"echo", "Bravo", "foxtrot"}) || p.TotalCount != 3 {
			t.Fatalf("modifiedSince %s: %v (total %d)", mark, shortIDs(p.Value), p.TotalCount)
		}
		wantError(t, a.get(t, "/api/v1/Item?modifiedSince=soon", tok), 400, stockroom.EINVALID)
	})
}

func TestItemPermissions(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := a.token(t, a.adminID, a.adminSecret)
		a.createItem(t, admin, map[string]any{"shortID": "perm-1"})
		a.mustSend(t, "POST", "/api/v1/Alias", admin, map[string]any{"alias": "p1", "itemID": "perm-1"}, 201)
		reader := a.clientToken(t, false, stockroom.PermItemRead)
		readOnlyWriter := a.clientToken(t, true, stockroom.PermItemRead, stockroom.PermItemWrite)
		writerOnly := a.clientToken(t, false, stockroom.PermItemWrite)

		writes := []struct {
			method, path string
			body         any
		}{
			{"POST", "/api/v1/Item", map[string]any{"shortID": "new"}},
			{"PUT", "/api/v1/Item", map[string]any{"shortID": "perm-1", "description": "x"}},
			{"DELETE", "/api/v1/Item/perm-1", nil},
			{"POST", "/api/v1/Alias", map[string]any{"alias": "p2", "itemID": "perm-1"}},
			{"DELETE", "/api/v1/Alias/p1", nil},
		}
		for _, w := range writes {
			v := wantError(t, a.send(t, w.method, w.path, reader, w.body), 403, stockroom.EFORBIDDEN)
			if v["message"] != stockroom.MsgNoPermission {
				t.Errorf("%s %s without 116: %v", w.method, w.path, v["message"])
			}
			// Read-only comes first, even before the body is looked at.
			v = wantError(t, a.send(t, w.method, w.path, readOnlyWriter, "not json"), 403, stockroom.EFORBIDDEN)
			if v["message"] != stockroom.MsgReadOnly {
				t.Errorf("%s %s read-only: %v", w.method, w.path, v["message"])
			}
		}
		for _, path := range []string{"/api/v1/Item", "/api/v1/Item/All", "/api/v1/Item/1", "/api/v1/Item?key=perm-1", "/api/v1/Item?Category=1", "/api/v1/Alias"} {
			v := wantError(t, a.get(t, path, writerOnly), 403, stockroom.EFORBIDDEN)
			if v["message"] != stockroom.MsgNoPermission {
				t.Errorf("GET %s without 11: %v", path, v["message"])
			}
			if r := a.get(t, path, reader); r.status != 200 {
				t.Errorf("GET %s with 11: %d", path, r.status)
			}
			if r := a.get(t, path, readOnlyWriter); r.status != 200 {
				t.Errorf("GET %s read-only: %d", path, r.status)
			}
		}
		// Permission is checked before the body: 403, not 400.
		wantError(t, a.send(t, "POST", "/api/v1/Item", reader, "{broken"), 403, stockroom.EFORBIDDEN)
		// And authentication before anything.
		wantError(t, a.send(t, "POST", "/api/v1/Item", "", map[string]any{"shortID": "x"}), 401, stockroom.EUNAUTHORIZED)
	})
}

func TestAliases(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := a.token(t, a.adminID, a.adminSecret)
		it := a.createItem(t, tok, map[string]any{"shortID": "Widget"})
		a.createItem(t, tok, map[string]any{"shortID": "Gadget"})

		r := a.send(t, "POST", "/api/v1/Alias", tok, map[string]any{"alias": " W-OLD ", "itemID": "widget"})
		if r.status != 201 {
			t.Fatalf("POST /Alias: %d %s", r.status, r.body)
		}
		al := decode[map[string]any](t, r)
		if al["alias"] != "W-OLD" || al["partNo"] != float64(it.PartNo) || al["shortID"] != "Widget" || al["created"] == nil {
			t.Fatalf("alias record %s", r.body)
		}
		a.mustSend(t, "POST", "/api/v1/Alias", tok, map[string]any{"alias": "w/2", "itemID": "Widget"}, 201)
		a.mustSend(t, "POST", "/api/v1/Alias", tok, map[string]any{"alias": "g1", "itemID": "Gadget"}, 201)
		wantError(t, a.send(t, "POST", "/api/v1/Alias", tok, map[string]any{"alias": "w-old", "itemID": "Gadget"}), 409, stockroom.ECONFLICT)
		wantError(t, a.send(t, "POST", "/api/v1/Alias", tok, map[string]any{"alias": "zz", "itemID": "nothing"}), 404, stockroom.ENOTFOUND)
		v := wantError(t, a.send(t, "POST", "/api/v1/Alias", tok, map[string]any{"alias": 5}), 400, stockroom.EINVALID)
		got := detailFields(v)
		slices.Sort(got)
		if !slices.Equal(got, []string{"alias", "itemID"}) {
			t.Fatalf("alias validation: %v", v)
		}

		if got := a.getItem(t, tok, "/api/v1/Item?key=w-old&type=alias"); got.PartNo != it.PartNo {
			t.Fatalf("lookup by alias: %+v", got)
		}
		p := decode[struct {
			Value      []stockroom.Alias
			TotalCount int
		}](t, a.get(t, "/api/v1/Alias?itemID=WIDGET", tok))
		if p.TotalCount != 2 || p.Value[0].Alias != "W-OLD" || p.Value[1].Alias != "w/2" {
			t.Fatalf("aliases of Widget: %+v", p)
		}
		r = a.send(t, "DELETE", "/api/v1/Alias/"+url.PathEscape("W/2"), tok, nil)
		if r.status != 200 || string(r.body) != `{"alias":"w/2","status":"deleted"}`+"\n" {
			t.Fatalf("DELETE /Alias: %d %s", r.status, r.body)
		}
		wantError(t, a.send(t, "DELETE", "/api/v1/Alias/w%2F2", tok, nil), 404, stockroom.ENOTFOUND)
		wantError(t, a.get(t, "/api/v1/Item?key=w/2&type=alias", tok), 404, stockroom.ENOTFOUND)
	})
}

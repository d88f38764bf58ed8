package httpapi_test

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

func categoryIDs(cs []category) []int64 {
	var out []int64
	for _, c := range cs {
		out = append(out, c.CategoryID)
	}
	return out
}

func TestCategories(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := a.token(t, a.adminID, a.adminSecret)
		r := a.mustSend(t, "POST", "/api/v1/Category", tok, `{"CATEGORYID":40,"name":" Fasteners ","description":"Bolts and nuts"}`, 201)
		fasteners := decode[category](t, r)
		if fasteners.CategoryID != 40 || fasteners.Name != "Fasteners" || !fasteners.Active || fasteners.Created != fasteners.Modified ||
			r.header.Get("Location") != "/api/v1/Category/40" {
			t.Fatalf("created %s %v", r.body, r.header)
		}
		next := decode[category](t, a.mustSend(t, "POST", "/api/v1/Category", tok, map[string]any{"name": "Hinges"}, 201))
		if next.CategoryID != 41 {
			t.Fatalf("next id %d, want 41", next.CategoryID)
		}
		wantError(t, a.send(t, "POST", "/api/v1/Category", tok, map[string]any{"categoryID": 40, "name": "Again"}), 409, stockroom.ECONFLICT)

		t.Run("ConcurrentCreatesTakeDistinctIDs", func(t *testing.T) {
			ids := make([]int64, 8)
			var wg sync.WaitGroup
			for i := range ids {
				wg.Go(func() {
					r := a.send(t, "POST", "/api/v1/Category", tok, map[string]any{"name": "Parallel"})
					if r.status == 201 {
						ids[i] = decode[category](t, r).CategoryID
					}
				})
			}
			wg.Wait()
			slices.Sort(ids)
			if want := []int64{42, 43, 44, 45, 46, 47, 48, 49}; !slices.Equal(ids, want) {
				t.Fatalf("ids %v, want %v", ids, want)
			}
		})
		t.Run("Validation", func(t *testing.T) {
			for body, want := range map[string][]string{
				`{}`:                                   {"name"},
				`{"categoryID":-1,"name":"x"}`:         {"categoryID"},
				`{"categoryID":"7","name":""}`:         {"categoryID", "name"},
				`{"categoryID":2147483648,"name":"x"}`: {"categoryID"},
				`{"name":"x","description":5}`:         {"description"},
			} {
				v := wantError(t, a.send(t, "POST", "/api/v1/Category", tok, body), 400, stockroom.EINVALID)
				got := detailFields(v)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Errorf("%s: details %v, want %v", body, v["details"], want)
				}
			}
			wantError(t, a.send(t, "POST", "/api/v1/Category", tok, `nope`), 400, stockroom.EBADREQUEST)
			v := wantError(t, a.send(t, "PUT", "/api/v1/Category", tok, `{"name":"x"}`), 400, stockroom.EINVALID)
			if !slices.Equal(detailFields(v), []string{"categoryID"}) {
				t.Fatalf("PUT without categoryID: %v", v)
			}
		})
		t.Run("ReadUpdateDiscontinue", func(t *testing.T) {
			if got := decode[category](t, a.get(t, "/api/v1/Category/40", tok)); got != fasteners {
				t.Fatalf("GET: %+v", got)
			}
			for _, path := range []string{"/api/v1/Category/999", "/api/v1/Category/abc", "/api/v1/Category/0", "/api/v1/Category/99999999999999999999"} {
				wantError(t, a.get(t, path, tok), 404, stockroom.ENOTFOUND)
			}
			time.Sleep(2 * time.Millisecond)
			r := a.mustSend(t, "PUT", "/api/v1/Category", tok, map[string]any{"categoryID": 40, "description": "Bolts, nuts, washers"}, 200)
			if string(r.body) != `{"categoryID":40,"status":"updated"}`+"\n" {
				t.Fatalf("PUT: %s", r.body)
			}
			got := decode[category](t, a.get(t, "/api/v1/Category/40", tok))
			if got.Description != "Bolts, nuts, washers" || got.Name != "Fasteners" || got.Modified <= fasteners.Modified {
				t.Fatalf("after PUT: %+v", got)
			}
			a.mustSend(t, "PUT", "/api/v1/Category", tok, map[string]any{"categoryID": 40, "name": "Fasteners"}, 200)
			if again := decode[category](t, a.get(t, "/api/v1/Category/40", tok)); again.Modified != got.Modified {
				t.Fatal("a PUT that changed nothing moved modified")
			}
			wantError(t, a.send(t, "PUT", "/api/v1/Category", tok, map[string]any{"categoryID": 999, "name": "x"}), 404, stockroom.ENOTFOUND)
			for range 2 {
				r := a.mustSend(t, "DELETE", "/api/v1/Category/41", tok, nil, 200)
				if string(r.body) != `{"categoryID":41,"status":"discontinued"}`+"\n" {
					t.Fatalf("DELETE: %s", r.body)
				}
			}
			wantError(t, a.send(t, "DELETE", "/api/v1/Category/999", tok, nil), 404, stockroom.ENOTFOUND)
			wantError(t, a.send(t, "DELETE", "/api/v1/Category/x", tok, nil), 404, stockroom.ENOTFOUND)
			active := decode[page[category]](t, a.get(t, "/api/v1/Category?pageSize=2", tok))
			if ids := categoryIDs(active.Value); !slices.Equal(ids, []int64{40, 42}) || active.TotalCount != 9 || !active.HasMore {
				t.Fatalf("active categories %v of %d", ids, active.TotalCount)
			}
			all := decode[page[category]](t, a.get(t, "/api/v1/Category/All?sort=categoryID&direction=DESC&pageSize=250", tok))
			if ids := categoryIDs(all.Value); len(ids) != 10 || ids[0] != 49 || !slices.Contains(ids, 41) {
				t.Fatalf("all categories %v", ids)
			}
			a.mustSend(t, "PUT", "/api/v1/Category", tok, map[string]any{"categoryID": 41, "active": true}, 200)
			if got := decode[category](t, a.get(t, "/api/v1/Category/41", tok)); !got.Active {
				t.Fatal("active:true did not reactivate")
			}
		})
		t.Run("ItemsNameExistingCategories", func(t *testing.T) {
			r := a.send(t, "POST", "/api/v1/Item", tok, map[string]any{"shortID": "CAT-X", "category": 999, "subCategory": 998, "dfltOwner": 12345})
			got := detailFields(wantError(t, r, 400, stockroom.EINVALID))
			slices.Sort(got)
			if !slices.Equal(got, []string{"category", "dfltOwner", "subCategory"}) {
				t.Fatalf("unknown references: %s", r.body)
			}
			a.mustSend(t, "DELETE", "/api/v1/Category/42", tok, nil, 200)
			a.mustSend(t, "POST", "/api/v1/Item", tok, map[string]any{"shortID": "CAT-X", "categoryID": 40, "subCategory": 42}, 201)
			r = a.send(t, "PUT", "/api/v1/Item", tok, map[string]any{"shortID": "CAT-X", "subCategory": 997})
			if d := detailFields(wantError(t, r, 400, stockroom.EINVALID)); !slices.Equal(d, []string{"subCategory"}) {
				t.Fatalf("PUT unknown subCategory: %s", r.body)
			}
			a.mustSend(t, "PUT", "/api/v1/Item", tok, map[string]any{"shortID": "CAT-X", "category": 0}, 200)
		})
		t.Run("Permissions", func(t *testing.T) {
			wantError(t, a.get(t, "/api/v1/Category", ""), 401, stockroom.EUNAUTHORIZED)
			reader := a.clientToken(t, true, stockroom.PermItemRead, stockroom.PermItemWrite)
			a.mustSend(t, "GET", "/api/v1/Category/40", reader, nil, 200)
			for _, req := range [][2]string{{"POST", "/api/v1/Category"}, {"PUT", "/api/v1/Category"}, {"DELETE", "/api/v1/Category/40"}} {
				if v := wantError(t, a.send(t, req[0], req[1], reader, `{`), 403, stockroom.EFORBIDDEN); v["message"] != stockroom.MsgReadOnly {
					t.Fatalf("%s as read-only: %v", req, v)
				}
			}
			noPerm := a.clientToken(t, false, stockroom.PermMove)
			for _, req := range [][2]string{{"GET", "/api/v1/Category"}, {"GET", "/api/v1/Category/All"}, {"GET", "/api/v1/Category/40"},
				{"POST", "/api/v1/Category"}, {"PUT", "/api/v1/Category"}, {"DELETE", "/api/v1/Category/40"}} {
				if v := wantError(t, a.send(t, req[0], req[1], noPerm, `{`), 403, stockroom.EFORBIDDEN); v["message"] != stockroom.MsgNoPermission {
					t.Fatalf("%s without permission: %v", req, v)
				}
			}
		})
	})
}

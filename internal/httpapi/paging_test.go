package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

type warehousePage struct {
	Value      []stockroom.Warehouse `json:"value"`
	TotalCount int64                 `json:"totalCount"`
	Page       int64                 `json:"page"`
	PageSize   int64                 `json:"pageSize"`
	PageCount  int64                 `json:"pageCount"`
	HasMore    bool                  `json:"hasMore"`
}

func (a *api) warehouses(t *testing.T, tok, query string) (warehousePage, response) {
	t.Helper()
	r := a.get(t, "/api/v1/Warehouse"+query, tok)
	if r.status != 200 {
		t.Fatalf("GET /Warehouse%s: %d %s", query, r.status, r.body)
	}
	var p warehousePage
	if err := json.Unmarshal(r.body, &p); err != nil {
		t.Fatal(err)
	}
	return p, r
}

func ids(p warehousePage) []int64 {
	var out []int64
	for _, w := range p.Value {
		out = append(out, w.ID)
	}
	return out
}

func TestPaging(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		// Warehouse 1 "Main" exists; add 2..300 so there is more than one
		// maximum page.
		for id := int64(2); id <= 300; id++ {
			if err := a.svc.AddWarehouse(context.Background(), service.Operator, stockroom.Warehouse{ID: id, Name: fmt.Sprintf("W%03d", 301-id)}); err != nil {
				t.Fatal(err)
			}
		}
		tok := a.token(t, a.adminID, a.adminSecret)

		t.Run("Defaults", func(t *testing.T) {
			p, r := a.warehouses(t, tok, "")
			if p.Page != 1 || p.PageSize != 25 || len(p.Value) != 25 || p.TotalCount != 300 || p.PageCount != 12 || !p.HasMore || p.Value[0].ID != 1 {
				t.Fatalf("default page: %+v", p)
			}
			for h, want := range map[string]string{"X-Total-Count": "300", "X-Page": "1", "X-Page-Size": "25"} {
				if r.header.Get(h) != want {
					t.Errorf("%s %q, want %q", h, r.header.Get(h), want)
				}
			}
		})
		t.Run("PageSizeCappedAt250", func(t *testing.T) {
			p, r := a.warehouses(t, tok, "?pageSize=1000")
			if p.PageSize != 250 || len(p.Value) != 250 || p.PageCount != 2 || r.header.Get("X-Page-Size") != "250" {
				t.Fatalf("pageSize=1000 gave pageSize %d, %d records, X-Page-Size %q", p.PageSize, len(p.Value), r.header.Get("X-Page-Size"))
			}
			p, _ = a.warehouses(t, tok, "?pageSize=99999999999999999999999")
			if p.PageSize != 250 {
				t.Fatalf("an enormous pageSize gave %d, want 250", p.PageSize)
			}
		})
		t.Run("LastAndPastTheEnd", func(t *testing.T) {
			p, _ := a.warehouses(t, tok, "?page=2&pageSize=250")
			if len(p.Value) != 50 || p.HasMore || p.Value[49].ID != 300 {
				t.Fatalf("last page: %d records, hasMore %v", len(p.Value), p.HasMore)
			}
			p, r := a.warehouses(t, tok, "?page=99&pageSize=250")
			if len(p.Value) != 0 || p.Value == nil || p.TotalCount != 300 || p.HasMore || p.Page != 99 || r.header.Get("X-Total-Count") != "300" {
				t.Fatalf("page past the end: %s", r.body)
			}
		})
		t.Run("InvalidParametersAreNamed", func(t *testing.T) {
			for query, want := range map[string][]string{
				"?page=0":                           {"page"},
				"?page=-1":                          {"page"},
				"?page=abc":                         {"page"},
				"?page=1.5":                         {"page"},
				"?pageSize=0":                       {"pageSize"},
				"?pageSize=-5":                      {"pageSize"},
				"?pageSize=ten":                     {"pageSize"},
				"?page=0&pageSize=x":                {"page", "pageSize"},
				"?modifiedSince=yesterday":          {"modifiedSince"},
				"?page=x&pageSize=0&modifiedSince=": {"modifiedSince", "page", "pageSize"},
			} {
				v := wantError(t, a.get(t, "/api/v1/Warehouse"+query, tok), 400, stockroom.EINVALID)
				got := detailFields(v)
				slices.Sort(got)
				if !slices.Equal(got, want) || v["message"] != stockroom.MsgValidation {
					t.Errorf("%s: details %v message %q, want fields %v", query, got, v["message"], want)
				}
			}
		})
		t.Run("ParameterNamesAnyCase", func(t *testing.T) {
			p, _ := a.warehouses(t, tok, "?PAGE=2&pagesize=10&Sort=NAME&DIRECTION=desc")
			if p.Page != 2 || p.PageSize != 10 || len(p.Value) != 10 {
				t.Fatalf("page %d size %d len %d", p.Page, p.PageSize, len(p.Value))
			}
		})
		t.Run("Sort", func(t *testing.T) {
			// Names W300..W001 run opposite to ids 2..300; "Main" sorts first.
			p, _ := a.warehouses(t, tok, "?sort=name&pageSize=3")
			if got := ids(p); !slices.Equal(got, []int64{1, 300, 299}) {
				t.Errorf("sort=name: %v", got)
			}
			p, _ = a.warehouses(t, tok, "?sort=name&direction=DESC&pageSize=3")
			if got := ids(p); !slices.Equal(got, []int64{2, 3, 4}) {
				t.Errorf("sort=name DESC: %v", got)
			}
			p, _ = a.warehouses(t, tok, "?sort=bogus&direction=sideways&pageSize=3")
			if got := ids(p); !slices.Equal(got, []int64{1, 2, 3}) {
				t.Errorf("unknown sort and direction: %v, want the default order", got)
			}
		})
		t.Run("WalkingAllPagesSeesEachRecordOnce", func(t *testing.T) {
			seen := map[int64]bool{}
			for page := 1; ; page++ {
				p, _ := a.warehouses(t, tok, fmt.Sprintf("?page=%d&pageSize=7&sort=name", page))
				for _, w := range p.Value {
					if seen[w.ID] {
						t.Fatalf("warehouse %d on two pages", w.ID)
					}
					seen[w.ID] = true
				}
				if !p.HasMore {
					break
				}
			}
			if len(seen) != 300 {
				t.Fatalf("saw %d warehouses, want 300", len(seen))
			}
		})
		t.Run("ScopeLimitsListAndTotals", func(t *testing.T) {
			id, secret := a.addClient(t, service.NewClient{Permissions: []stockroom.Permission{11}, Scope: stockroom.Scope{IDs: []int64{5, 7, 250}}})
			p, _ := a.warehouses(t, a.token(t, id, secret), "?pageSize=2")
			if p.TotalCount != 3 || p.PageCount != 2 || !slices.Equal(ids(p), []int64{5, 7}) {
				t.Fatalf("scoped list: %+v", p)
			}
		})
		t.Run("ReasonCodes", func(t *testing.T) {
			r := a.get(t, "/api/v1/ReasonCode?pageSize=250", tok)
			var p struct {
				Value      []stockroom.ReasonCode `json:"value"`
				TotalCount int                    `json:"totalCount"`
			}
			if err := json.Unmarshal(r.body, &p); err != nil || r.status != 200 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			if p.TotalCount != len(stockroom.DefaultReasonCodes) || p.Value[0] != (stockroom.ReasonCode{Code: 1, Description: "Purchase order receipt", Direction: "receive"}) {
				t.Fatalf("reason codes: %s", r.body)
			}
		})
	})
}

package httpapi_test

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
)

// wantInvalid checks that r is a validation error naming exactly the given
// fields.
func wantInvalid(t *testing.T, r response, fields ...string) {
	t.Helper()
	v := wantError(t, r, 400, stockroom.EINVALID)
	got := detailFields(v)
	slices.Sort(got)
	slices.Sort(fields)
	if !slices.Equal(got, fields) {
		t.Fatalf("details name %q, want %q (%s)", got, fields, r.body)
	}
}

// TestTextParameters: a NUL or bytes that are not UTF-8 in a query value or
// name, a path segment or a token form field are refused as 400 naming the
// parameter, the same on every engine (PostgreSQL cannot even compare such
// text), after authentication as every validation is.
func TestTextParameters(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		for _, tc := range []struct {
			method, path string
			field        string
		}{
			{"GET", "/api/v1/Item?key=%00", "key"},
			{"GET", "/api/v1/Item?key=%00&type=alias", "key"},
			{"GET", "/api/v1/Item?category=%FF", "category"},
			{"GET", "/api/v1/Alias?itemID=%FF", "itemID"},
			{"GET", "/api/v1/Inventory?spot=A%00", "spot"},
			{"GET", "/api/v1/Inventory?serial=%C0%AF", "serial"},
			{"GET", "/api/v1/Inventory/StockLevels?itemID=ITEM-A%00", "itemID"},
			{"GET", "/api/v1/Inventory/Transactions?itemID=%ED%A0%80", "itemID"},
			{"GET", "/api/v1/Warehouse?sort=%FF", "sort"},
			{"GET", "/api/v1/Item/All?%FF=1", "\uFFFD"},
			{"GET", "/api/v1/Item/All?unused=a%00b", "unused"},
			{"POST", "/api/v1/Inventory/Receive?x=%00", "x"},
			{"DELETE", "/api/v1/Alias/%00", "alias"},
			{"DELETE", "/api/v1/Alias/ok%FF", "alias"},
			{"DELETE", "/api/v1/Item/%FF", "shortID"},
			{"GET", "/api/v1/Item/%FF", "id"},
			{"GET", "/api/v1/Inventory/%00", "wid"},
			{"GET", "/api/v1/Inventory/StockLevels/1%FF", "wid"},
			{"GET", "/api/v1/Inventory/Transactions/%C0%AF", "id"},
		} {
			body := ""
			if tc.method == "POST" {
				body = `{"itemID":"ITEM-A","units":1,"wid":1,"reasonCode":1}`
			}
			r := a.do(t, tc.method, tc.path, strings.NewReader(body), "Authorization", "Bearer "+tok, "Content-Type", "application/json")
			t.Run(tc.method+" "+tc.path, func(t *testing.T) { wantInvalid(t, r, tc.field) })
		}
		t.Run("AuthenticationComesFirst", func(t *testing.T) {
			wantError(t, a.do(t, "GET", "/api/v1/Item?key=%00", nil), 401, stockroom.EUNAUTHORIZED)
			wantError(t, a.do(t, "DELETE", "/api/v1/Alias/%00", nil), 401, stockroom.EUNAUTHORIZED)
		})
		t.Run("ValidTextStillWorks", func(t *testing.T) {
			if r := a.get(t, "/api/v1/Item?key=item-a", tok); r.status != 200 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			// A ShortID may hold any printable text, escaped in the path.
			a.createItem(t, tok, map[string]any{"shortID": "Ä/ß €"})
			if r := a.get(t, "/api/v1/Item?key="+url.QueryEscape("ä/ß €"), tok); r.status != 200 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			if r := a.do(t, "DELETE", "/api/v1/Item/"+url.PathEscape("Ä/ß €"), nil, "Authorization", "Bearer "+tok); r.status != 200 {
				t.Fatalf("%d %s", r.status, r.body)
			}
		})
		t.Run("TokenForm", func(t *testing.T) {
			form := "grant_type=client_credentials&client_id=" + a.adminID + "&client_secret=" + url.QueryEscape(a.adminSecret) + "%00"
			r := a.do(t, "POST", "/api/v1/Token", strings.NewReader(form), "Content-Type", "application/x-www-form-urlencoded")
			if v := wantError(t, r, 400, stockroom.EBADREQUEST); !strings.HasPrefix(v["message"].(string), "client_secret ") {
				t.Errorf("%s: message %q does not name the field", form, v["message"])
			}
			// A client_id that is not text is not any client's: 401, as
			// every malformed one (contract §14).
			for _, form := range []string{
				"grant_type=client_credentials&client_id=" + a.adminID + "%00&client_secret=x",
				"grant_type=client_credentials&client_id=%FF%FE&client_secret=x",
			} {
				r := a.do(t, "POST", "/api/v1/Token", strings.NewReader(form), "Content-Type", "application/x-www-form-urlencoded")
				wantError(t, r, 401, stockroom.EUNAUTHORIZED)
			}
			basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("biadmin\xff:secret"))
			r = a.do(t, "POST", "/api/v1/Token", strings.NewReader("grant_type=client_credentials"),
				"Content-Type", "application/x-www-form-urlencoded", "Authorization", basic)
			wantError(t, r, 401, stockroom.EUNAUTHORIZED)
		})
	})
}

// TestJSONText: what encoding/json would let pass silently is refused as a
// validation error naming the field by its path in the body: a field name
// given twice with the same spelling, at any depth, and text that is not
// valid Unicode (invalid UTF-8, a lone UTF-16 surrogate escape), which it
// would store as U+FFFD. A U+FFFD the client really sent is text like any
// other.
func TestJSONText(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		for _, tc := range []struct {
			name, path, body string
			fields           []string
		}{
			{"InvalidUTF8", "/api/v1/Item", "{\"shortID\":\"AB\xff\xfe\"}", []string{"shortID"}},
			{"OverlongUTF8", "/api/v1/Item", "{\"shortID\":\"A\xc0\xaf\"}", []string{"shortID"}},
			{"LoneHighSurrogate", "/api/v1/Item", `{"shortID":"A\ud800"}`, []string{"shortID"}},
			{"LoneLowSurrogate", "/api/v1/Item", `{"shortID":"A\udc00B"}`, []string{"shortID"}},
			{"SurrogatesReversed", "/api/v1/Item", `{"shortID":"A\ude00\ud83d"}`, []string{"shortID"}},
			{"InvalidInUnknownField", "/api/v1/Item", "{\"shortID\":\"X-1\",\"note\":{\"a\":[\"ok\",\"\xff\"]}}", []string{"note.a[1]"}},
			{"InvalidFieldName", "/api/v1/Item", "{\"shortID\":\"X-1\",\"\xffname\":1}", []string{"\uFFFDname"}},
			{"NUL", "/api/v1/Inventory/Receive", `{"itemID":"ITEM-A","units":1,"wid":1,"reasonCode":1,"remark":"a\u0000b"}`, []string{"remark"}},
			{"DuplicateKey", "/api/v1/Inventory/Receive", `{"itemID":"ITEM-A","units":1,"units":2,"wid":1,"reasonCode":1}`, []string{"units"}},
			{"DuplicateKeyEscaped", "/api/v1/Inventory/Receive", `{"itemID":"ITEM-A","units":1,"\u0075nits":2,"wid":1,"reasonCode":1}`, []string{"units"}},
			{"DuplicateKeyThrice", "/api/v1/Inventory/Receive", `{"itemID":"ITEM-A","wid":1,"wid":1,"wid":1,"units":1,"reasonCode":1}`, []string{"wid"}},
			{"DuplicateNested", "/api/v1/Inventory/Receive", `{"itemID":"ITEM-A","units":1,"wid":1,"reasonCode":1,"lines":[{"units":1},{"units":1,"units":2}]}`, []string{"lines[1].units"}},
			{"DuplicateDeep", "/api/v1/Item", `{"shortID":"X-2","a":{"b":[[{"c":1,"c":1}]]}}`, []string{"a.b[0][0].c"}},
			{"DuplicateAndCase", "/api/v1/Item", `{"shortID":"X-3","units":1,"units":2,"Units":3}`, []string{"units", "Units"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				wantInvalid(t, a.send(t, "POST", tc.path, tok, tc.body), tc.fields...)
			})
		}
		t.Run("NothingWasStored", func(t *testing.T) {
			all := a.get(t, "/api/v1/Item/All", tok)
			if strings.Contains(string(all.body), "X-") || strings.Contains(string(all.body), "\uFFFD") {
				t.Fatalf("a refused item was stored: %s", all.body)
			}
			wantError(t, a.get(t, "/api/v1/Inventory/Transactions/1", tok), 404, stockroom.ENOTFOUND)
		})
		t.Run("ValidTextIsKept", func(t *testing.T) {
			for _, tc := range []struct{ body, want string }{
				{`{"shortID":"R-\ufffd"}`, "R-\uFFFD"},
				{"{\"shortID\":\"S-\xef\xbf\xbd\"}", "S-\uFFFD"},
				{`{"shortID":"T-\ud83d\ude00"}`, "T-😀"},
				{`{"shortID":"U-1","a":{"x":1},"b":{"x":1},"c":[{"x":1},{"x":2}]}`, "U-1"},
			} {
				if it := a.createItem(t, tok, tc.body); it.ShortID != tc.want {
					t.Errorf("%s: stored %q, want %q", tc.body, it.ShortID, tc.want)
				}
			}
		})
	})
}

// TestAuthorizationGivenOnce: a second Authorization header, even after a
// valid one, is refused as 401 with the challenge.
func TestAuthorizationGivenOnce(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := a.token(t, a.adminID, a.adminSecret)
		r := a.doBody(t, "GET", "/api/v1/Warehouse", "", "Authorization", "Bearer "+tok, "Authorization", "garbage")
		v := wantError(t, r, 401, stockroom.EUNAUTHORIZED)
		if !strings.Contains(v["message"].(string), "once") || r.header.Get("WWW-Authenticate") != `Bearer realm="stockroom"` {
			t.Errorf("message %q, WWW-Authenticate %q", v["message"], r.header.Get("WWW-Authenticate"))
		}
		basic := "Basic " + base64.StdEncoding.EncodeToString([]byte(a.adminID+":"+a.adminSecret))
		r = a.doBody(t, "POST", "/api/v1/Token", "grant_type=client_credentials",
			"Content-Type", "application/x-www-form-urlencoded", "Authorization", basic, "Authorization", basic)
		v = wantError(t, r, 401, stockroom.EUNAUTHORIZED)
		if !strings.Contains(v["message"].(string), "once") || r.header.Get("WWW-Authenticate") != `Basic realm="stockroom"` {
			t.Errorf("token: message %q, WWW-Authenticate %q", v["message"], r.header.Get("WWW-Authenticate"))
		}
	})
}

// TestContentEncoding: a body in an encoding the server does not decode is
// refused with 415, not read as if it were plain.
func TestContentEncoding(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		for _, tc := range []struct{ method, path, ctype, body, encoding string }{
			{"POST", "/api/v1/Item", "application/json", `{"shortID":"GZ-1"}`, "gzip"},
			{"PUT", "/api/v1/Item", "application/json", `{"shortID":"ITEM-A"}`, "br"},
			{"POST", "/api/v1/Inventory/Receive", "application/json", `{"itemID":"ITEM-A","units":1,"wid":1,"reasonCode":1}`, "identity, gzip"},
			{"POST", "/api/v1/Token", "application/x-www-form-urlencoded", "grant_type=client_credentials", "deflate"},
		} {
			r := a.do(t, tc.method, tc.path, strings.NewReader(tc.body), "Authorization", "Bearer "+tok,
				"Content-Type", tc.ctype, "Content-Encoding", tc.encoding)
			t.Run(tc.method+" "+tc.path, func(t *testing.T) { wantError(t, r, 415, stockroom.EUNSUPPORTED) })
		}
		r := a.do(t, "POST", "/api/v1/Item", strings.NewReader(`{"shortID":"ID-1"}`), "Authorization", "Bearer "+tok,
			"Content-Type", "application/json", "Content-Encoding", "Identity")
		if r.status != 201 {
			t.Errorf("identity encoding: %d %s", r.status, r.body)
		}
		if r := a.do(t, "GET", "/api/v1/Warehouse", nil, "Authorization", "Bearer "+tok, "Content-Encoding", "gzip"); r.status != 200 {
			t.Errorf("encoding on a request without a body: %d %s", r.status, r.body)
		}
	})
}

// TestRoutingEdges: a literal path of one method is not taken for a
// parameter of another method's route, and a path in an uncleaned form is
// answered with the error object, never with the mux's redirect page.
func TestRoutingEdges(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		for _, tc := range []struct{ method, path, allow string }{
			{"GET", "/api/v1/Inventory/Receive", "POST"},
			{"GET", "/api/v1/inventory/move", "POST"},
			{"GET", "/api/v1/Inventory/Hold", "POST"},
			{"GET", "/api/v1/Inventory/Release", "POST"},
			{"PUT", "/api/v1/Inventory/Receive", "POST"},
			{"DELETE", "/api/v1/Item/All", "GET, HEAD"},
		} {
			r := a.do(t, tc.method, tc.path, nil, "Authorization", "Bearer "+tok)
			t.Run(tc.method+" "+tc.path, func(t *testing.T) {
				wantError(t, r, 405, stockroom.EMETHOD)
				if r.header.Get("Allow") != tc.allow {
					t.Errorf("Allow %q, want %q", r.header.Get("Allow"), tc.allow)
				}
			})
		}
		t.Run("HEAD", func(t *testing.T) {
			// Past the OpenAPI check, which expects a body on an error to
			// a request the document has no operation for.
			req, _ := http.NewRequest("HEAD", a.url+"/api/v1/Inventory/Issue", nil)
			req.Header.Set("Authorization", "Bearer "+tok)
			res, err := http.DefaultTransport.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != 405 || res.Header.Get("Allow") != "POST" {
				t.Fatalf("HEAD /api/v1/Inventory/Issue: %d, Allow %q", res.StatusCode, res.Header.Get("Allow"))
			}
		})
		for _, path := range []string{"/api/v1/Inventory/1", "/api/v1/Inventory/StockLevels", "/api/v1/Item/All", "/api/v1/inventory/stocklevels/1"} {
			if r := a.get(t, path, tok); r.status != 200 {
				t.Errorf("GET %s: %d %s", path, r.status, r.body)
			}
		}
		for _, path := range []string{"/api/v1//Item", "//api/v1/Item", "/api/v1/./Item", "/api/v1/Item/../Warehouse",
			"/api/v1/Item/.", "/api/v1/Inventory//Receive", "/api/v1/Item/All/..", "/./healthz"} {
			for _, method := range []string{"GET", "POST"} {
				r := a.do(t, method, path, strings.NewReader("{}"), "Authorization", "Bearer "+tok, "Content-Type", "application/json")
				t.Run(method+" "+path, func(t *testing.T) { wantError(t, r, 404, stockroom.ENOTFOUND) })
			}
		}
	})
}

// TestItemByWrongKeyPointsToLookup: GET /Item/{x} takes a partNo; a ShortID
// there is a 404 that says how to look one up.
func TestItemByWrongKeyPointsToLookup(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		v := wantError(t, a.get(t, "/api/v1/Item/ITEM-A", tok), 404, stockroom.ENOTFOUND)
		if msg := v["message"].(string); !strings.Contains(msg, "/api/v1/Item?key=ITEM-A&type=id") {
			t.Fatalf("message %q does not point to the lookup", msg)
		}
		v = wantError(t, a.get(t, "/api/v1/Item/"+url.PathEscape("A B&C"), tok), 404, stockroom.ENOTFOUND)
		if msg := v["message"].(string); !strings.Contains(msg, "?key=A+B%26C&type=id") {
			t.Fatalf("message %q: the key is not escaped for a query", msg)
		}
	})
}

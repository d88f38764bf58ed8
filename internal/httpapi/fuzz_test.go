package httpapi

import (
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stockroom/stockroom"
)

// FuzzParseTokenRequest feeds arbitrary bodies, content types and
// Authorization headers to the token request parser. It must never panic,
// must fail only with bad_request or payload_too_large, and must never accept
// a request without both credentials.
func FuzzParseTokenRequest(f *testing.F) {
	f.Add("grant_type=client_credentials&client_id=a&client_secret=b", "application/x-www-form-urlencoded", "")
	f.Add("grant_type=client_credentials", "application/x-www-form-urlencoded", "Basic YTpi")
	f.Add("grant_type=client_credentials&client_id=a", "application/x-www-form-urlencoded; charset=utf-8", "Basic YTpi")
	f.Add("grant_type=client_credentials&client_id=a&client_id=b", "application/x-www-form-urlencoded", "")
	f.Add("%zz=1", "application/x-www-form-urlencoded", "Basic %%%")
	f.Add(`{"grant_type":"client_credentials"}`, "application/json", "Bearer x")
	f.Fuzz(func(t *testing.T, body, contentType, authz string) {
		r := httptest.NewRequest("POST", "/api/v1/Token", strings.NewReader(body))
		r.Header.Set("Content-Type", contentType)
		r.Header.Set("Authorization", authz)
		tr, err := parseTokenRequest(r)
		if err != nil {
			if c := stockroom.ErrorCode(err); c != stockroom.EBADREQUEST && c != stockroom.ETOOLARGE {
				t.Fatalf("error code %q: %v", c, err)
			}
			return
		}
		if tr.clientID == "" || tr.secret == "" {
			t.Fatalf("accepted a request without credentials: %+v", tr)
		}
	})
}

// FuzzParsePageRequest feeds arbitrary query strings to the paging parser.
// Whatever it accepts must be a usable page request; whatever it refuses must
// be a validation error naming only paging parameters.
func FuzzParsePageRequest(f *testing.F) {
	for _, s := range []string{"", "page=2&pageSize=10", "PAGE=0", "pagesize=1000", "page=9223372036854775807&pageSize=250",
		"page=99999999999999999999", "sort=name&direction=desc", "modifiedSince=2025-01-15", "modifiedSince=2025-01-15T09:30:00%2B02:00",
		"page=&pageSize=", "page=%20+3", "modifiedsince=2025-13-45T99:00:00Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := parseQuery(raw)
		if err != nil {
			return // answered 400 bad_request before paging is parsed
		}
		req, err := parsePageRequest(q)
		if err != nil {
			e, ok := err.(*stockroom.Error)
			if !ok || e.Code != stockroom.EINVALID || len(e.Details) == 0 {
				t.Fatalf("error %v, want a validation error with details", err)
			}
			for field := range e.Details {
				if field != "page" && field != "pageSize" && field != "modifiedSince" {
					t.Fatalf("details name %q", field)
				}
			}
			return
		}
		if req.Page < 1 || req.PageSize < 1 || req.PageSize > stockroom.MaxPageSize || req.Offset() < 0 {
			t.Fatalf("accepted an unusable page request %+v (offset %d)", req, req.Offset())
		}
		if req.Direction != "" && req.Direction != stockroom.DirectionAsc && req.Direction != stockroom.DirectionDesc {
			t.Fatalf("direction %q", req.Direction)
		}
		if !req.ModifiedSince.IsZero() && req.ModifiedSince.Location().String() != "UTC" {
			t.Fatalf("modifiedSince not in UTC: %v", req.ModifiedSince)
		}
	})
}

// FuzzParseItemChange feeds arbitrary JSON bodies to the item body parser
// (and so to checkJSON's walk of them). It must never panic, must fail only
// with bad_request or validation_error, and whatever it accepts must satisfy
// the item rules.
func FuzzParseItemChange(f *testing.F) {
	for _, s := range []string{
		`{"shortID":"A-1","description":"d","category":3,"units":1.5}`,
		`{"SHORTID":"x","categoryID":2,"unit":"KG","active":false}`,
		`{"shortID":"x","category":1,"categoryID":2}`,
		`{"shortID":"x","units":1e-7}`,
		`{"shortID":" ","units":"5"}`,
		`{"shortID":"x","ShortId":"y"}`,
		`[]`, `null`, `{"shortID":"\u0000"}`,
		`{"shortID":"x","units":1,"units":2}`, `{"shortID":"x","a":[{"b":1,"b":2}]}`,
		"{\"shortID\":\"A\xff\"}", `{"shortID":"A\ud800"}`, `{"shortID":"A\ud83d\ude00\udc00"}`, `{"shortID":"A\ufffd"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		r := httptest.NewRequest("POST", "/api/v1/Item", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		ch, v, err := readItemChange(r)
		if err == nil {
			ch.Validate(&v)
			err = v.Err()
		}
		if err != nil {
			if c := stockroom.ErrorCode(err); c != stockroom.EBADREQUEST && c != stockroom.EINVALID {
				t.Fatalf("error code %q: %v", c, err)
			}
			return
		}
		if n := utf8.RuneCountInString(ch.ShortID); n < 1 || n > stockroom.MaxKeyLen || strings.TrimSpace(ch.ShortID) != ch.ShortID {
			t.Fatalf("accepted ShortID %q", ch.ShortID)
		}
		// Bytes that are not UTF-8 in a string are refused, never turned
		// into U+FFFD (and outside strings they are not JSON).
		if !utf8.ValidString(body) {
			t.Fatalf("accepted a body that is not UTF-8: %q", body)
		}
		for _, p := range []*int64{ch.Category, ch.SubCategory, ch.DfltOwner} {
			if p != nil && (*p < 0 || *p > stockroom.MaxWarehouseID) {
				t.Fatalf("accepted out-of-range integer %d", *p)
			}
		}
		if ch.Units != nil && (ch.Units.Sign() < 0 || stockroom.Whole(1_000_000_000_000).Less(*ch.Units)) {
			t.Fatalf("accepted units %v", *ch.Units)
		}
	})
}

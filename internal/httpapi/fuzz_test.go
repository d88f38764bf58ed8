package httpapi

import (
	"cmp"
	"net/http"
	"net/http/httptest"
	"runtime"
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
// (and so to the decoder's walk of them). It must never panic, must fail only
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
		ch, v, err := readBody[stockroom.ItemChange](r)
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

// FuzzReadBodyCost feeds arbitrary bodies to the reading of a handler's
// body (its read within the size limit, the decoder's walk, the letter-case
// matching of names, arrays of lines and their objects, numbers, times,
// owners) and holds each to a budget, not only to not crashing: what it
// allocates stays a small multiple of the body's length. (Its seed nested 200 deep under long names cost the old walk,
// which wrote out each field's whole path at every step, 97 times its
// length.)
func FuzzReadBodyCost(f *testing.F) {
	for _, s := range []string{
		`{"itemID":"A","units":1e999999,"lines":[{"units":1.5,"itemID":"x"},{"UNITS":2}]}`,
		`{"poNo":"P-1","vendorID":"V","lines":[{"lineNo":1,"itemID":"A","units":2,"unitPrice":0.5}],"orderDate":"2025-01-15"}`,
		`{"a":{"b":[[{"c":1,"c":1}]]},"A":1,"x":"\ud800","y":"` + "\xff" + `"}`,
		`{"lines":[1,"x",{},[]],"allowPartial":true}`, `[[[[[[[[[[]]]]]]]]]]`, `{"n":-0.0e-0000000000000000012}`,
		strings.Repeat(`{"nnnnnnnnnnnnnnnnnnnn":`, 200) + "0" + strings.Repeat("}", 200),
	} {
		f.Add(s)
	}
	readers := map[string]func(r *http.Request) error{
		"item":          bodyErr[stockroom.ItemChange],
		"party":         bodyErr[stockroom.PartyChange],
		"purchaseOrder": bodyErr[stockroom.PurchaseOrderRequest],
		"commit":        bodyErr[stockroom.CommitRequest],
	}
	f.Fuzz(func(t *testing.T, body string) {
		for name, read := range readers {
			r := httptest.NewRequest("POST", "/api/v1/X", strings.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := read(r)
			runtime.ReadMemStats(&after)
			// 64 times: an object of many short names costs a few maps'
			// entries for each (encoding/json's, the letter-case
			// matching's, the check for names given twice).
			if n := after.TotalAlloc - before.TotalAlloc; n > 64*uint64(len(body))+16<<10 {
				t.Fatalf("%s: allocated %d bytes for a body of %d: %q", name, n, len(body), body)
			}
			if c := stockroom.ErrorCode(err); err != nil && c != stockroom.EBADREQUEST && c != stockroom.EINVALID {
				t.Fatalf("%s: error %v", name, err)
			}
		}
	})
}

// readBody reads r's body into a T as a handler's request has it read
// (jsonRequest) and the service decodes it, with the problems of its fields
// (v) or why it cannot be read.
func readBody[T any](r *http.Request) (T, stockroom.Validation, error) {
	req := jsonRequest[T](r)
	err := req.Decode(&req.In)
	if !req.Problems.Merge(err) {
		return req.In, req.Problems, cmp.Or(req.Unreadable, err)
	}
	return req.In, req.Problems, req.Unreadable
}

// bodyErr is what reading r's body into a T found wrong.
func bodyErr[T any](r *http.Request) error {
	_, v, err := readBody[T](r)
	return cmp.Or(err, v.Err())
}

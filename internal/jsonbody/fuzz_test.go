package jsonbody_test

import (
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/jsonbody"
)

// FuzzDecodeCost feeds arbitrary bodies to the decoder, read into request
// types of every shape (synonyms, read-only and ignored fields, lines of
// every kind of value), and holds each to a budget, not only to not
// crashing: what it allocates stays a small multiple of the body's length
// (contract §14), whatever the body nests or repeats. What it reports must
// be what it promises: only bad_request as an error, problems only as a
// validation, unknown fields listed at most MaxProblemFields times under
// paths cut short, the same every time.
func FuzzDecodeCost(f *testing.F) {
	for _, s := range []string{
		`{"lines":[` + strings.Repeat(`1,`, 999) + `1]}`, `{"lines":[` + strings.Repeat(`{},`, 999) + `{}]}`,
		`{"itemID":"A","units":1e999999,"lines":[{"units":1.5,"itemID":"x"},{"UNITS":2}]}`,
		`{"poNo":"P-1","vendorID":"V","lines":[{"lineNo":1,"itemID":"A","units":2,"unitPrice":0.5,"wid":1,"warehouse":2}],"orderDate":"2025-01-15"}`,
		`{"a":{"b":[[{"c":1,"c":1}]]},"A":1,"x":"\ud800","y":"` + "\xff" + `"}`,
		`{"lines":[1,"x",{},[],null],"allowPartial":true}`, `[[[[[[[[[[]]]]]]]]]]`, `{"n":-0.0e-0000000000000000012}`,
		`{"SHORTID":"x","categoryID":2,"category":3,"unit":"KG","active":false,"discontinued":false,"partNo":1}`,
		`{"soNo":"S","customerID":"","owner":-1,"lines":[{"unitPrice":"x","unitsShipped":1,"owner":"C"}]}`,
		`{"lines":[{"line":1,"recno":2,"Line":3}],"reference":"r"}`,
		strings.Repeat(`{"nnnnnnnnnnnnnnnnnnnn":`, 200) + "0" + strings.Repeat("}", 200),
		`{"lines":[` + strings.Repeat(`{"units":"x"},`, 1000) + `{}]}`,
	} {
		f.Add(s)
	}
	into := map[string]func() any{
		"item":     func() any { return new(stockroom.ItemChange) },
		"party":    func() any { return new(stockroom.PartyChange) },
		"receive":  func() any { return new(stockroom.ReceiveRequest) },
		"purchase": func() any { return new(stockroom.PurchaseOrderRequest) },
		"shipping": func() any { return new(stockroom.ShippingOrderRequest) },
		"work":     func() any { return new(stockroom.WorkOrderRequest) },
		"commit":   func() any { return new(stockroom.CommitRequest) },
		"ship":     func() any { return new(stockroom.ShipRequest) },
		"notice":   func() any { return new(stockroom.ShipNoticeRequest) },
		"transit":  func() any { return new(stockroom.TransitReceiveRequest) },
	}
	f.Fuzz(func(t *testing.T, body string) {
		for name, newIn := range into {
			dst := newIn()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			res, err := jsonbody.Decode([]byte(body), dst)
			runtime.ReadMemStats(&after)
			// 64 times: an object of many short names costs each its
			// string and its place in the check for names given twice,
			// and an element of lines, however short ({}), a struct; and
			// a few hundred bytes for each problem named, which may take
			// as little as two bytes of body ([1,1,…] for lines), up to
			// the MaxProblemFields a refusal names.
			problems := 0
			if e, ok := res.Problems.Err().(*stockroom.Error); ok {
				problems = len(e.Details)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 64*uint64(len(body))+16<<10+512*uint64(problems) {
				t.Fatalf("%s: allocated %d bytes for a body of %d with %d problems: %q", name, n, len(body), problems, body)
			}
			if err != nil {
				if stockroom.ErrorCode(err) != stockroom.EBADREQUEST {
					t.Fatalf("%s: error %v", name, err)
				}
				continue
			}
			if perr := res.Problems.Err(); perr != nil && stockroom.ErrorCode(perr) != stockroom.EINVALID {
				t.Fatalf("%s: problems %v", name, perr)
			}
			if len(res.Unknown) > stockroom.MaxProblemFields {
				t.Fatalf("%s: %d unknown fields", name, len(res.Unknown))
			}
			for _, u := range res.Unknown {
				if u == "" && !strings.Contains(body, `""`) || len(u) > 128+len("…") || !utf8.ValidString(u) && utf8.ValidString(body) {
					t.Fatalf("%s: unknown field %q", name, u)
				}
			}
			again, _ := jsonbody.Decode([]byte(body), newIn())
			if !slices.Equal(again.Unknown, res.Unknown) {
				t.Fatalf("%s: unknown %q, then %q", name, res.Unknown, again.Unknown)
			}
		}
	})
}

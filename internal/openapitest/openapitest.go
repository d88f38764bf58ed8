// Package openapitest holds the server to its OpenAPI document in tests: a
// Checker validates every response a test receives (status, headers and
// body) against the document in package api, with kin-openapi, and the test
// binary fails if any response did not match. Test packages install it in
// TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(openapitest.Run(m)) }
//
// Run checks whatever goes through http.DefaultClient. A test that sends
// through a transport of its own, to inject faults say, puts Transport
// beneath it, so that what the server really sent is checked before the
// fault replaces it:
//
//	&http.Client{Transport: faults{base: openapitest.Transport(http.DefaultTransport)}}
package openapitest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/stockroom/stockroom/api"
)

// Checker validates responses against the document.
type Checker struct {
	doc    *openapi3.T
	router routers.Router
	// segments maps lower-cased literal path segments of the document to
	// their spelling there: the server forgives the case of paths, so the
	// checker looks a request up as the server routes it.
	segments map[string]string
	// errorSchema validates error responses of requests no route of the
	// document takes (unknown paths and methods).
	errorSchema *openapi3.SchemaRef

	checked atomic.Int64
	mu      sync.Mutex
	found   []string
}

// New loads the document and prepares a Checker.
func New() (*Checker, error) {
	js, err := api.JSON()
	if err != nil {
		return nil, err
	}
	doc, err := openapi3.NewLoader().LoadFromData(js)
	if err != nil {
		return nil, fmt.Errorf("load the OpenAPI document: %w", err)
	}
	doc.Servers = nil // match requests by path alone, whatever host the test server has
	router, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, err
	}
	c := &Checker{doc: doc, router: router, segments: map[string]string{}}
	for path := range doc.Paths.Map() {
		for seg := range strings.SplitSeq(path, "/") {
			if seg != "" && !strings.HasPrefix(seg, "{") {
				c.segments[strings.ToLower(seg)] = seg
			}
		}
	}
	if doc.Components != nil {
		c.errorSchema = doc.Components.Schemas["Error"]
	}
	return c, nil
}

// Transport returns a RoundTripper that checks every response base returns.
// The response body is read whole and handed on unchanged.
func (c *Checker) Transport(base http.RoundTripper) http.RoundTripper {
	return roundTripper{c, base}
}

type roundTripper struct {
	c    *Checker
	base http.RoundTripper
}

func (rt roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := rt.base.RoundTrip(req)
	if err != nil {
		return res, err
	}
	if isCSV(res.Header) {
		return rt.streamed(req, res), nil
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return res, nil // the caller sees the short body; nothing to check
	}
	if cerr := rt.c.Check(req, res.StatusCode, res.Header, body); cerr != nil {
		rt.c.record(fmt.Sprintf("%s %s -> %d: %v\n    body: %.300s", req.Method, req.URL.RequestURI(), res.StatusCode, cerr, body))
	}
	return res, nil
}

// csvHead is how much of a CSV body the checker reads before handing it on.
const csvHead = 64 << 10

// isCSV reports whether a response is a CSV export.
func isCSV(h http.Header) bool {
	mt, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	return mt == "text/csv"
}

// streamed checks a CSV export without holding it: the document gives its
// body as a string, which the first csvHead bytes stand for as well as the
// whole; everything else (status, headers, content type) is checked in
// full. The body is handed on unread past that head, so that a test of an
// export's memory measures the server's, not the checker's.
func (rt roundTripper) streamed(req *http.Request, res *http.Response) *http.Response {
	head := make([]byte, csvHead)
	n, err := io.ReadFull(res.Body, head)
	head = head[:n]
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return res // the caller sees the failure when it reads on
	}
	if !utf8.Valid(trimPartialRune(head)) {
		rt.c.record(fmt.Sprintf("%s %s -> %d: the CSV body is not UTF-8", req.Method, req.URL.RequestURI(), res.StatusCode))
	}
	if cerr := rt.c.Check(req, res.StatusCode, res.Header, wholeRecords(head, n < csvHead)); cerr != nil {
		rt.c.record(fmt.Sprintf("%s %s -> %d: %v\n    body: %.300s", req.Method, req.URL.RequestURI(), res.StatusCode, cerr, head))
	}
	res.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), res.Body), res.Body}
	return res
}

// wholeRecords is the head of a CSV body cut after its last complete record
// (a line end outside quotes), unless it is the whole body: the document's
// decoder parses what it is given as a whole CSV text.
func wholeRecords(head []byte, whole bool) []byte {
	if whole {
		return head
	}
	quoted, end := false, 0
	for i, c := range head {
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\n' && !quoted:
			end = i + 1
		}
	}
	return head[:end]
}

// trimPartialRune drops a rune cut off at the end of b by a read's limit.
func trimPartialRune(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && i < len(b); i++ {
		if r, _ := utf8.DecodeLastRune(b[:len(b)-i]); r != utf8.RuneError {
			return b[:len(b)-i]
		}
	}
	return b
}

// checkPreflight checks the answer to a CORS preflight, which the Fetch
// standard defines rather than the document: an empty 204 for a method and
// path the document has an operation for, or a refusal with the error
// object.
func (c *Checker) checkPreflight(req *http.Request, status int, body []byte) error {
	if status >= 400 {
		return c.doc.ValidateSchemaJSON(c.errorSchema.Value, decode(body))
	}
	asked := req.Clone(req.Context())
	asked.Method = req.Header.Get("Access-Control-Request-Method")
	if _, _, err := c.findRoute(asked); err != nil {
		return fmt.Errorf("a preflight for an operation the document lacks: %w", err)
	}
	if status != http.StatusNoContent || len(body) != 0 {
		return fmt.Errorf("a preflight answered %d with %d bytes, want an empty 204", status, len(body))
	}
	return nil
}

func (c *Checker) record(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.found = append(c.found, s)
}

// Check validates one response to req against the document.
func (c *Checker) Check(req *http.Request, status int, header http.Header, body []byte) error {
	c.checked.Add(1)
	if req.Method == http.MethodOptions && req.Header.Get("Access-Control-Request-Method") != "" {
		return c.checkPreflight(req, status, body)
	}
	route, params, err := c.findRoute(req)
	if err != nil {
		// No operation of the document answers this request: the server
		// must have refused it, with the error object.
		if status < 400 {
			return fmt.Errorf("the document has no operation for it: %w", err)
		}
		if c.errorSchema == nil {
			return errors.New("the document has no Error schema in components")
		}
		return c.doc.ValidateSchemaJSON(c.errorSchema.Value, decode(body))
	}
	if req.Method == http.MethodHead {
		body = nil
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request:    req,
			PathParams: params,
			Route:      route,
			Options:    &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		},
		Status:  status,
		Header:  header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	in.SetBodyBytes(body)
	return openapi3filter.ValidateResponse(context.Background(), in)
}

// findRoute finds the operation for req, forgiving the case of literal
// path segments as the server does.
func (c *Checker) findRoute(req *http.Request) (*routers.Route, map[string]string, error) {
	// Route by the escaped path, as the server does, so that an escaped
	// "/" inside a ShortID stays inside its segment.
	if req.URL.RawPath != "" {
		r2 := req.Clone(req.Context())
		u := *req.URL
		u.Path, u.RawPath = req.URL.RawPath, ""
		r2.URL = &u
		req = r2
	}
	route, params, err := c.router.FindRoute(req)
	if err == nil {
		return route, params, nil
	}
	segs := strings.Split(req.URL.Path, "/")
	changed := false
	for i, s := range segs {
		if canon, ok := c.segments[strings.ToLower(s)]; ok && canon != s {
			segs[i], changed = canon, true
		}
	}
	if !changed {
		return nil, nil, err
	}
	r2 := req.Clone(req.Context())
	u := *req.URL
	u.Path, u.RawPath = strings.Join(segs, "/"), ""
	r2.URL = &u
	return c.router.FindRoute(r2)
}

func decode(body []byte) any {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return string(body)
	}
	return v
}

func init() {
	// The documentation page and its script are text too.
	for _, ct := range []string{"text/html", "text/javascript", "application/javascript", "text/css"} {
		openapi3filter.RegisterBodyDecoder(ct, openapi3filter.PlainBodyDecoder)
	}
}

// Mismatches returns every response that did not match, in order.
func (c *Checker) Mismatches() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.found)
}

// Checked is how many responses were checked.
func (c *Checker) Checked() int64 { return c.checked.Load() }

// running is the Checker Run installed, for Transport.
var running atomic.Pointer[Checker]

// Transport returns base wrapped so that the Checker installed by Run checks
// every response base returns. It panics outside Run: a response no checker
// sees must not pass for a checked one.
func Transport(base http.RoundTripper) http.RoundTripper {
	c := running.Load()
	if c == nil {
		panic("openapitest.Transport called outside openapitest.Run")
	}
	return c.Transport(base)
}

// Run installs a Checker on http.DefaultClient (which http.Get and friends
// use too), runs the tests and returns their exit code: 1 when a response
// did not match the document, even if every test passed.
func Run(m *testing.M) int {
	c, err := New()
	if err != nil {
		fmt.Fprintln(os.Stderr, "openapi:", err)
		return 1
	}
	base := http.DefaultClient.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	http.DefaultClient.Transport = c.Transport(base)
	running.Store(c)
	code := m.Run()
	found := c.Mismatches()
	for _, f := range found {
		fmt.Fprintln(os.Stderr, "openapi mismatch:", f)
	}
	if len(found) > 0 {
		fmt.Fprintf(os.Stderr, "openapi: %d of %d responses do not match the document\n", len(found), c.Checked())
		return 1
	}
	if testing.Verbose() {
		fmt.Fprintf(os.Stderr, "openapi: %d responses match the document\n", c.Checked())
	}
	return code
}

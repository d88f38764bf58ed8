package docs_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stockroom/stockroom/api"
	"github.com/stockroom/stockroom/internal/docs"
)

const specPath = "/api/v1/openapi.json"

// newServer serves the docs handler, mounted as its doc comment says, and
// the OpenAPI document spec, on loopback. It records every path asked for.
func newServer(t *testing.T, spec []byte) (*httptest.Server, func() []string) {
	t.Helper()
	mux := http.NewServeMux()
	h := docs.Handler(specPath)
	mux.Handle("GET /docs", h)
	mux.Handle("GET /docs/", h)
	mux.HandleFunc("GET "+specPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(spec)
	})
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.Path)
		mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(asked)
	}
}

// realSpec is the document the server serves.
func realSpec(t *testing.T) []byte {
	t.Helper()
	spec, err := api.JSON()
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// TestDocsPageRendersEveryOperationInChromium opens /docs in headless
// Chromium, with no internet, and checks that the reader sees the API's
// title and every operation of the document the server really serves, and
// that the page sent no request to any other host.
func TestDocsPageRendersEveryOperationInChromium(t *testing.T) {
	checkRendersInChromium(t, findChromium(t), realSpec(t))
}

// TestDocsPageRendersAnExampleDocumentInChromium is the same check on a
// document with what the served one may come to have: tags, operations
// with and without a summary, and text that HTML must escape. It keeps the
// check honest while the served document is still short.
func TestDocsPageRendersAnExampleDocumentInChromium(t *testing.T) {
	checkRendersInChromium(t, findChromium(t), []byte(exampleSpec))
}

const exampleSpec = `{
  "openapi": "3.1.0",
  "info": {"title": "Example & Sons", "version": "v9"},
  "servers": [{"url": "/api/v1"}],
  "tags": [{"name": "Items"}, {"name": "Inventory"}],
  "paths": {
    "/Item/{id}": {
      "get": {
        "tags": ["Items"], "summary": "Get an item's details", "operationId": "getItem",
        "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
        "responses": {"200": {"description": "The item",
          "content": {"application/json": {"schema": {"type": "object", "properties": {"sku": {"type": "string"}}}}}}}
      },
      "delete": {"tags": ["Items"], "responses": {"204": {"description": "Deleted"}}}
    },
    "/Inventory/Receive": {
      "post": {"tags": ["Inventory"], "summary": "Receive <stock> into a lot & location",
        "responses": {"201": {"description": "Received"}}}
    },
    "/Warehouse": {"get": {"summary": "List warehouses", "responses": {"200": {"description": "Warehouses"}}}}
  }
}`

// checkRendersInChromium opens the docs page for the document spec and
// checks what TestDocsPageRendersEveryOperationInChromium says.
func checkRendersInChromium(t *testing.T, chromium string, spec []byte) {
	want := shownTexts(t, spec)
	srv, asked := newServer(t, spec)

	// The browser's own traffic (updates, sign-in, clock) goes to this
	// proxy, which refuses it, so that the test sends nothing off loopback.
	// The page's requests are checked below, from the browser's side.
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "offline", http.StatusBadGateway)
	}))
	defer proxy.Close()

	missing := func(dom string) []string {
		var m []string
		if i := strings.Index(dom, "<body"); i >= 0 {
			dom = dom[i:] // what the reader sees, not the page's <head>
		}
		for _, text := range want {
			if !strings.Contains(dom, escapeText(text)) {
				m = append(m, text)
			}
		}
		return m
	}
	v := visit(t, chromium, srv.URL+"/docs", proxy.URL, func(dom string) bool {
		return len(missing(dom)) == 0
	})
	if t.Failed() {
		return
	}
	for _, text := range missing(v.DOM) {
		t.Errorf("the rendered page does not show %q", text)
	}
	for _, p := range []string{docs.BundlePath, specPath} {
		if !slices.Contains(asked(), p) {
			t.Errorf("the page did not load %s from the server; it asked for %q", p, asked())
		}
	}
	for _, u := range v.Requests {
		if elsewhere(u, srv.URL) {
			if reason, ok := v.Blocked[u]; ok {
				t.Logf("the browser refused the page's request for %s (%s)", u, reason)
			} else {
				t.Errorf("the page sent a request to another host: %s", u)
			}
		}
	}
	// The policy refuses loads from other hosts; it must not refuse what
	// the page itself needs (its styles, its search worker, its scripts).
	slices.Sort(v.Refused)
	for _, text := range slices.Compact(v.Refused) {
		m := quotedURL.FindStringSubmatch(text)
		if m == nil || !elsewhere(m[1], srv.URL) {
			t.Errorf("the page's Content-Security-Policy breaks it: %s", text)
		}
	}
	for _, m := range loadedURL.FindAllStringSubmatch(v.DOM, -1) {
		if elsewhere(m[1], srv.URL) {
			t.Errorf("the rendered page loads %q from another host", m[1])
		}
	}
	if t.Failed() {
		t.Logf("the page's log:\n%s", strings.Join(v.Log, "\n"))
		t.Logf("its requests: %q", v.Requests)
		t.Logf("the rendered page (%d bytes), beginning:\n%.3000s", len(v.DOM), v.DOM)
	}
}

// elsewhere reports whether a URL the page used points at a host other
// than the server's (data: and blob: URLs are the page's own).
func elsewhere(rawURL, serverURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return true
	}
	switch u.Scheme {
	case "data", "blob", "about":
		return false
	case "":
		return u.Host != ""
	}
	s, _ := url.Parse(serverURL)
	return u.Host != s.Host
}

// quotedURL finds the URL in the browser's message about a load it refused.
var quotedURL = regexp.MustCompile(`'([a-z][a-z0-9+.-]*:[^']*)'`)

// loadedURL finds the URLs that a page's elements load by themselves
// (links a reader may follow are not loads).
var loadedURL = regexp.MustCompile(`<(?:img|script|iframe|source|video|audio|embed|link)\b[^>]*?\s(?:src|href)="([^"]*)"`)

// shownTexts lists what a reader must find on the page for the document:
// its title, and each operation's path and summary.
func shownTexts(t *testing.T, spec []byte) []string {
	t.Helper()
	var doc struct {
		Info struct {
			Title string `json:"title"`
		} `json:"info"`
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(spec, &doc); err != nil {
		t.Fatalf("the OpenAPI document: %v", err)
	}
	if doc.Info.Title == "" {
		t.Fatal("the OpenAPI document has no title")
	}
	texts := []string{doc.Info.Title}
	methods := []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}
	operations := 0
	for path, item := range doc.Paths {
		for _, m := range methods {
			raw, ok := item[m]
			if !ok {
				continue
			}
			var op struct {
				Summary string `json:"summary"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatalf("%s %s: %v", m, path, err)
			}
			operations++
			texts = append(texts, path)
			if op.Summary != "" {
				texts = append(texts, op.Summary)
			}
		}
	}
	slices.Sort(texts)
	texts = slices.Compact(texts)
	t.Logf("the document has %d operations; looking for %d texts", operations, len(texts))
	return texts
}

// escapeText is text as the browser writes it in a page's outerHTML.
func escapeText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\u00a0", "&nbsp;").Replace(s)
}

// TestDocsPageLoadsOnlyFromThisServer checks the page itself: it names the
// document and the bundle by paths on this server, carries a policy that
// forbids loading from anywhere else, and is revalidated so that an
// updated server's page is seen.
func TestDocsPageLoadsOnlyFromThisServer(t *testing.T) {
	srv, _ := newServer(t, realSpec(t))
	resp, err := http.Get(srv.URL + "/docs")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /docs: %s (%v)", resp.Status, err)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("Content-Type %q, want text/html", ct)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("Cache-Control %q, want no-cache", cc)
	}
	csp := resp.Header.Get("Content-Security-Policy")
	for _, directive := range []string{"default-src 'none'", "script-src 'self'", "connect-src 'self'"} {
		if !strings.Contains(csp, directive) {
			t.Errorf("Content-Security-Policy %q lacks %q", csp, directive)
		}
	}
	page := string(body)
	for _, p := range []string{`src="` + docs.BundlePath + `"`, `spec-url="` + specPath + `"`} {
		if !strings.Contains(page, p) {
			t.Errorf("the page lacks %s:\n%s", p, page)
		}
	}
	for _, m := range regexp.MustCompile(`(?:src|href|url)="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		if elsewhere(m[1], srv.URL) {
			t.Errorf("the page refers to %q, on another host", m[1])
		}
	}
}

// TestDocsPageBundleIsCachedAndCompressed checks what a browser gets for the
// bundle: the embedded file, gzipped when it asks, cacheable for a year
// because its URL changes with its version.
func TestDocsPageBundleIsCachedAndCompressed(t *testing.T) {
	want, err := os.ReadFile("assets/redoc.standalone.js")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(want, []byte(`"`+docs.RedocVersion+`"`)) {
		t.Fatalf("assets/redoc.standalone.js is not Redoc %s: update RedocVersion with the bundle", docs.RedocVersion)
	}
	srv, _ := newServer(t, realSpec(t))
	for _, gz := range []bool{false, true} {
		req, err := http.NewRequest("GET", srv.URL+docs.BundlePath, nil)
		if err != nil {
			t.Fatal(err)
		}
		if gz {
			req.Header.Set("Accept-Encoding", "gzip, deflate, br")
		} else {
			req.Header.Set("Accept-Encoding", "identity")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body io.Reader = resp.Body
		if enc := resp.Header.Get("Content-Encoding"); gz != (enc == "gzip") {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q", req.Header.Get("Accept-Encoding"), enc)
		} else if gz {
			zr, err := gzip.NewReader(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			body = zr
		}
		got, err := io.ReadAll(body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK || !bytes.Equal(got, want) {
			t.Errorf("gzip %v: %s, %d bytes; want 200 and the %d bytes of the bundle", gz, resp.Status, len(got), len(want))
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
			t.Errorf("Content-Type %q, want text/javascript", ct)
		}
		if cc := resp.Header.Get("Cache-Control"); !strings.Contains(cc, "max-age=31536000") || !strings.Contains(cc, "immutable") {
			t.Errorf("Cache-Control %q, want a year and immutable", cc)
		}
	}

	resp, err := http.Get(srv.URL + "/docs/redoc.standalone.js")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /docs/redoc.standalone.js: %s, want 404 (only the versioned name is served)", resp.Status)
	}
}

// Package docs serves Stockroom's API reference as a web page, so that a
// person can read the OpenAPI document in a browser without a client of
// their own and without the internet: the renderer, Redoc, is embedded in
// the binary and the page loads nothing from any other host.
//
// The bundle is Redoc's single-file standalone build, copied unchanged from
// the npm package; README.md beside this file says which version, under
// which licence, and how to update it.
package docs

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// RedocVersion is the version of the embedded Redoc bundle. It is part of
// the bundle's URL, so that a browser may keep the bundle for a year and
// still fetch the new one the first time it loads a page from a server
// that has been updated.
const RedocVersion = "2.5.4"

// BundlePath is where the handler serves the Redoc bundle; the page at
// /docs refers to it.
const BundlePath = "/docs/redoc-" + RedocVersion + ".standalone.js"

//go:embed assets/redoc.standalone.js
var redocBundle []byte

// ContentSecurityPolicy is sent with the page. It lets the page load and
// run only what this server sends, and talk only to this server, so that a
// page that must work offline cannot quietly depend on another host (the
// bundle would show a logo from Redocly's CDN: it is refused and the menu
// goes without it), and loads no web fonts. Redoc needs inline styles
// (styled-components writes them) and a blob: worker (its search index);
// the data: image is the page's empty icon, which keeps the browser from
// asking for /favicon.ico.
const ContentSecurityPolicy = "default-src 'none'; " +
	"script-src 'self'; " +
	"style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; " +
	"connect-src 'self'; " +
	"worker-src blob:; " +
	"base-uri 'none'; " +
	"form-action 'none'; " +
	"frame-ancestors 'none'"

// theme makes Redoc use the fonts that the reader's system has: its
// defaults name web fonts (Roboto, Montserrat) that the page will not load.
const theme = `{"typography":{` +
	`"fontFamily":"system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif",` +
	`"headings":{"fontFamily":"system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif"},` +
	`"code":{"fontFamily":"ui-monospace, Menlo, Consolas, 'Liberation Mono', monospace"}}}`

// page is the HTML of /docs. Redoc's standalone bundle finds the <redoc>
// element itself and reads its options from the element's attributes, so
// the page needs no inline script and the policy can forbid them.
var page = template.Must(template.New("docs").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<noscript>This page needs JavaScript. The API description itself is at <a href="{{.SpecURL}}">{{.SpecURL}}</a>.</noscript>
<redoc spec-url="{{.SpecURL}}" theme="{{.Theme}}" expand-responses="200,201"></redoc>
<script src="{{.BundlePath}}"></script>
</body>
</html>
`))

// Handler returns the handler of the API reference page, which renders the
// OpenAPI document that specURL (a path on the same server, such as
// "/api/v1/openapi.json") serves.
//
// It answers GET (and HEAD) for two paths, and 404 for any other:
//
//	/docs        the page
//	BundlePath   the Redoc bundle the page loads, under /docs/
//
// Mount it with
//
//	h := docs.Handler("/api/v1/openapi.json")
//	mux.Handle("GET /docs", h)
//	mux.Handle("GET /docs/", h)
//
// as public routes: people read the page without a token, and the page
// fetches specURL without one, so specURL must be public too.
func Handler(specURL string) http.Handler {
	var html bytes.Buffer
	err := page.Execute(&html, struct {
		SpecURL, Theme, BundlePath string
	}{specURL, theme, BundlePath})
	if err != nil {
		panic(err) // the template and its data are fixed
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /docs", func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		// The page is small and names the bundle's version: revalidating
		// it each time is what lets an updated server's new bundle in.
		h.Set("Cache-Control", "no-cache")
		_, _ = w.Write(html.Bytes())
	})
	mux.HandleFunc("GET "+BundlePath, serveBundle)
	return mux
}

var (
	gzipOnce   sync.Once
	gzipBundle []byte
)

// serveBundle sends the Redoc bundle, gzipped (a third of its size) to a
// browser that accepts it. Its URL names its version, so it never changes
// and may be cached for a year.
func serveBundle(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/javascript; charset=utf-8")
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Add("Vary", "Accept-Encoding")
	body := redocBundle
	if acceptsGzip(r.Header.Values("Accept-Encoding")) {
		gzipOnce.Do(func() {
			var b bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
			_, _ = zw.Write(redocBundle)
			if zw.Close() == nil {
				gzipBundle = b.Bytes()
			}
		})
		if gzipBundle != nil {
			body = gzipBundle
			h.Set("Content-Encoding", "gzip")
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body)
}

// acceptsGzip reports whether Accept-Encoding values list gzip without
// refusing it with q=0.
func acceptsGzip(values []string) bool {
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding != "gzip" {
				continue
			}
			q := 1.0
			for _, p := range strings.Split(params, ";") {
				k, val, ok := strings.Cut(strings.TrimSpace(p), "=")
				if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
					if f, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
						q = f
					}
				}
			}
			if q > 0 {
				return true
			}
		}
	}
	return false
}

// Package console serves the operator's console: the warehouse in a
// browser, at /console, from pages rendered on the server with html/template
// and files embedded in the binary. It holds no rule of its own. Every read
// and every action is a request to the JSON API, made in process through the
// API's http.Handler with the signed-in client's token, so that each goes
// through the same route, the same service call and the same checks
// (permission, warehouses, owners, validation) as a request from curl, and
// its refusal is the API's own message. It asks the service directly only
// for what the API has no endpoint for: following the change feed from its
// position now (live.go), revoking a token at sign-out (session.go), and the
// administration of clients, warehouses and reason codes, behind the
// administrator rule of the root package (admin.go).
package console

import (
	"embed"
	"io/fs"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/stockroom/stockroom/internal/service"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

// Prefix is where the console is served.
const Prefix = "/console"

// ContentSecurityPolicy lets a console page load and run only what this
// server sends: no inline script or style, no other host, forms posted only
// here, and no framing (clickjacking). The one data: image is the empty
// icon, which keeps the browser from asking for /favicon.ico.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// Config configures the console.
type Config struct {
	// API is the JSON API's handler; the console's requests go through it.
	API http.Handler
	// Service answers the feed's position for the live updates.
	Service *service.Service
	Logger  *slog.Logger
	// RealIPHeader is the API's: the console passes the header on, so that
	// its requests spend the browser's address budget.
	RealIPHeader string
}

// Handler serves /console.
type Handler struct {
	api          http.Handler
	svc          *service.Service
	logger       *slog.Logger
	realIPHeader string
	mux          *http.ServeMux
	pages        map[string]*pageTemplate
}

// New returns the console's handler.
func New(cfg Config) *Handler {
	h := &Handler{api: cfg.API, svc: cfg.Service, logger: cfg.Logger, realIPHeader: http.CanonicalHeaderKey(cfg.RealIPHeader),
		mux: http.NewServeMux(), pages: parsePages()}
	if h.logger == nil {
		h.logger = slog.New(slog.DiscardHandler)
	}
	static, _ := fs.Sub(staticFiles, "static")
	h.mux.Handle("GET "+Prefix+"/static/", http.StripPrefix(Prefix+"/static/", http.FileServerFS(static)))
	h.mux.HandleFunc("GET "+Prefix+"/signin", h.signInPage)
	h.mux.HandleFunc("POST "+Prefix+"/signin", h.signIn)
	for _, rt := range slices.Concat(h.routes(), h.orderRoutes(), h.adminRoutes()) {
		h.mux.Handle(rt.pattern, h.session(rt.handle))
	}
	return h
}

// route is one of the console's screens or actions, all behind a session.
type route struct {
	pattern string
	handle  sessionHandler
}

func (h *Handler) routes() []route {
	return []route{
		{"GET " + Prefix + "/{$}", func(w http.ResponseWriter, r *http.Request, _ *session) {
			http.Redirect(w, r, Prefix+"/levels", http.StatusSeeOther)
		}},
		{"POST " + Prefix + "/signout", h.signOut},
		{"GET " + Prefix + "/levels", h.levels},
		{"GET " + Prefix + "/stock/{op}", h.stockForm},
		{"POST " + Prefix + "/stock/{op}", h.stockAction},
		{"GET " + Prefix + "/item/{id}", h.item},
		{"GET " + Prefix + "/reports", h.reports},
		{"GET " + Prefix + "/reports/{id}", h.reportCSV},
		{"GET " + Prefix + "/live", h.live},
		{"GET " + Prefix + "/webhooks", h.webhooks},
		{"GET " + Prefix + "/webhooks/{id}", h.webhook},
		{"POST " + Prefix + "/webhooks/{id}/test", h.webhookTest},
	}
}

// ServeHTTP sets the headers every console answer carries, then routes.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", ContentSecurityPolicy)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "same-origin")
	hd.Set("X-Frame-Options", "DENY")
	if !strings.HasPrefix(r.URL.Path, Prefix+"/static/") {
		hd.Set("Cache-Control", "no-store")
	}
	if r.URL.Path == Prefix {
		http.Redirect(w, r, Prefix+"/", http.StatusSeeOther)
		return
	}
	h.mux.ServeHTTP(w, r)
}

// Mount returns a handler that serves the console under Prefix and every
// other path with api.
func Mount(api http.Handler, c *Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == Prefix || strings.HasPrefix(r.URL.Path, Prefix+"/") {
			c.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r)
	})
}

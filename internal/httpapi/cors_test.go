package httpapi_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/internal/httpapi"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/testdb"
)

// preflight sends the OPTIONS request a browser sends before a POST with a
// bearer token, a JSON body, a key and the strict preference.
func (a *api) preflight(t *testing.T, path, origin string) response {
	t.Helper()
	return a.do(t, "OPTIONS", path, nil, "Origin", origin, "Access-Control-Request-Method", "POST",
		"Access-Control-Request-Headers", "authorization,content-type,idempotency-key,prefer")
}

func headerList(h string) []string {
	var out []string
	for v := range strings.SplitSeq(h, ",") {
		out = append(out, strings.ToLower(strings.TrimSpace(v)))
	}
	return out
}

// TestCORS (contract §15): with --cors-origins, a real preflight from a
// listed origin is answered without a token and allows the API's headers,
// and an actual answer lets the app read the paging and request headers;
// an origin not listed gets no CORS header; without the flag no CORS
// header is ever sent and OPTIONS is 405.
func TestCORS(t *testing.T) {
	const app = "https://app.example.com"
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			a := newAPIWith(t, testdb.MustOpen(t, engine), service.Options{}, func(c *httpapi.Config) {
				c.CORSOrigins = []string{app, "http://127.0.0.1:5173"}
			})
			admin := stockAPI(t, a)
			r := a.preflight(t, "/api/v1/Inventory/Receive", app)
			if r.status != http.StatusNoContent || r.header.Get("Access-Control-Allow-Origin") != app {
				t.Fatalf("preflight: %d, Allow-Origin %q", r.status, r.header.Get("Access-Control-Allow-Origin"))
			}
			if m := headerList(r.header.Get("Access-Control-Allow-Methods")); !slices.Contains(m, "post") {
				t.Errorf("Allow-Methods %v", m)
			}
			for _, h := range []string{"authorization", "content-type", "idempotency-key", "prefer"} {
				if !slices.Contains(headerList(r.header.Get("Access-Control-Allow-Headers")), h) {
					t.Errorf("Allow-Headers %q lacks %s", r.header.Get("Access-Control-Allow-Headers"), h)
				}
			}
			if r.header.Get("Access-Control-Allow-Credentials") != "" || !strings.Contains(strings.Join(r.header.Values("Vary"), ","), "Origin") {
				t.Errorf("Allow-Credentials %q, Vary %q", r.header.Get("Access-Control-Allow-Credentials"), r.header.Values("Vary"))
			}

			r = a.do(t, "GET", "/api/v1/Item?pageSize=1", nil, "Authorization", "Bearer "+admin, "Origin", app)
			if r.status != 200 || r.header.Get("Access-Control-Allow-Origin") != app {
				t.Fatalf("GET from the app: %d, Allow-Origin %q", r.status, r.header.Get("Access-Control-Allow-Origin"))
			}
			exposed := headerList(r.header.Get("Access-Control-Expose-Headers"))
			for _, h := range []string{"x-total-count", "x-page", "x-page-size", "x-request-id", "idempotent-replayed", "retry-after", "stockroom-ignored-fields"} {
				if !slices.Contains(exposed, h) {
					t.Errorf("Expose-Headers %v lacks %s", exposed, h)
				}
			}

			for _, other := range []string{"https://evil.example.com", "https://app.example.com.evil.example"} {
				r = a.preflight(t, "/api/v1/Inventory/Receive", other)
				if r.header.Get("Access-Control-Allow-Origin") != "" || r.header.Get("Access-Control-Allow-Headers") != "" {
					t.Errorf("preflight from %s: Allow-Origin %q", other, r.header.Get("Access-Control-Allow-Origin"))
				}
			}
			// An OPTIONS that is not a preflight is a method no route has.
			if r = a.do(t, "OPTIONS", "/api/v1/Item", nil); r.status != http.StatusMethodNotAllowed {
				t.Errorf("plain OPTIONS: %d", r.status)
			}
		})
	}
}

// TestCORSOff: without --cors-origins nothing of CORS is ever answered.
func TestCORSOff(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := stockAPI(t, a)
		r := a.preflight(t, "/api/v1/Inventory/Receive", "https://app.example.com")
		wantError(t, r, http.StatusMethodNotAllowed, "method_not_allowed")
		r2 := a.do(t, "GET", "/api/v1/Item", nil, "Authorization", "Bearer "+admin, "Origin", "https://app.example.com")
		for _, got := range []response{r, r2} {
			for name := range got.header {
				if strings.HasPrefix(name, "Access-Control-") {
					t.Errorf("%s: %s", name, got.header.Get(name))
				}
			}
		}
	})
}

// TestCORSAnyOrigin: "*" allows every origin, with no credentials.
func TestCORSAnyOrigin(t *testing.T) {
	a := newAPIWith(t, testdb.MustOpen(t, "sqlite"), service.Options{}, func(c *httpapi.Config) { c.CORSOrigins = []string{"*"} })
	r := a.preflight(t, "/api/v1/Item", "https://anywhere.example")
	if r.status != http.StatusNoContent || r.header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("preflight: %d, Allow-Origin %q", r.status, r.header.Get("Access-Control-Allow-Origin"))
	}
}

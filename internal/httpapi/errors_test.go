package httpapi_test

import (
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
)

func TestRouting(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := a.token(t, a.adminID, a.adminSecret)
		t.Run("UnknownPathIs404", func(t *testing.T) {
			for _, path := range []string{"/index.html", "/api/v1/Nothing", "/api/v2/Warehouse", "/api/v1/Warehouse/extra"} {
				wantError(t, a.do(t, "GET", path, nil, "Authorization", "Bearer "+tok), 404, stockroom.ENOTFOUND)
			}
		})
		t.Run("WrongMethodIs405WithAllow", func(t *testing.T) {
			for _, tc := range []struct{ method, path, allow string }{
				{"DELETE", "/api/v1/Warehouse", "GET, HEAD"},
				{"POST", "/api/v1/ReasonCode", "GET, HEAD"},
				{"PUT", "/api/v1/Token", "POST"},
			} {
				r := a.do(t, tc.method, tc.path, nil, "Authorization", "Bearer "+tok)
				wantError(t, r, 405, stockroom.EMETHOD)
				if r.header.Get("Allow") != tc.allow {
					t.Errorf("%s %s: Allow %q, want %q", tc.method, tc.path, r.header.Get("Allow"), tc.allow)
				}
			}
		})
		t.Run("PathCaseIsForgiven", func(t *testing.T) {
			if r := a.get(t, "/API/V1/warehouse", tok); r.status != 200 {
				t.Fatalf("status %d %s", r.status, r.body)
			}
		})
		t.Run("RequestID", func(t *testing.T) {
			r := a.do(t, "GET", "/healthz", nil, "X-Request-ID", "abc-123.x")
			if r.header.Get("X-Request-ID") != "abc-123.x" {
				t.Fatalf("sane request id not echoed: %q", r.header.Get("X-Request-ID"))
			}
			r = a.do(t, "GET", "/healthz", nil, "X-Request-ID", "bad id\"<script>")
			if got := r.header.Get("X-Request-ID"); got == "" || strings.ContainsAny(got, " \"<") {
				t.Fatalf("insane request id %q echoed", got)
			}
		})
		t.Run("HealthAndReadiness", func(t *testing.T) {
			for _, path := range []string{"/healthz", "/readyz"} {
				if r := a.do(t, "GET", path, nil); r.status != 200 {
					t.Errorf("%s: %d %s", path, r.status, r.body)
				}
			}
		})
		t.Run("ReadinessFailsWithoutDatabase", func(t *testing.T) {
			a.db.Close()
			r := wantError(t, a.do(t, "GET", "/readyz", nil), 503, stockroom.EUNAVAILABLE)
			if msg := r["message"].(string); strings.Contains(strings.ToLower(msg), "sql") {
				t.Fatalf("message leaks internals: %q", msg)
			}
			if r := a.do(t, "GET", "/healthz", nil); r.status != 200 {
				t.Fatalf("healthz %d while the database is gone; it reports the process only", r.status)
			}
		})
	})
}

package httpapi

import (
	"net/http"
	"slices"

	"github.com/rs/cors"
)

// CORS (contract §15): browsers on the origins the operator lists may call
// the API. The answers to preflights and the headers of actual requests
// are rs/cors's, a maintained implementation of the Fetch standard's
// rules; what is Stockroom's own is only which headers a browser app may
// send and read. Credentials are bearer tokens a script sets, never
// cookies, so no origin is ever allowed credentials.

// corsAllowedHeaders are the request headers an app may send beyond the
// CORS-safelisted ones.
var corsAllowedHeaders = []string{"Authorization", "Content-Type", "Idempotency-Key", "Prefer", "X-Request-ID"}

// corsExposedHeaders are the answer's headers an app may read beyond the
// CORS-safelisted ones: paging, ids, replays, limits, what a body ignored.
var corsExposedHeaders = []string{
	"X-Total-Count", "X-Page", "X-Page-Size", "X-Request-ID", "X-API-Version", "Location",
	"Idempotent-Replayed", "Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset",
	"Stockroom-Ignored-Fields", "Preference-Applied",
}

// newCORS returns the CORS rules for origins (exact origins, or "*" for
// any), or nil when there are none: then no CORS header is ever sent and
// OPTIONS is 405 like any method a route lacks.
func newCORS(origins []string) *cors.Cors {
	if len(origins) == 0 {
		return nil
	}
	return cors.New(cors.Options{
		AllowedOrigins: slices.Clone(origins),
		AllowedMethods: []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodDelete},
		AllowedHeaders: corsAllowedHeaders,
		ExposedHeaders: corsExposedHeaders,
		MaxAge:         600,
	})
}

// isPreflight reports whether r is a CORS preflight request.
func isPreflight(r *http.Request) bool {
	return r.Method == http.MethodOptions && r.Header.Get("Origin") != "" && r.Header.Get("Access-Control-Request-Method") != ""
}

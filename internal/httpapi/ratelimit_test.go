package httpapi_test

import (
	"encoding/json"
	"net/url"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/httpapi"
	"github.com/stockroom/stockroom/internal/ratelimit"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/testdb"
)

// limitedAPI serves SQLite with a limit of perMinute requests per minute on a
// clock the test moves.
func limitedAPI(t *testing.T, perMinute int, configure ...func(*httpapi.Config)) (*api, func(time.Duration)) {
	var now atomic.Int64
	now.Store(time.Now().UnixNano())
	lim := ratelimit.NewLocal(perMinute, func() time.Time { return time.Unix(0, now.Load()) })
	a := newAPIWith(t, testdb.MustOpen(t, "sqlite"), service.Options{}, append([]func(*httpapi.Config){
		func(c *httpapi.Config) { c.Limiter = lim },
	}, configure...)...)
	return a, func(d time.Duration) { now.Add(int64(d)) }
}

// want429 checks the contract's 429: only a message, with the limit in it,
// and Retry-After in whole seconds.
func want429(t *testing.T, r response, limit, retryAfter int) {
	t.Helper()
	if r.status != 429 {
		t.Fatalf("status %d (%s), want 429", r.status, r.body)
	}
	var body map[string]any
	if err := json.Unmarshal(r.body, &body); err != nil || len(body) != 1 ||
		body["message"] != "Rate limit exceeded. Limit: "+strconv.Itoa(limit)+" requests per minute." {
		t.Fatalf("429 body %s", r.body)
	}
	if got := r.header.Get("Retry-After"); got != strconv.Itoa(retryAfter) {
		t.Fatalf("Retry-After %q, want %d", got, retryAfter)
	}
}

func TestRateLimitPerClient(t *testing.T) {
	a, advance := limitedAPI(t, 6) // one every 10 s
	// The token request spends the address's budget, not the client's.
	tok := a.clientToken(t, false, stockroom.PermItemRead)
	other := a.clientToken(t, true, stockroom.PermItemRead)
	for i := range 6 {
		r := a.get(t, "/api/v1/Item", tok)
		if r.status != 200 {
			t.Fatalf("request %d: %d %s", i+1, r.status, r.body)
		}
		h := r.header
		if h.Get("X-RateLimit-Limit") != "6" || h.Get("X-RateLimit-Remaining") != strconv.Itoa(5-i) ||
			h.Get("X-RateLimit-Reset") != strconv.Itoa(10*(i+1)) {
			t.Fatalf("request %d: headers limit %q remaining %q reset %q", i+1,
				h.Get("X-RateLimit-Limit"), h.Get("X-RateLimit-Remaining"), h.Get("X-RateLimit-Reset"))
		}
	}
	r := a.get(t, "/api/v1/Item", tok)
	want429(t, r, 6, 10)
	if r.header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("429 without X-RateLimit-Remaining: 0: %v", r.header)
	}
	// The limit comes before the read-only and permission checks...
	want429(t, a.send(t, "POST", "/api/v1/Item", tok, `{}`), 6, 10)
	// ...and after authentication.
	wantError(t, a.get(t, "/api/v1/Item", "not-a-token"), 401, stockroom.EUNAUTHORIZED)
	// Each client has its own budget; a denied request of the read-only
	// client still carries its headers.
	r = a.send(t, "POST", "/api/v1/Item", other, `{}`)
	wantError(t, r, 403, stockroom.EFORBIDDEN)
	if r.header.Get("X-RateLimit-Remaining") != "5" {
		t.Fatalf("403 of another client: remaining %q", r.header.Get("X-RateLimit-Remaining"))
	}
	advance(10 * time.Second)
	if r := a.get(t, "/api/v1/Item", tok); r.status != 200 || r.header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("after one refill: %d remaining %q", r.status, r.header.Get("X-RateLimit-Remaining"))
	}
	want429(t, a.get(t, "/api/v1/Item", tok), 6, 10)
	// Health checks are never limited.
	for range 10 {
		if r := a.do(t, "GET", "/healthz", nil); r.status != 200 {
			t.Fatalf("healthz: %d", r.status)
		}
	}
}

func TestRateLimitWithoutToken(t *testing.T) {
	a, _ := limitedAPI(t, 5)
	// Requests that fail authentication spend their address's budget...
	for range 5 {
		wantError(t, a.get(t, "/api/v1/Item", "bad-token"), 401, stockroom.EUNAUTHORIZED)
	}
	want429(t, a.get(t, "/api/v1/Item", "bad-token"), 5, 12)
	want429(t, a.do(t, "GET", "/api/v1/Item", nil), 5, 12)
	// ...which token requests share.
	want429(t, a.postToken(t, url.Values{"grant_type": {"client_credentials"}, "client_id": {a.adminID}, "client_secret": {a.adminSecret}}), 5, 12)
}

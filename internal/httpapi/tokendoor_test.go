package httpapi_test

import (
	"context"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/httpapi"
	"github.com/stockroom/stockroom/internal/ratelimit"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// The token door of contract §14: failures counted per client id and
// address, a cap on the password-hash work, IPv6 counted by /64, and a
// malformed client_id refused unread and unlogged.

// doorLimiters returns the limiters the door is tested with, by name: the
// in-process one on a clock that stands still, and, when STOCKROOM_TEST_REDIS
// is set, Redis (in real time, under a key prefix of the test's own), which
// fails the test if it ever falls back to its in-process budgets. Under the
// race detector, where each bcrypt comparison takes over a second, only one:
// Redis's when it is set (the two limiters' own tests run in
// internal/ratelimit either way).
func doorLimiters(t *testing.T, perMinute int) map[string]ratelimit.Limiter {
	t.Helper()
	now := time.Now()
	out := map[string]ratelimit.Limiter{"local": ratelimit.NewLocal(perMinute, func() time.Time { return now })}
	if addr := os.Getenv(testdb.RedisEnv); addr != "" {
		if testdb.Race {
			delete(out, "local")
		}
		r, err := ratelimit.NewRedis(ratelimit.RedisOptions{
			Addr: addr, PerMinute: perMinute, KeyPrefix: testdb.UniqueName("stockroom-test:") + ":",
			OnState: func(up bool) {
				if !up {
					t.Errorf("Redis at %s became unreachable; the budgets were not Redis's", addr)
				}
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		out["redis"] = r
	}
	return out
}

// doorAPI serves db behind a proxy that names the client in
// X-Forwarded-For, with the given limiter.
func doorAPI(t *testing.T, db *store.DB, lim ratelimit.Limiter, opts service.Options, configure ...func(*httpapi.Config)) *api {
	t.Helper()
	return newAPIWith(t, db, opts, append([]func(*httpapi.Config){func(c *httpapi.Config) {
		c.Limiter, c.RealIPHeader = lim, "X-Forwarded-For"
	}}, configure...)...)
}

// tokenFrom asks for a token with the given credentials from addr.
func (a *api) tokenFrom(t *testing.T, id, secret, addr string) response {
	t.Helper()
	return a.postToken(t, form("grant_type", "client_credentials", "client_id", id, "client_secret", secret), "X-Forwarded-For", addr)
}

const wrongSecret = "wrong-secret-0123456789"

// TestTokenFailuresElsewhereNeverLockOut: wrong secrets for a client id from
// many addresses (more than the budget holds requests) leave its correct
// secret working from another.
func TestTokenFailuresElsewhereNeverLockOut(t *testing.T) {
	perMinute, addresses := 20, 50
	if testdb.Race { // a size, not an interleaving: smaller where bcrypt is slow
		perMinute, addresses = 3, 5
	}
	for _, engine := range testdb.Engines(t) {
		for name, lim := range doorLimiters(t, perMinute) {
			t.Run(engine+"/"+name, func(t *testing.T) {
				a := doorAPI(t, testdb.MustOpen(t, engine), lim, service.Options{})
				for i := range addresses {
					wantError(t, a.tokenFrom(t, a.adminID, wrongSecret, "198.51.100."+strconv.Itoa(i+1)), 401, stockroom.EUNAUTHORIZED)
				}
				if r := a.tokenFrom(t, a.adminID, a.adminSecret, "198.51.100.200"); r.status != 200 {
					t.Fatalf("the correct secret from address %d: %d %s", addresses+1, r.status, r.body)
				}
			})
		}
	}
}

// TestTokenFailuresFromOneAddress: a client id's failures from one address
// have a budget of their own, which successes do not spend, and which
// refuses only that client id at that address.
func TestTokenFailuresFromOneAddress(t *testing.T) {
	for name, lim := range doorLimiters(t, 20) {
		t.Run(name, func(t *testing.T) {
			a := doorAPI(t, testdb.MustOpen(t, "sqlite"), lim, service.Options{})
			other, otherSecret := a.addClient(t, service.NewClient{Permissions: []stockroom.Permission{11}, Scope: stockroom.Scope{All: true}})
			const here = "2001:db8:7::1"
			// A failure costs 10 of the 20: two fit.
			for range 2 {
				wantError(t, a.tokenFrom(t, a.adminID, wrongSecret, here), 401, stockroom.EUNAUTHORIZED)
			}
			wantSpent(t, a.tokenFrom(t, a.adminID, wrongSecret, here))
			// Even the correct secret, from there: that is where the
			// guessing comes from.
			wantSpent(t, a.tokenFrom(t, a.adminID, a.adminSecret, here))
			// The address's own budget is far from spent: another client
			// id from there is served, and fails on its own budget...
			if r := a.tokenFrom(t, other, otherSecret, here); r.status != 200 {
				t.Fatalf("another client id from the same address: %d %s", r.status, r.body)
			}
			wantError(t, a.tokenFrom(t, other, wrongSecret, here), 401, stockroom.EUNAUTHORIZED)
			// ...and the first client id from another address is served.
			if r := a.tokenFrom(t, a.adminID, a.adminSecret, "2001:db8:8::1"); r.status != 200 {
				t.Fatalf("the correct secret from another address: %d %s", r.status, r.body)
			}
			// Successes spend nothing of the failures' budget.
			const there = "203.0.113.40"
			for range 5 {
				if r := a.tokenFrom(t, other, otherSecret, there); r.status != 200 {
					t.Fatalf("success: %d %s", r.status, r.body)
				}
			}
			for range 2 {
				wantError(t, a.tokenFrom(t, other, wrongSecret, there), 401, stockroom.EUNAUTHORIZED)
			}
			wantSpent(t, a.tokenFrom(t, other, wrongSecret, there))
		})
	}
}

// wantSpent checks the 429 of a spent failure budget (of 20 a minute, so
// the message says 20): a failure refills in 30 s, less what passed since.
func wantSpent(t *testing.T, r response) {
	t.Helper()
	if r.status != 429 {
		t.Fatalf("status %d (%s), want 429", r.status, r.body)
	}
	n, err := strconv.Atoi(r.header.Get("Retry-After"))
	if err != nil || n < 25 || n > 30 {
		t.Fatalf("Retry-After %q, want about 30 s", r.header.Get("Retry-After"))
	}
	want429(t, r, 20, n)
}

// TestAddressesCountByIPv6Slash64: an IPv6 address counts by its /64, an
// IPv4-mapped one as its IPv4 address, and the address counted is the last
// one the proxy header lists.
func TestAddressesCountByIPv6Slash64(t *testing.T) {
	for name, lim := range doorLimiters(t, 3) {
		t.Run(name, func(t *testing.T) {
			a := doorAPI(t, testdb.MustOpen(t, "sqlite"), lim, service.Options{})
			from := func(addr string) response {
				return a.do(t, "GET", "/api/v1/Item", nil, "Authorization", "Bearer bad-token", "X-Forwarded-For", addr)
			}
			for _, addr := range []string{"2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", "203.0.113.9, 2001:db8:1:2:0:0:0:abcd"} {
				wantError(t, from(addr), 401, stockroom.EUNAUTHORIZED)
			}
			want429(t, from("2001:db8:1:2::9"), 3, 20)
			wantError(t, from("2001:db8:1:3::1"), 401, stockroom.EUNAUTHORIZED) // another /64
			for range 3 {
				wantError(t, from("::ffff:198.51.100.7"), 401, stockroom.EUNAUTHORIZED)
			}
			want429(t, from("198.51.100.7"), 3, 20)
			wantError(t, from("198.51.100.8"), 401, stockroom.EUNAUTHORIZED)
			// A forged first entry does not move the request to a fresh
			// budget.
			want429(t, from("2001:db8:99::1, 2001:db8:1:2::10"), 3, 20)
		})
	}
}

// TestTokenHashWorkIsCapped: when every slot for comparing secrets stays
// taken, a token request is 503 with Retry-After, and is served once one is
// free.
func TestTokenHashWorkIsCapped(t *testing.T) {
	slots := semaphore.NewWeighted(1)
	a := newAPIWith(t, testdb.MustOpen(t, "sqlite"), service.Options{SecretChecks: slots})
	if !slots.TryAcquire(1) {
		t.Fatal("the slot is taken already")
	}
	creds := form("grant_type", "client_credentials", "client_id", a.adminID, "client_secret", a.adminSecret)
	r := a.postToken(t, creds)
	wantError(t, r, 503, stockroom.EUNAVAILABLE)
	if r.header.Get("Retry-After") != "1" {
		t.Fatalf("503 with Retry-After %q, want 1", r.header.Get("Retry-After"))
	}
	// An unknown client id waits for a slot too: it is compared with the
	// dummy hash, as much work as a real one.
	wantError(t, a.postToken(t, form("grant_type", "client_credentials", "client_id", "nobody", "client_secret", a.adminSecret)), 503, stockroom.EUNAVAILABLE)
	slots.Release(1)
	if r := a.postToken(t, creds); r.status != 200 {
		t.Fatalf("with the slot free: %d %s", r.status, r.body)
	}
}

// findCounter is the store, counting the lookups of clients.
type findCounter struct {
	*store.DB
	finds atomic.Int64
}

func (f *findCounter) FindClient(ctx context.Context, id string) (*stockroom.Client, string, error) {
	f.finds.Add(1)
	return f.DB.FindClient(ctx, id)
}

// TestMalformedClientID: a client_id no client can have is 401 with the
// message of a wrong secret, without a lookup, and the log never has it.
func TestMalformedClientID(t *testing.T) {
	db := testdb.MustOpen(t, "sqlite")
	counter := &findCounter{DB: db}
	var log httpapi.LogBuffer
	a := newAPIWith(t, db, service.Options{}, func(c *httpapi.Config) {
		c.Service = service.New(counter, service.Options{})
		c.Logger = slog.New(slog.NewJSONHandler(&log, nil))
	})
	// Each holds a marker the log must not show: "pasted-into",
	// "qqqqqqqqqq" or "x7q".
	pasted := "s3cret-" + strings.Repeat("pasted-into-the-wrong-field", 200<<10/27)
	ids := map[string]string{
		"200KB":         pasted,
		"65 characters": "long" + strings.Repeat("q", 61),
		"BadCharacter":  "admin!x7q",
		"Space":         "two x7q words",
		"NUL":           "adminx7q\x00",
		"NotUTF8":       "admin\xffx7q",
		"NonASCII":      "x7qé",
	}
	want := wantError(t, a.postToken(t, form("grant_type", "client_credentials", "client_id", "nobody", "client_secret", wrongSecret)), 401, stockroom.EUNAUTHORIZED)
	if counter.finds.Load() != 1 {
		t.Fatalf("%d lookups for a well-formed unknown id, want 1: the counter does not count", counter.finds.Load())
	}
	for name, id := range ids {
		t.Run(name, func(t *testing.T) {
			r := a.postToken(t, form("grant_type", "client_credentials", "client_id", id, "client_secret", a.adminSecret))
			if v := wantError(t, r, 401, stockroom.EUNAUTHORIZED); v["message"] != want["message"] {
				t.Fatalf("message %q, want the wrong secret's %q", v["message"], want["message"])
			}
			if !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Basic") {
				t.Fatalf("WWW-Authenticate %q, want Basic", r.header.Get("WWW-Authenticate"))
			}
		})
	}
	// The same through HTTP Basic.
	r := a.postToken(t, form("grant_type", "client_credentials"), "Authorization", basic(pasted, a.adminSecret))
	wantError(t, r, 401, stockroom.EUNAUTHORIZED)
	if n := counter.finds.Load(); n != 1 {
		t.Fatalf("%d more lookups for malformed ids, want none", n-1)
	}
	// The access log is written after the answer: wait for every line.
	requests := 1 + len(ids) + 1
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(log.String(), `"msg":"request"`) < requests && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	logged := log.String()
	if n := strings.Count(logged, `"client_id":"(malformed)"`); n != requests-1 {
		t.Fatalf("%d access log lines with client_id (malformed), want %d:\n%.2000s", n, requests-1, logged)
	}
	for _, marker := range []string{"pasted-into", "qqqqqqqqqq", "x7q"} {
		if strings.Contains(logged, marker) {
			t.Fatalf("the log has a malformed client_id (%s):\n%.2000s", marker, logged)
		}
	}
}

// Package ratelimit keeps the request budgets of contract §8: so many
// requests per minute per key (a client, a remote address). A Local limiter
// keeps them in this process; a Redis limiter keeps them in Redis, shared by
// every server instance, and falls back to its Local limiter while Redis
// cannot be reached.
//
// Both use the same algorithm, GCRA (a token bucket in other words): a full
// budget allows Limit requests at once, and it refills evenly, one request
// every minute/Limit. So over any window of t seconds a key gets at most
// Limit + Limit·t/60 requests; a burst of requests sent faster than the
// refill gets exactly Limit, plus what refilled while it was sent.
package ratelimit

import (
	"context"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Result is the answer for one request.
type Result struct {
	Allowed bool
	// Limit is the budget's size: requests per minute.
	Limit int
	// Remaining is how many more requests the budget allows right now.
	Remaining int
	// RetryAfter is, for a refused request, how long until one is allowed.
	RetryAfter time.Duration
	// ResetAfter is how long until the budget is full again.
	ResetAfter time.Duration
}

// Limiter decides whether a request under key may proceed. It always
// answers: a limiter whose store fails falls back rather than refusing or
// failing requests.
type Limiter interface {
	Allow(ctx context.Context, key string) Result
}

// Local keeps budgets in this process.
type Local struct {
	limit int
	every time.Duration
	now   func() time.Time

	mu        sync.Mutex
	buckets   map[string]*rate.Limiter
	lastSweep time.Time
}

// NewLocal returns a limiter of perMinute requests per minute per key. now
// is the clock; nil means time.Now.
func NewLocal(perMinute int, now func() time.Time) *Local {
	if now == nil {
		now = time.Now
	}
	return &Local{
		limit:   perMinute,
		every:   time.Minute / time.Duration(perMinute),
		now:     now,
		buckets: map[string]*rate.Limiter{},
	}
}

// sweepEvery is how often full budgets, which are the same as absent ones,
// are dropped, so idle keys do not pile up.
const sweepEvery = time.Minute

// Allow takes one request from key's budget if it has one.
func (l *Local) Allow(_ context.Context, key string) Result {
	now := l.now()
	b := l.bucket(key, now)
	res := Result{Limit: l.limit}
	r := b.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		res.RetryAfter = d
	} else {
		res.Allowed = true
	}
	tokens := b.TokensAt(now)
	res.Remaining = max(0, int(math.Floor(tokens)))
	res.ResetAfter = time.Duration((float64(l.limit) - tokens) * float64(l.every))
	return res
}

func (l *Local) bucket(key string, now time.Time) *rate.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastSweep) >= sweepEvery {
		for k, b := range l.buckets {
			if b.TokensAt(now) >= float64(l.limit) {
				delete(l.buckets, k)
			}
		}
		l.lastSweep = now
	}
	b := l.buckets[key]
	if b == nil {
		b = rate.NewLimiter(rate.Every(l.every), l.limit)
		l.buckets[key] = b
	}
	return b
}

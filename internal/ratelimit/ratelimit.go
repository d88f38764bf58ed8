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
//
// A budget spent by every request takes it with Allow. A budget spent only by
// some outcomes (a failed token request, which may not spend a budget that a
// correct one needs) is looked at with Peek before the work and charged with
// AllowN after it, when the outcome is known.
type Limiter interface {
	// Allow takes one request from key's budget if it holds one.
	Allow(ctx context.Context, key string) Result
	// AllowN takes n requests from key's budget if it holds them all, and
	// none otherwise. An n above the limit counts as the limit: the whole
	// budget.
	AllowN(ctx context.Context, key string, n int) Result
	// Peek reports whether key's budget holds n requests (at most the
	// limit, as in AllowN), taking none: Allowed when it does, else
	// RetryAfter until it will.
	Peek(ctx context.Context, key string, n int) Result
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
func (l *Local) Allow(ctx context.Context, key string) Result {
	return l.AllowN(ctx, key, 1)
}

// AllowN takes n requests from key's budget if it holds them all.
func (l *Local) AllowN(_ context.Context, key string, n int) Result {
	now := l.now()
	b := l.bucket(key, now)
	res := Result{Limit: l.limit}
	r := b.ReserveN(now, min(n, l.limit))
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

// Peek reports whether key's budget holds n requests, taking none. A key
// it has never seen holds a full budget, and is not kept.
func (l *Local) Peek(_ context.Context, key string, n int) Result {
	now := l.now()
	l.mu.Lock()
	b := l.buckets[key]
	l.mu.Unlock()
	var resetAfter time.Duration
	if b != nil {
		resetAfter = time.Duration((float64(l.limit) - b.TokensAt(now)) * float64(l.every))
	}
	return peekResult(l.limit, resetAfter, n)
}

// peekResult is Peek's answer for a budget of limit requests per minute that
// is resetAfter away from full: it holds limit − resetAfter/interval
// requests, and gains one every interval.
func peekResult(limit int, resetAfter time.Duration, n int) Result {
	n = min(n, limit)
	interval := time.Minute / time.Duration(limit)
	resetAfter = max(0, resetAfter)
	// What refills within a nanosecond's rounding counts as there.
	tokens := float64(limit) - float64(resetAfter-1)/float64(interval)
	res := Result{Limit: limit, Remaining: max(0, int(math.Floor(min(tokens, float64(limit))))), ResetAfter: resetAfter}
	if res.Remaining >= n {
		res.Allowed = true
	} else {
		res.RetryAfter = resetAfter - time.Duration(limit-n)*interval
	}
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

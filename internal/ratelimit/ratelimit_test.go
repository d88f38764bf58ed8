package ratelimit_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stockroom/stockroom/internal/ratelimit"
	"github.com/stockroom/stockroom/internal/testdb"
)

var ctx = context.Background()

// clock is a settable time for Local limiters.
type clock struct{ t atomic.Int64 }

func newClock() *clock {
	c := &clock{}
	c.t.Store(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	return c
}
func (c *clock) now() time.Time          { return time.Unix(0, c.t.Load()) }
func (c *clock) advance(d time.Duration) { c.t.Add(int64(d)) }

func TestLocalBudget(t *testing.T) {
	c := newClock()
	l := ratelimit.NewLocal(60, c.now) // one a second
	for i := range 60 {
		res := l.Allow(ctx, "a")
		if !res.Allowed || res.Limit != 60 || res.Remaining != 59-i {
			t.Fatalf("request %d: %+v", i+1, res)
		}
	}
	res := l.Allow(ctx, "a")
	if res.Allowed || res.Remaining != 0 || res.RetryAfter != time.Second || res.ResetAfter != time.Minute {
		t.Fatalf("request 61: %+v", res)
	}
	if res := l.Allow(ctx, "b"); !res.Allowed || res.Remaining != 59 {
		t.Fatalf("another key shares the budget: %+v", res)
	}
	c.advance(time.Second)
	if res := l.Allow(ctx, "a"); !res.Allowed || res.Remaining != 0 {
		t.Fatalf("after refilling one: %+v", res)
	}
	if res := l.Allow(ctx, "a"); res.Allowed {
		t.Fatalf("refilled more than one: %+v", res)
	}
	c.advance(30 * time.Second)
	if res := l.Allow(ctx, "a"); !res.Allowed || res.Remaining != 29 || res.ResetAfter != 31*time.Second {
		t.Fatalf("half a minute later: %+v", res)
	}
	// Idle keys are forgotten once full again, and start full.
	c.advance(2 * time.Minute)
	if res := l.Allow(ctx, "a"); !res.Allowed || res.Remaining != 59 {
		t.Fatalf("after idling: %+v", res)
	}
}

// TestLocalConcurrent checks that the budget holds under concurrent callers:
// exactly the limit passes.
func TestLocalConcurrent(t *testing.T) {
	l := ratelimit.NewLocal(100, newClock().now)
	if got := spend(l, "k", 400, 16); got != 100 {
		t.Fatalf("%d allowed, want 100", got)
	}
}

// spend sends n requests for key from workers goroutines and returns how
// many were allowed.
func spend(l ratelimit.Limiter, key string, n, workers int) int {
	var (
		allowed atomic.Int64
		next    atomic.Int64
		wg      sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			for next.Add(1) <= int64(n) {
				if l.Allow(ctx, key).Allowed {
					allowed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	return int(allowed.Load())
}

// newRedis returns a Redis limiter the test closes when it ends.
func newRedis(t *testing.T, opts ratelimit.RedisOptions) *ratelimit.Redis {
	t.Helper()
	l, err := ratelimit.NewRedis(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// TestRedisShared: two limiters, as two instances, share one budget per key.
func TestRedisShared(t *testing.T) {
	addr := testdb.RequireRedis(t)
	a := newRedis(t, ratelimit.RedisOptions{Addr: addr, PerMinute: 50})
	b := newRedis(t, ratelimit.RedisOptions{Addr: addr, PerMinute: 50})
	key := testdb.UniqueName("test:")
	start := time.Now()
	got := spend(a, key, 100, 8) + spend(b, key, 100, 8)
	// GCRA refills one request every 1.2 s: allow for what refilled while
	// the requests were sent.
	refilled := int(time.Since(start)/(1200*time.Millisecond)) + 1
	if got < 50 || got > 50+refilled {
		t.Fatalf("%d allowed over two instances, want 50 (+%d refilled at most)", got, refilled)
	}
	res := a.Allow(ctx, key)
	if res.Allowed || res.Limit != 50 || res.Remaining != 0 || res.RetryAfter <= 0 || res.RetryAfter > 1200*time.Millisecond {
		t.Fatalf("spent budget: %+v", res)
	}
}

// TestRedisUnreachable: with no Redis to talk to, the limiter still limits,
// in process, and says so once.
func TestRedisUnreachable(t *testing.T) {
	var (
		log    bytes.Buffer // slog's handler serializes writes; read after the requests end
		states []bool
		mu     sync.Mutex
	)
	// Port 1 on loopback: nothing listens, connections are refused at once.
	l := newRedis(t, ratelimit.RedisOptions{
		Addr: "127.0.0.1:1", PerMinute: 30,
		Logger:  slog.New(slog.NewTextHandler(&log, nil)),
		OnState: func(up bool) { mu.Lock(); states = append(states, up); mu.Unlock() },
	})
	if got := spend(l, "k", 100, 8); got != 30 {
		t.Fatalf("%d allowed, want the fallback's 30", got)
	}
	if n := strings.Count(log.String(), "Redis is unreachable"); n != 1 {
		t.Fatalf("logged the outage %d times:\n%s", n, log.String())
	}
	if len(states) != 1 || states[0] {
		t.Fatalf("state changes %v, want [false]", states)
	}
}

// TestPeekAndCharge: a budget spent only by some outcomes is peeked at
// before the work, which takes nothing, and charged after it, n at a time;
// a charge it cannot cover takes nothing either. The same on both limiters.
func TestPeekAndCharge(t *testing.T) {
	check := func(t *testing.T, l ratelimit.Limiter, key string) {
		// 6 a minute: one refills every 10 s, which the test is far
		// quicker than.
		for range 3 {
			if res := l.Peek(ctx, key, 4); !res.Allowed || res.Remaining != 6 || res.Limit != 6 {
				t.Fatalf("peek at a fresh budget: %+v", res)
			}
		}
		if res := l.AllowN(ctx, key, 4); !res.Allowed || res.Remaining != 2 {
			t.Fatalf("charge of 4: %+v", res)
		}
		res := l.Peek(ctx, key, 4)
		if res.Allowed || res.Remaining != 2 || res.RetryAfter < 19*time.Second || res.RetryAfter > 20*time.Second {
			t.Fatalf("peek for 4 with 2 left: %+v, want refused, 20 s to wait", res)
		}
		if res := l.Peek(ctx, key, 2); !res.Allowed || res.Remaining != 2 {
			t.Fatalf("peek for 2 with 2 left: %+v", res)
		}
		if res := l.AllowN(ctx, key, 4); res.Allowed {
			t.Fatalf("charge of 4 with 2 left: %+v", res)
		}
		if res := l.Allow(ctx, key); !res.Allowed || res.Remaining != 1 {
			t.Fatalf("the refused charge took something: %+v", res)
		}
	}
	t.Run("Local", func(t *testing.T) {
		c := newClock()
		l := ratelimit.NewLocal(6, c.now)
		check(t, l, "k")
		c.advance(20 * time.Second)
		if res := l.Peek(ctx, "k", 3); !res.Allowed || res.Remaining != 3 {
			t.Fatalf("20 s later: %+v", res)
		}
		// More than the budget counts as all of it.
		if res := l.Peek(ctx, "full", 10); !res.Allowed {
			t.Fatalf("peek for 10 of a full budget of 6: %+v", res)
		}
		if res := l.AllowN(ctx, "full", 10); !res.Allowed || res.Remaining != 0 {
			t.Fatalf("charge of 10 to a full budget of 6: %+v", res)
		}
		if res := l.Peek(ctx, "full", 10); res.Allowed || res.RetryAfter != time.Minute {
			t.Fatalf("peek for 10 of a spent budget of 6: %+v", res)
		}
	})
	t.Run("Redis", func(t *testing.T) {
		l := newRedis(t, ratelimit.RedisOptions{Addr: testdb.RequireRedis(t), PerMinute: 6})
		check(t, l, testdb.UniqueName("test:"))
	})
}

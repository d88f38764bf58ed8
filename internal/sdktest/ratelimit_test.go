package sdktest_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
	"github.com/stockroom/stockroom/internal/httpapi"
	"github.com/stockroom/stockroom/internal/ratelimit"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// TestRateLimit proves the SDK's answer to 429: with no wait allowed it
// returns the refusal as an *Error; allowed to wait, it waits for
// Retry-After and succeeds. The server's limiter runs on a clock the test
// moves, so the budget refills exactly when the test says.
func TestRateLimit(t *testing.T) {
	t.Parallel()
	var limiterTime atomic.Int64 // nanoseconds added to a fixed instant
	start := time.Now()
	limiter := ratelimit.NewLocal(60, func() time.Time { return start.Add(time.Duration(limiterTime.Load())) })
	svc := service.New(testdb.MustOpen(t, store.SQLite), service.Options{})
	id, secret, _, err := svc.Bootstrap(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(httpapi.New(httpapi.Config{Service: svc, Limiter: limiter}))
	t.Cleanup(srv.Close)
	ctx := context.Background()

	impatient := newClient(t, srv.URL, id, secret, client.WithMaxRateLimitWait(0))
	ok := 0
	for ; ok < 100; ok++ {
		if _, err = impatient.ListWarehouses(ctx, client.ListOptions{}); err != nil {
			break
		}
	}
	apiErr, isAPIErr := errors.AsType[*client.Error](err)
	if !isAPIErr || apiErr.StatusCode != 429 || apiErr.Code != stockroom.ERATELIMITED || apiErr.RetryAfter != time.Second ||
		apiErr.Message != "Rate limit exceeded. Limit: 60 requests per minute." {
		t.Fatalf("after %d calls: %v (%#v), want a 429 with Retry-After 1 s", ok, err, apiErr)
	}
	if ok != 60 {
		t.Fatalf("%d calls before the refusal, want the budget of 60", ok)
	}

	t.Run("NoWaitBeyondTheLimit", func(t *testing.T) {
		c := newClient(t, srv.URL, id, secret, client.WithMaxRateLimitWait(500*time.Millisecond))
		_, err := c.ListWarehouses(ctx, client.ListOptions{})
		if apiErr, ok := errors.AsType[*client.Error](err); !ok || apiErr.StatusCode != 429 {
			t.Fatalf("with a wait limit below Retry-After: %v, want the 429", err)
		}
	})
	t.Run("NoWaitBeyondTheDeadline", func(t *testing.T) {
		c := newClient(t, srv.URL, id, secret, client.WithMaxRateLimitWait(time.Minute))
		if _, err := c.Token(ctx); err != nil { // not part of the call under test
			t.Fatal(err)
		}
		short, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		defer cancel()
		_, err := c.ListWarehouses(short, client.ListOptions{})
		if apiErr, ok := errors.AsType[*client.Error](err); !ok || apiErr.StatusCode != 429 {
			t.Fatalf("with a deadline before Retry-After: %v, want the 429 rather than a timeout", err)
		}
	})
	t.Run("CancelEndsTheWait", func(t *testing.T) {
		cancelled, cancel := context.WithCancel(ctx)
		defer cancel()
		tp := &tap{fault: func(req *http.Request, res *http.Response) (*http.Response, error) {
			if res.StatusCode == http.StatusTooManyRequests {
				time.AfterFunc(100*time.Millisecond, cancel) // while the client waits for Retry-After
			}
			return res, nil
		}}
		c := newClient(t, srv.URL, id, secret, client.WithMaxRateLimitWait(time.Minute), tp.option())
		_, err := c.ListWarehouses(cancelled, client.ListOptions{})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled while waiting: %v, want context.Canceled", err)
		}
	})
	t.Run("WaitsForRetryAfter", func(t *testing.T) {
		// Whenever the server refuses, let the time it asks for pass on its
		// limiter's clock, as it would while the client waits.
		tp := &tap{fault: func(req *http.Request, res *http.Response) (*http.Response, error) {
			if res.StatusCode == http.StatusTooManyRequests {
				limiterTime.Add(int64(time.Second))
			}
			return res, nil
		}}
		patient := newClient(t, srv.URL, id, secret, client.WithMaxRateLimitWait(10*time.Second), tp.option())
		if _, err := patient.ListWarehouses(ctx, client.ListOptions{}); err != nil {
			t.Fatal(err)
		}
		if n := tp.count("GET", "/Warehouse", 429); n != 1 {
			t.Fatalf("%d refusals before the success, want 1", n)
		}
	})
}

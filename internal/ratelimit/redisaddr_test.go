package ratelimit_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom/internal/ratelimit"
	"github.com/stockroom/stockroom/internal/testdb"
)

// TestRedisClientOptions: what --redis may say reaches the client's options,
// credentials, database and TLS included, under the limiter's own timeouts;
// and what it may not is refused without being quoted.
func TestRedisClientOptions(t *testing.T) {
	for _, tc := range []struct {
		in, addr, user, password string
		db                       int
		tls                      bool
	}{
		{in: "127.0.0.1:6379", addr: "127.0.0.1:6379"},
		{in: "redis.internal:6380", addr: "redis.internal:6380"},
		{in: "[::1]:6379", addr: "[::1]:6379"},
		{in: "redis://127.0.0.1:6379", addr: "127.0.0.1:6379"},
		{in: "redis://alice:s3cret@redis.internal:6380/2", addr: "redis.internal:6380", user: "alice", password: "s3cret", db: 2},
		{in: "rediss://:p%40ss%2Fw0rd@redis.internal", addr: "redis.internal:6379", password: "p@ss/w0rd", tls: true},
		{in: "rediss://default:s3cret@redis.internal:6380/1?dial_timeout=30s&max_retries=5", addr: "redis.internal:6380", user: "default", password: "s3cret", db: 1, tls: true},
	} {
		opts, err := ratelimit.RedisClientOptions(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if opts.Addr != tc.addr || opts.Username != tc.user || opts.Password != tc.password || opts.DB != tc.db || (opts.TLSConfig != nil) != tc.tls {
			t.Errorf("%s: addr %q user %q password %q db %d TLS %v", tc.in, opts.Addr, opts.Username, opts.Password, opts.DB, opts.TLSConfig != nil)
		}
		if tc.tls && opts.TLSConfig.ServerName != "redis.internal" {
			t.Errorf("%s: TLS server name %q", tc.in, opts.TLSConfig.ServerName)
		}
		if opts.DialTimeout != 250*time.Millisecond || opts.ReadTimeout != 250*time.Millisecond || opts.MaxRetries != -1 {
			t.Errorf("%s: dial timeout %v, read timeout %v, retries %d: not the limiter's own", tc.in, opts.DialTimeout, opts.ReadTimeout, opts.MaxRetries)
		}
	}
	for _, in := range []string{
		"no-port",
		":6379",
		"alice:s3cret@redis.internal:6379", // a URL without its scheme
		"http://alice:s3cret@redis.internal:6379",
		"unix://alice:s3cret@/run/redis.sock",
		"redis://alice:s3/cret@redis.internal/0", // "/" in the password ends the host: port ":s3"
		"redis://alice:s3cret@redis.internal/zero",
		"redis://alice:s3cret@redis.internal/0?pool=s3cret",
	} {
		_, err := ratelimit.RedisClientOptions(in)
		if err == nil {
			t.Errorf("%s: accepted", in)
		} else if strings.Contains(err.Error(), "s3") {
			t.Errorf("%s: %q quotes the password", in, err)
		}
	}
}

// TestRedisURL: a limiter given a redis:// URL uses that Redis, and the
// database the URL names: the same budgets as host:port's at database 0,
// none of them at another.
func TestRedisURL(t *testing.T) {
	addr := testdb.RequireRedis(t)
	prefix := testdb.UniqueName("stockroom-test:") + ":"
	down := func(up bool) {
		if !up {
			t.Errorf("Redis became unreachable: the fallback answered")
		}
	}
	plain := newRedis(t, ratelimit.RedisOptions{Addr: addr, PerMinute: 6, KeyPrefix: prefix, OnState: down})
	url0 := newRedis(t, ratelimit.RedisOptions{Addr: "redis://" + addr + "/0", PerMinute: 6, KeyPrefix: prefix, OnState: down})
	url1 := newRedis(t, ratelimit.RedisOptions{Addr: "redis://" + addr + "/1", PerMinute: 6, KeyPrefix: prefix, OnState: down})
	if res := plain.AllowN(ctx, "k", 6); !res.Allowed {
		t.Fatalf("spending the budget: %+v", res)
	}
	if res := url0.Peek(ctx, "k", 1); res.Allowed {
		t.Fatalf("redis://%s/0 does not see the budget host:port spent: %+v", addr, res)
	}
	if res := url1.Peek(ctx, "k", 6); !res.Allowed {
		t.Fatalf("redis://%s/1 sees database 0's budget: %+v", addr, res)
	}
}

package ratelimit

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
)

// Redis keeps budgets in Redis (redis_rate's GCRA, one Lua script per
// request), so every instance pointed at the same Redis shares them. While
// Redis cannot be reached it answers from its own Local limiter: requests go
// on being served and limited, per instance. It logs the switch each way once
// and tries Redis again every retry interval.
type Redis struct {
	client  *redis.Client
	limiter *redis_rate.Limiter
	limit   redis_rate.Limit
	local   *Local
	prefix  string
	logger  *slog.Logger
	// onState, when set, hears every switch: true when Redis is in use.
	onState func(up bool)

	// down is read on every request without the lock; mu guards the
	// switches and the retry schedule.
	down      atomic.Bool
	mu        sync.Mutex
	probing   bool // one request is trying Redis while it is down
	downUntil time.Time
}

// RedisOptions configure a Redis limiter.
type RedisOptions struct {
	// Addr is Redis's address: a redis:// or rediss:// URL, or host:port
	// (RedisClientOptions).
	Addr string
	// PerMinute is each key's budget.
	PerMinute int
	Logger    *slog.Logger
	// OnState hears each switch between Redis (true) and the fallback.
	OnState func(up bool)
	// KeyPrefix goes before every key, keeping these budgets apart from
	// those of other users of the same Redis (another deployment, another
	// test); "stockroom:" when empty.
	KeyPrefix string
}

// Timeouts that keep a Redis outage from slowing requests down: a request
// waits at most this long for Redis before the fallback answers, and while
// Redis is down it is tried again once per redisRetry.
const (
	redisTimeout = 250 * time.Millisecond
	redisRetry   = time.Second
)

// defaultKeyPrefix keeps Stockroom's keys apart from other users of the same
// Redis (redis_rate adds its own "rate:" in front).
const defaultKeyPrefix = "stockroom:"

// NewRedis returns a limiter using the Redis at opts.Addr. It does not
// connect until the first request; an address RedisClientOptions refuses is
// its only error.
func NewRedis(opts RedisOptions) (*Redis, error) {
	copts, err := RedisClientOptions(opts.Addr)
	if err != nil {
		return nil, err
	}
	client := redis.NewClient(copts)
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	prefix := opts.KeyPrefix
	if prefix == "" {
		prefix = defaultKeyPrefix
	}
	return &Redis{
		client:  client,
		prefix:  prefix,
		limiter: redis_rate.NewLimiter(client),
		limit:   redis_rate.PerMinute(opts.PerMinute),
		local:   NewLocal(opts.PerMinute, nil),
		logger:  logger,
		onState: opts.OnState,
	}, nil
}

// Close releases the connections to Redis.
func (r *Redis) Close() error { return r.client.Close() }

// Allow takes one request from key's budget in Redis, or in the fallback
// while Redis cannot be reached.
func (r *Redis) Allow(ctx context.Context, key string) Result {
	return r.AllowN(ctx, key, 1)
}

// AllowN takes n requests from key's budget if it holds them all.
func (r *Redis) AllowN(ctx context.Context, key string, n int) Result {
	res, ok := r.run(ctx, key, min(n, r.limit.Burst))
	if !ok {
		return r.local.AllowN(ctx, key, n)
	}
	out := Result{
		Allowed:    res.Allowed > 0,
		Limit:      res.Limit.Burst,
		Remaining:  res.Remaining,
		ResetAfter: max(0, res.ResetAfter),
	}
	if !out.Allowed {
		out.RetryAfter = res.RetryAfter
	}
	return out
}

// Peek reports whether key's budget holds n requests, taking none: the
// script run with a cost of 0 changes nothing and tells how far the budget
// is from full.
func (r *Redis) Peek(ctx context.Context, key string, n int) Result {
	res, ok := r.run(ctx, key, 0)
	if !ok {
		return r.local.Peek(ctx, key, n)
	}
	return peekResult(res.Limit.Burst, res.ResetAfter, n)
}

// run takes cost requests from key's budget in Redis; ok is false when
// Redis cannot answer and the fallback is to.
func (r *Redis) run(ctx context.Context, key string, cost int) (res *redis_rate.Result, ok bool) {
	if !r.useRedis() {
		return nil, false
	}
	cctx, cancel := context.WithTimeout(ctx, redisTimeout)
	res, err := r.limiter.AllowN(cctx, r.prefix+key, r.limit, cost)
	cancel()
	if err == nil {
		r.succeeded()
		return res, true
	}
	if ctx.Err() == nil { // not the caller giving up
		r.failed(err)
	} else {
		r.release()
	}
	return nil, false
}

// useRedis reports whether this request should ask Redis: always while it
// works; while it is down, one request per retry interval.
func (r *Redis) useRedis() bool {
	if !r.down.Load() {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.down.Load() {
		return true
	}
	if r.probing || time.Now().Before(r.downUntil) {
		return false
	}
	r.probing = true
	return true
}

func (r *Redis) release() {
	r.mu.Lock()
	r.probing = false
	r.mu.Unlock()
}

func (r *Redis) succeeded() {
	if !r.down.Load() {
		return
	}
	r.mu.Lock()
	was := r.down.Swap(false)
	r.probing = false
	r.mu.Unlock()
	if was {
		r.logger.Info("rate limit: Redis is reachable again; budgets are shared again")
		r.notify(true)
	}
}

func (r *Redis) failed(err error) {
	r.mu.Lock()
	was := r.down.Swap(true)
	r.probing = false
	r.downUntil = time.Now().Add(redisRetry)
	r.mu.Unlock()
	if !was {
		r.logger.Warn("rate limit: Redis is unreachable; limiting in this process until it is back",
			slog.String("error", err.Error()))
		r.notify(false)
	}
}

func (r *Redis) notify(up bool) {
	if r.onState != nil {
		r.onState(up)
	}
}

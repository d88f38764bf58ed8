package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/stockroom/stockroom/internal/httpapi"
	"github.com/stockroom/stockroom/internal/metrics"
	"github.com/stockroom/stockroom/internal/ratelimit"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/store"
)

// serveConfig is the typed configuration of `stockroom serve`, read from flags
// and STOCKROOM_* variables here and nowhere else.
type serveConfig struct {
	Addr         string
	DB           string
	TokenTTL     time.Duration
	AuthCache    time.Duration
	RateLimit    int
	Redis        string
	RealIPHeader string
	MetricsAddr  string
	Timeout      time.Duration
	LogLevel     slog.Level
}

// shutdownGrace is how long in-flight requests get to finish after SIGINT or
// SIGTERM.
const shutdownGrace = 30 * time.Second

func runServe(ctx context.Context, e env, args []string) error {
	fs, dsn := newFlags("serve")
	var cfg serveConfig
	fs.StringVar(&cfg.Addr, "addr", "127.0.0.1:8080", "address to listen on")
	fs.DurationVar(&cfg.TokenTTL, "token-ttl", service.DefaultTokenTTL, "lifetime of issued access tokens")
	fs.DurationVar(&cfg.AuthCache, "auth-cache", 10*time.Second, "how long a checked token is trusted without asking the database (0 to 60s); a client disabled elsewhere is refused within this time")
	fs.IntVar(&cfg.RateLimit, "rate-limit", 100, "requests per minute per client (and per remote address for requests without a valid token)")
	fs.StringVar(&cfg.Redis, "redis", "", "Redis address (host:port) keeping the rate limit shared by every instance; in-process when empty")
	fs.StringVar(&cfg.RealIPHeader, "real-ip-header", "", "header a trusted proxy sets to the client's address (e.g. X-Forwarded-For); the peer's address when empty")
	fs.StringVar(&cfg.MetricsAddr, "metrics-addr", "", "address serving GET /metrics on its own; on --addr when empty")
	fs.DurationVar(&cfg.Timeout, "request-timeout", 30*time.Second, "longest a request may take, database waits included; past it the answer is 503")
	fs.TextVar(&cfg.LogLevel, "log-level", slog.LevelInfo, "log level: DEBUG, INFO, WARN or ERROR")
	if err := parseFlags(fs, e, args); err != nil {
		return err
	}
	cfg.DB = *dsn
	switch {
	case cfg.TokenTTL < time.Minute || cfg.TokenTTL > 30*24*time.Hour:
		return usageFor(fs, "--token-ttl must be between 1m and 720h")
	case cfg.AuthCache < 0 || cfg.AuthCache > time.Minute:
		return usageFor(fs, "--auth-cache must be between 0s and 60s")
	case cfg.Timeout < time.Second || cfg.Timeout > 10*time.Minute:
		return usageFor(fs, "--request-timeout must be between 1s and 10m")
	case cfg.RateLimit < 1 || cfg.RateLimit > 60_000_000:
		return usageFor(fs, "--rate-limit must be between 1 and 60000000")
	}
	if cfg.Redis != "" {
		if _, _, err := net.SplitHostPort(cfg.Redis); err != nil {
			return usageFor(fs, "--redis must be host:port: %v", err)
		}
	}
	return serve(ctx, e, cfg)
}

func serve(ctx context.Context, e env, cfg serveConfig) error {
	logger := slog.New(slog.NewJSONHandler(e.stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	logger.Info("starting", readBuildInfo().logAttrs()...)

	svc, db, err := openService(ctx, cfg.DB, service.Options{TokenTTL: cfg.TokenTTL, AuthCacheTTL: cfg.AuthCache})
	if err != nil {
		return err
	}
	defer db.Close()
	logger.Info("database opened", databaseAttrs(cfg.DB)...)
	if err := firstStart(ctx, e, svc); err != nil {
		return err
	}

	m := metrics.New()
	for name, pool := range db.Pools() {
		m.AddDB(name, pool)
	}
	addWriteStats(m, db)
	var limiter ratelimit.Limiter = ratelimit.NewLocal(cfg.RateLimit, nil)
	if cfg.Redis != "" {
		rl := ratelimit.NewRedis(ratelimit.RedisOptions{Addr: cfg.Redis, PerMinute: cfg.RateLimit, Logger: logger, OnState: m.RedisUp})
		defer rl.Close()
		m.RedisUp(true)
		limiter = rl
	}
	api := httpapi.New(httpapi.Config{Service: svc, Logger: logger, RequestTimeout: cfg.Timeout,
		Limiter: limiter, RealIPHeader: cfg.RealIPHeader, Metrics: m})
	servers, listeners, err := listen(cfg, api, m, logger)
	if err != nil {
		return err
	}
	go sweepIdempotencyKeys(ctx, svc, logger)
	return runServers(ctx, servers, listeners, logger)
}

// firstStart sets up a new database. The credential it creates goes to
// standard output, apart from the log lines on standard error, so that it
// can be kept (or kept out of a log collector) on its own.
func firstStart(ctx context.Context, e env, svc *service.Service) error {
	id, secret, created, err := svc.Bootstrap(ctx)
	if err != nil {
		return fmt.Errorf("first-start setup: %w", err)
	}
	if created {
		fmt.Fprintf(e.stdout, `
================================================================================
 Stockroom set up a new database: warehouse 1 "Main", the default reason codes
 and an administrator client with every permission on every warehouse.

   client_id=%s
   client_secret=%s

 Save the secret now. Only its hash is stored; it is never shown again.
 (A lost secret is replaced with: stockroom client rotate-secret --id ID)
================================================================================

`, id, secret)
	}
	return nil
}

// listen opens the API's address, and the metrics' own when it has one. The
// API sees every request but GET /metrics, which is served beside it or on
// its address.
func listen(cfg serveConfig, api http.Handler, m *metrics.Metrics, logger *slog.Logger) ([]*http.Server, []net.Listener, error) {
	handler := api
	if cfg.MetricsAddr == "" {
		handler = withMetrics(api, m.Handler())
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return nil, nil, err
	}
	servers, listeners := []*http.Server{newHTTPServer(handler, logger, cfg.Timeout)}, []net.Listener{ln}
	if cfg.MetricsAddr != "" {
		mln, err := net.Listen("tcp", cfg.MetricsAddr)
		if err != nil {
			ln.Close()
			return nil, nil, err
		}
		servers = append(servers, newHTTPServer(withMetrics(http.NotFoundHandler(), m.Handler()), logger, cfg.Timeout))
		listeners = append(listeners, mln)
		logger.Info("metrics listening", "addr", mln.Addr().String())
	}
	logger.Info("listening", "addr", ln.Addr().String(), "token_ttl", cfg.TokenTTL.String(),
		"rate_limit", cfg.RateLimit, "redis", cfg.Redis != "")
	return servers, listeners, nil
}

// runServers serves until ctx ends, then gives the requests in flight up to
// shutdownGrace to finish.
func runServers(ctx context.Context, servers []*http.Server, listeners []net.Listener, logger *slog.Logger) error {
	errc := make(chan error, len(servers))
	for i, srv := range servers {
		go func() { errc <- srv.Serve(listeners[i]) }()
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down; waiting for in-flight requests", "grace", shutdownGrace.String())
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	for _, srv := range servers {
		if err := srv.Shutdown(sctx); err != nil {
			return fmt.Errorf("shutdown: %w", err)
		}
	}
	for range servers {
		if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	}
	logger.Info("stopped")
	return nil
}

// withMetrics serves GET /metrics with metrics and everything else with h.
func withMetrics(h, metrics http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/metrics" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			metrics.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// newHTTPServer serves h with timeouts that let a request run for its whole
// requestTimeout and still write its answer.
func newHTTPServer(h http.Handler, logger *slog.Logger, requestTimeout time.Duration) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      requestTimeout + 30*time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}

// sweepIdempotencyKeys deletes expired idempotency keys every few minutes
// until ctx ends. Several instances sweeping at once do no harm.
func sweepIdempotencyKeys(ctx context.Context, svc *service.Service, logger *slog.Logger) {
	t := time.NewTicker(5 * time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if n, err := svc.DeleteExpiredIdempotencyKeys(ctx); err != nil {
			logger.Warn("sweeping expired idempotency keys", "error", err.Error())
		} else if n > 0 {
			logger.Info("swept expired idempotency keys", "count", n)
		}
	}
}

// addWriteStats exports the write path's group commit counts.
func addWriteStats(m *metrics.Metrics, db *store.DB) {
	for _, c := range []struct {
		name, help string
		get        func(store.WriteStats) int64
	}{
		{"stockroom_write_batches_total", "Write transactions that carried a batch of more than one request (group commit).",
			func(s store.WriteStats) int64 { return s.Batches }},
		{"stockroom_write_batched_total", "Requests written as members of a batch.",
			func(s store.WriteStats) int64 { return s.Batched }},
		{"stockroom_write_alone_total", "Write transactions of one request: at an idle moment, or run again after a batch.",
			func(s store.WriteStats) int64 { return s.Alone }},
		{"stockroom_write_again_total", "Batch members run again alone: they waited too long for a lock, or their batch failed.",
			func(s store.WriteStats) int64 { return s.Again }},
		{"stockroom_write_deadlocks_total", "Write transactions and batch members PostgreSQL aborted as deadlock victims (or serialization failures), each run again.",
			func(s store.WriteStats) int64 { return s.Deadlocks }},
		{"stockroom_write_stepped_total", "Batch members run together in a lockstep, their statements sent in one pipeline with the others' (PostgreSQL).",
			func(s store.WriteStats) int64 { return s.Stepped }},
		{"stockroom_write_step_retries_total", "Lockstep attempts rolled back because a member failed after writing, each run again without it (PostgreSQL).",
			func(s store.WriteStats) int64 { return s.StepRetries }},
		{"stockroom_write_merged_levels_total", "Stock level rows changed by one statement with the rows of other lockstep members (PostgreSQL).",
			func(s store.WriteStats) int64 { return s.MergedLevels }},
		{"stockroom_write_checkpoints_total", "SQLite checkpoints run beside the writer, copying its log into the database file.",
			func(s store.WriteStats) int64 { return s.Checkpoints }},
	} {
		m.AddCounterFunc(c.name, c.help, func() float64 { return float64(c.get(db.WriteStats())) })
	}
}

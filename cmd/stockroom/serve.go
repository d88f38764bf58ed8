package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/console"
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
	CORSOrigins  []string
	MetricsAddr  string
	Timeout      time.Duration
	// DBReplica is a PostgreSQL streaming replica that reports and CSV
	// exports read from; ExportTimeout bounds an export.
	DBReplica     string
	ExportTimeout time.Duration
	LogLevel      slog.Level
	// EventRetention is how long events are kept at least.
	EventRetention time.Duration
	// WebhookAllowPrivate lets webhooks reach http:// and private hosts.
	WebhookAllowPrivate bool
	// WebhookLease is how long an instance's claim of a subscription lasts
	// unrenewed: how soon another resumes the deliveries of one that died.
	WebhookLease time.Duration
}

// parseOrigins reads --cors-origins: "*", or origins as a browser sends
// them in its Origin header (scheme://host[:port], nothing after).
func parseOrigins(v string) ([]string, error) {
	var origins []string
	for o := range strings.SplitSeq(v, ",") {
		o = strings.TrimSpace(o)
		if o == "*" {
			origins = append(origins, o)
			continue
		}
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
			(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
			return nil, fmt.Errorf("%q is not an origin (scheme://host[:port]) or *", o)
		}
		origins = append(origins, u.Scheme+"://"+u.Host)
	}
	return origins, nil
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
	fs.StringVar(&cfg.Redis, "redis", "", "Redis keeping the rate limit shared by every instance: a redis:// or rediss:// (TLS) URL, with user, password and database number, or host:port; in-process when empty")
	fs.StringVar(&cfg.RealIPHeader, "real-ip-header", "", "header a trusted proxy sets to the client's address (e.g. X-Forwarded-For); the peer's address when empty")
	fs.Func("cors-origins", "browser origins allowed to call the API, comma-separated (https://app.example.com), or * for any; none: no CORS headers and OPTIONS is 405", func(v string) error {
		origins, err := parseOrigins(v)
		cfg.CORSOrigins = origins
		return err
	})
	fs.StringVar(&cfg.MetricsAddr, "metrics-addr", "", "address serving GET /metrics on its own; on --addr when empty")
	fs.DurationVar(&cfg.Timeout, "request-timeout", 30*time.Second, "longest a request may take, database waits included; past it the answer is 503")
	fs.StringVar(&cfg.DBReplica, "db-replica", "", "PostgreSQL streaming replica (postgres:// URL) that reports and CSV exports read from; the primary answers them while it is down")
	fs.DurationVar(&cfg.ExportTimeout, "export-timeout", httpapi.DefaultExportTimeout, "longest a CSV export may take (Accept: text/csv), in place of --request-timeout")
	fs.DurationVar(&cfg.EventRetention, "event-retention", stockroom.DefaultEventRetention, "how long the change feed keeps events (at least 1h); a cursor older than the events kept is answered 410")
	fs.BoolVar(&cfg.WebhookAllowPrivate, "webhook-allow-private", false, "let webhook subscriptions name http:// URLs and loopback, private and link-local hosts (on-premises receivers, tests)")
	fs.DurationVar(&cfg.WebhookLease, "webhook-lease", 30*time.Second, "how long an instance's claim of a webhook subscription lasts unrenewed (1s to 10m): how soon another instance resumes the deliveries of one that died; a delivery slower than it may be sent twice")
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
	case cfg.ExportTimeout < cfg.Timeout || cfg.ExportTimeout > 24*time.Hour:
		return usageFor(fs, "--export-timeout must be between --request-timeout and 24h")
	case cfg.DBReplica != "" && !strings.HasPrefix(cfg.DB, "postgres"):
		return usageFor(fs, "--db-replica needs a PostgreSQL --db")
	case cfg.EventRetention < time.Hour:
		return usageFor(fs, "--event-retention must be at least 1h")
	case cfg.WebhookLease < time.Second || cfg.WebhookLease > 10*time.Minute:
		return usageFor(fs, "--webhook-lease must be between 1s and 10m")
	case cfg.RateLimit < 1 || cfg.RateLimit > 60_000_000:
		return usageFor(fs, "--rate-limit must be between 1 and 60000000")
	}
	if cfg.Redis != "" {
		if _, err := ratelimit.RedisClientOptions(cfg.Redis); err != nil {
			return usageFor(fs, "--redis %s: %v", redactURL(cfg.Redis), err)
		}
	}
	return serve(ctx, e, cfg)
}

func serve(ctx context.Context, e env, cfg serveConfig) error {
	logger := slog.New(slog.NewJSONHandler(e.stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	logger.Info("starting", readBuildInfo().logAttrs()...)

	svc, db, err := openService(ctx, cfg.DB, service.Options{TokenTTL: cfg.TokenTTL, AuthCacheTTL: cfg.AuthCache,
		Webhooks: service.WebhookOptions{AllowPrivate: cfg.WebhookAllowPrivate, Lease: cfg.WebhookLease}})
	if err != nil {
		return err
	}
	defer db.Close()
	logger.Info("database opened", databaseAttrs(cfg.DB)...)
	if cfg.DBReplica != "" {
		if err := db.OpenReplica(ctx, cfg.DBReplica, logger); err != nil {
			return fmt.Errorf("--db-replica %s: %w", redactURL(cfg.DBReplica), err)
		}
		logger.Info("reports and exports read from the replica", "url", redactURL(cfg.DBReplica))
	}
	if err := firstStart(ctx, e, svc); err != nil {
		return err
	}

	m := metrics.New()
	for name, pool := range db.Pools() {
		m.AddDB(name, pool)
	}
	addWriteStats(m, db)
	addEventStats(m, db)
	addWebhookStats(m, svc)
	var limiter ratelimit.Limiter = ratelimit.NewLocal(cfg.RateLimit, nil)
	if cfg.Redis != "" {
		rl, err := ratelimit.NewRedis(ratelimit.RedisOptions{Addr: cfg.Redis, PerMinute: cfg.RateLimit, Logger: logger, OnState: m.RedisUp})
		if err != nil {
			return fmt.Errorf("--redis %s: %w", redactURL(cfg.Redis), err)
		}
		defer rl.Close()
		m.RedisUp(true)
		limiter = rl
	}
	api := httpapi.New(httpapi.Config{Service: svc, Logger: logger, RequestTimeout: cfg.Timeout, ExportTimeout: cfg.ExportTimeout,
		Limiter: limiter, RealIPHeader: cfg.RealIPHeader, Metrics: m, CORSOrigins: cfg.CORSOrigins})
	// The console (/console) calls the API in process; everything else is
	// the API's.
	site := console.Mount(api, console.New(console.Config{API: api, Service: svc, Logger: logger, RealIPHeader: cfg.RealIPHeader}))
	servers, listeners, err := listen(cfg, site, m, logger)
	if err != nil {
		return err
	}
	// The background work ends, and is waited for, before the database
	// closes (the deferred db.Close runs after this): a prune, a sweep or
	// a webhook delivery may be writing when the servers stop.
	bg, stopBackground := context.WithCancel(ctx)
	var background sync.WaitGroup
	defer func() {
		stopBackground()
		background.Wait()
	}()
	background.Go(func() { sweepIdempotencyKeys(bg, svc, logger) })
	background.Go(func() { pruneEvents(bg, svc, cfg.EventRetention, logger) })
	background.Go(func() { svc.RunWebhooks(bg, logger) })
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
		"rate_limit", cfg.RateLimit, "redis", redactURL(cfg.Redis))
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

// pruneEvents deletes the events older than the retention, now and every
// few minutes, in bounded batches (service.PruneEvents).
func pruneEvents(ctx context.Context, svc *service.Service, retention time.Duration, logger *slog.Logger) {
	t := time.NewTicker(5 * time.Minute)
	defer t.Stop()
	for {
		if n, err := svc.PruneEvents(ctx, retention); err != nil && ctx.Err() == nil {
			logger.Warn("pruning old events", "error", err.Error())
		} else if n > 0 {
			logger.Info("pruned old events", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
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

// Package metrics holds the server's Prometheus metrics in a registry of its
// own: requests by route and status with latency, rate-limit refusals, stock
// transactions by type, the rate limit's use of Redis, database pools, and the
// Go runtime and process.
package metrics

import (
	"database/sql"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics is one server's set. A nil *Metrics records nothing, so code under
// test need not make one.
type Metrics struct {
	registry    *prometheus.Registry
	requests    *prometheus.CounterVec
	duration    *prometheus.HistogramVec
	rateLimited *prometheus.CounterVec
	stockTx     *prometheus.CounterVec
	redisUp     prometheus.Gauge
}

// New returns a set registered in a fresh registry.
func New() *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "stockroom_http_requests_total",
			Help: "HTTP requests by route (method and pattern; \"unrouted\" for none) and status code.",
		}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "stockroom_http_request_duration_seconds",
			Help:    "Time from receiving a request to its response, by route.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"route"}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "stockroom_rate_limit_rejections_total",
			Help: "Requests refused with 429, by budget: client, address (unauthenticated) or token (POST /Token failures by client id and address).",
		}, []string{"budget"}),
		stockTx: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "stockroom_stock_transactions_total",
			Help: "Stock transactions committed, by type (receive, issue, move, hold, release).",
		}, []string{"type"}),
		redisUp: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "stockroom_rate_limit_redis_up",
			Help: "1 while the rate limit is kept in Redis, 0 while it falls back to this process (or runs without Redis).",
		}),
	}
	m.registry.MustRegister(m.requests, m.duration, m.rateLimited, m.stockTx, m.redisUp,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in Prometheus's text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{Registry: m.registry})
}

// AddDB adds a database pool's figures (connections open, in use, idle,
// waits) under the name given.
func (m *Metrics) AddDB(name string, db *sql.DB) {
	m.registry.MustRegister(collectors.NewDBStatsCollector(db, name))
}

// AddCounterFunc adds a counter read from f at each scrape.
func (m *Metrics) AddCounterFunc(name, help string, f func() float64) {
	m.registry.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, f))
}

// AddGaugeFunc adds a gauge read from f at each scrape.
func (m *Metrics) AddGaugeFunc(name, help string, f func() float64) {
	m.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f))
}

// Request records one response.
func (m *Metrics) Request(route string, code int, d time.Duration) {
	if m == nil {
		return
	}
	if route == "" {
		route = "unrouted"
	}
	m.requests.WithLabelValues(route, strconv.Itoa(code)).Inc()
	m.duration.WithLabelValues(route).Observe(d.Seconds())
}

// RateLimited records a 429 from the named budget.
func (m *Metrics) RateLimited(budget string) {
	if m != nil {
		m.rateLimited.WithLabelValues(budget).Inc()
	}
}

// StockTransaction records a committed stock transaction.
func (m *Metrics) StockTransaction(typ string) {
	if m != nil {
		m.stockTx.WithLabelValues(typ).Inc()
	}
}

// RedisUp records whether the rate limit is kept in Redis.
func (m *Metrics) RedisUp(up bool) {
	if m == nil {
		return
	}
	if up {
		m.redisUp.Set(1)
	} else {
		m.redisUp.Set(0)
	}
}

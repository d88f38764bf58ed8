package metrics

import (
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
)

// WebhookFigures are an instance's webhook delivery figures at a scrape:
// attempts by outcome, and per subscription the seconds its deliveries lag
// behind the feed.
type WebhookFigures struct {
	Succeeded, Failed, Looks float64
	LagSeconds               map[int64]float64
}

// AddWebhooks adds the webhook delivery figures, read from f at each
// scrape: stockroom_webhook_deliveries_total{outcome},
// stockroom_webhook_lag_seconds{webhook} and stockroom_webhook_looks_total.
func (m *Metrics) AddWebhooks(f func() WebhookFigures) {
	m.registry.MustRegister(webhookCollector(f))
}

var (
	webhookDeliveries = prometheus.NewDesc("stockroom_webhook_deliveries_total",
		"Webhook delivery attempts made by this instance, by outcome (success: a 2xx within 10 s; failure: anything else).",
		[]string{"outcome"}, nil)
	webhookLag = prometheus.NewDesc("stockroom_webhook_lag_seconds",
		"How far a subscription's deliveries lag behind the feed, when this instance last served it: now minus the time of the oldest event not yet delivered, 0 when caught up.",
		[]string{"webhook"}, nil)
	webhookLooks = prometheus.NewDesc("stockroom_webhook_looks_total",
		"Looks for subscriptions due deliveries made by this instance's worker: each reads the due subscriptions and peeks at their feed. Commits wake it, at most once every 10 ms.",
		nil, nil)
)

// webhookCollector collects the figures of f.
type webhookCollector func() WebhookFigures

func (c webhookCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- webhookDeliveries
	ch <- webhookLag
	ch <- webhookLooks
}

func (c webhookCollector) Collect(ch chan<- prometheus.Metric) {
	f := c()
	ch <- prometheus.MustNewConstMetric(webhookDeliveries, prometheus.CounterValue, f.Succeeded, "success")
	ch <- prometheus.MustNewConstMetric(webhookDeliveries, prometheus.CounterValue, f.Failed, "failure")
	ch <- prometheus.MustNewConstMetric(webhookLooks, prometheus.CounterValue, f.Looks)
	for id, lag := range f.LagSeconds {
		ch <- prometheus.MustNewConstMetric(webhookLag, prometheus.GaugeValue, lag, strconv.FormatInt(id, 10))
	}
}

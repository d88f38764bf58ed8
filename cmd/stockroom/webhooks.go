package main

import (
	"github.com/stockroom/stockroom/internal/metrics"
	"github.com/stockroom/stockroom/internal/service"
)

// addWebhookStats exports this instance's webhook delivery figures.
func addWebhookStats(m *metrics.Metrics, svc *service.Service) {
	m.AddWebhooks(func() metrics.WebhookFigures {
		st := svc.WebhookStats()
		f := metrics.WebhookFigures{Succeeded: float64(st.Succeeded), Failed: float64(st.Failed), Looks: float64(st.Looks),
			LagSeconds: map[int64]float64{}}
		for id, d := range st.Lag {
			f.LagSeconds[id] = d.Seconds()
		}
		return f
	})
}

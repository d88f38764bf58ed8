package main

import (
	"context"
	"time"

	"github.com/stockroom/stockroom/internal/metrics"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/store"
)

// addEventStats exports the change feed's figures: events appended (by
// every instance) and this instance's readers waiting for one.
func addEventStats(m *metrics.Metrics, db *store.DB) {
	m.AddCounterFunc("stockroom_events_appended_total", "Events appended to the change feed by every instance (the feed's sequence; on PostgreSQL it counts events of transactions rolled back too).",
		func() float64 {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			n, _ := db.EventsAppended(ctx)
			return float64(n)
		})
	m.AddGaugeFunc("stockroom_events_readers_waiting", "Readers of GET /Events waiting for the next event on this instance.",
		func() float64 { return float64(service.EventReadersWaiting()) })
}

package httpapi_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// Three instances (three stores and services on one PostgreSQL database)
// deliver together; the first, alone at first, is stopped abruptly in the
// middle of its deliveries, holding its leases (its context ends: it writes
// nothing more, as if killed). Once the leases expire the other two resume
// from the positions it wrote: every event reaches every receiver, in feed
// order, re-sent at most from the last position written (one rewind per
// subscription), and never by two instances at once (which would rewind
// again and again).
func TestWebhookInstancesShareDeliveries(t *testing.T) {
	dsn := testdb.DSN(t, store.Postgres)
	dbs := make([]*store.DB, 3)
	for i := range dbs {
		db, err := store.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		if i == 0 {
			if _, _, err := db.Migrate(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		dbs[i] = db
	}
	a := newAPIWith(t, dbs[0], service.Options{Webhooks: testWebhooks})
	svcs := []*service.Service{a.svc, service.New(dbs[1], service.Options{Webhooks: testWebhooks}), service.New(dbs[2], service.Options{Webhooks: testWebhooks})}
	tok := stockAPI(t, a)
	start := a.feedEnd(t, tok)
	rcs := make([]*receiver, 3)
	for i := range rcs {
		rcs[i] = newReceiver(t)
		slow := rcs[i].Config.Handler
		rcs[i].Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(3 * time.Millisecond) // long enough to be caught mid-delivery
			slow.ServeHTTP(w, r)
		})
		a.subscribe(t, tok, rcs[i], "*")
	}
	a.stockChanges(t, tok, 20)
	feed, _ := a.feedTo(t, tok, start, "", 20*2+3)

	stopFirst := runInstance(t, svcs[1])
	waitFor(t, "the first instance to deliver", func() bool { return len(rcs[0].events())+len(rcs[1].events())+len(rcs[2].events()) >= 15 })
	stopFirst()
	runInstance(t, svcs[0])
	runInstance(t, svcs[2])

	for i, rc := range rcs {
		waitFor(t, "every event delivered", func() bool { return len(distinct(rc.events())) == len(feed) })
		got := rc.events()
		if !slices.Equal(distinct(got), eventIDs(feed)) {
			t.Fatalf("receiver %d got %v,\nfeed %v", i, eventIDs(got), eventIDs(feed))
		}
		t.Logf("receiver %d: %d deliveries of %d events", i, len(got), len(feed))
		if n := rewinds(got, feed); n > 1 {
			t.Fatalf("receiver %d: the deliveries went back %d times: %v", i, n, eventIDs(got))
		}
	}
}

// runInstance runs an instance's delivery worker until the returned stop
// (or the test's end); stopping it is abrupt, as a kill.
func runInstance(t *testing.T, svc *service.Service) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); svc.RunWebhooks(ctx, slog.New(slog.NewTextHandler(io.Discard, nil))) }()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	return stop
}

// distinct is the ids of es, each once, in the order first met.
func distinct(es []stockroom.Event) []string {
	var out []string
	for _, e := range es {
		if !slices.Contains(out, e.ID) {
			out = append(out, e.ID)
		}
	}
	return out
}

// rewinds counts the deliveries of an event before one already delivered.
func rewinds(got, feed []stockroom.Event) int {
	pos := map[string]int{}
	for i, e := range feed {
		pos[e.ID] = i
	}
	n, last := 0, -1
	for _, e := range got {
		if pos[e.ID] <= last {
			n++
		}
		last = pos[e.ID]
	}
	return n
}

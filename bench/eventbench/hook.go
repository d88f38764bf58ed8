package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// receiver is a webhook receiver on loopback that answers 204 to every
// delivery and notes, for each, when it arrived and its delay from its
// event's time (payloadMode 1 and 2 both carry the time).
type receiver struct {
	url      string
	mu       sync.Mutex
	arrivals []time.Time
	delays   []time.Duration
	from     time.Time // delays are kept for events of time from on
	ids      map[string]bool
	again    int // deliveries of an event delivered before
}

func startReceiver() (*receiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &receiver{url: "http://" + ln.Addr().String() + "/hook", ids: map[string]bool{}}
	go func() { _ = http.Serve(ln, r) }()
	return r, nil
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	data, _ := io.ReadAll(req.Body)
	at := time.Now()
	var e event
	_ = json.Unmarshal(data, &e)
	r.mu.Lock()
	r.arrivals = append(r.arrivals, at)
	if r.ids[e.ID] {
		r.again++
	}
	r.ids[e.ID] = true
	if !e.Time.Before(r.from) {
		r.delays = append(r.delays, at.Sub(e.Time))
	}
	r.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// between counts the deliveries that arrived in [from, to).
func (r *receiver) between(from, to time.Time) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, at := range r.arrivals {
		if !at.Before(from) && at.Before(to) {
			n++
		}
	}
	return n
}

// repeated is how many deliveries were of an event delivered before.
func (r *receiver) repeated() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.again
}

// distinct is how many events were delivered.
func (r *receiver) distinct() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.ids)
}

// received is how many deliveries arrived, and the last one's time.
func (r *receiver) received() (int, time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.arrivals) == 0 {
		return 0, time.Time{}
	}
	return len(r.arrivals), r.arrivals[len(r.arrivals)-1]
}

// subscribe creates a subscription of every event type to the receiver.
func (b *bench) subscribe(ctx context.Context, r *receiver, payload int) (int64, error) {
	var wh struct {
		Rec int64 `json:"rec"`
	}
	err := b.must(ctx, "POST", "/Webhook", map[string]any{"name": "eventbench", "url": r.url, "events": "*",
		"payloadMode": payload}, &wh)
	return wh.Rec, err
}

// unsubscribe deletes a subscription, so that the next run's receiver is
// the only one.
func (b *bench) unsubscribe(ctx context.Context, rec int64) {
	if err := b.must(ctx, "DELETE", fmt.Sprintf("/Webhook/%d", rec), nil, nil); err != nil {
		fmt.Println("deleting the subscription:", err)
	}
}

// hooked starts a receiver and subscribes it to every event from the
// feed's end on, which it returns with the subscription.
func (b *bench) hooked(ctx context.Context, payload int) (r *receiver, end string, rec int64, err error) {
	if r, err = startReceiver(); err != nil {
		return nil, "", 0, err
	}
	if _, end, err = b.feedEnd(ctx); err != nil {
		return nil, "", 0, err
	}
	rec, err = b.subscribe(ctx, r, payload)
	return r, end, rec, err
}

// setActive disables a subscription by hand, or enables it again.
func (b *bench) setActive(ctx context.Context, rec int64, active bool) error {
	return b.must(ctx, "PUT", fmt.Sprintf("/Webhook/%d", rec), map[string]any{"active": active}, nil)
}

// backlogRun builds a backlog of events for a disabled subscription with
// cfg.duration of writes, then enables it and times its catch-up: the
// events delivered a second from the enabling to the last delivery.
func (b *bench) backlogRun(ctx context.Context, cfg runConfig) error {
	r, end, rec, err := b.hooked(ctx, cfg.payload)
	if err != nil {
		return err
	}
	defer b.unsubscribe(ctx, rec)
	if err := b.setActive(ctx, rec, false); err != nil {
		return err
	}
	wctx, stop := context.WithTimeout(ctx, cfg.duration)
	w := b.write(wctx, cfg.conns, cfg.rate)
	<-wctx.Done()
	stop()
	time.Sleep(time.Second) // the last writes commit
	pages, _, err := b.feedEnd(ctx)
	if err != nil {
		return err
	}
	backlog := countAfter(ctx, b, end)
	fmt.Printf("backlog: %d writes (2xx) in %v made %d events (%d pages of the feed in all)\n", w.ok.Load(), cfg.duration, backlog, len(pages))
	start := time.Now()
	if err := b.setActive(ctx, rec, true); err != nil {
		return err
	}
	deadline := start.Add(5 * time.Minute)
	for time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		if r.distinct() >= backlog {
			break
		}
	}
	n, last := r.received()
	secs := last.Sub(start).Seconds()
	fmt.Printf("webhook catch-up (payloadMode %d): %d deliveries (%d again) of %d events in %.2f s: %.0f events/s\n",
		cfg.payload, n, r.repeated(), backlog, secs, float64(n)/secs)
	return nil
}

// countAfter counts the feed's events after cursor.
func countAfter(ctx context.Context, b *bench, cursor string) int {
	n := 0
	for {
		p, err := b.readPage(ctx, cursor, 1000, 0)
		if err != nil {
			fmt.Println("counting the backlog:", err)
			return n
		}
		n += len(p.Value)
		cursor = p.Cursor
		if !p.HasMore {
			return n
		}
	}
}

// steadyRun writes for cfg.duration while a subscription delivers to the
// receiver and cfg.readers follow the feed with long polls, and reports
// for the part after cfg.settle: the writes, the events appended and
// delivered a second, and each event's delay to the readers and to the
// receiver.
func (b *bench) steadyRun(ctx context.Context, cfg runConfig) error {
	r, end, rec, err := b.hooked(ctx, cfg.payload)
	if err != nil {
		return err
	}
	defer b.unsubscribe(ctx, rec)
	start := time.Now()
	from, to := start.Add(cfg.settle), start.Add(cfg.duration)
	r.mu.Lock()
	r.from = from
	r.mu.Unlock()
	rctx, stopReaders := context.WithCancel(ctx)
	defer stopReaders()
	followers := make([]*seen, cfg.readers)
	for i := range followers {
		followers[i] = b.follow(rctx, end, from)
	}
	wctx, stop := context.WithDeadline(ctx, to)
	w := b.write(wctx, cfg.conns, cfg.rate)
	time.Sleep(cfg.settle)
	ok0 := w.ok.Load()
	<-wctx.Done()
	stop()
	secs := to.Sub(from).Seconds()
	ok := w.ok.Load() - ok0
	time.Sleep(2 * time.Second) // the readers and the receiver catch up with the last writes
	stopReaders()
	appended := countAfter(ctx, b, end)
	fmt.Printf("writes: %.0f 2xx/s over %.0f s (%d refused, %d failed in all); %d events appended in all\n",
		float64(ok)/secs, secs, w.refused.Load(), w.failed.Load(), appended)
	delivered, _ := r.received()
	fmt.Printf("webhook: %.0f events/s delivered over the same %.0f s; %d deliveries (%d again) in all, 2 s after the writes\n",
		float64(r.between(from, to))/secs, secs, delivered, r.repeated())
	fmt.Printf("webhook, event time to delivery: %s\n", quantiles(r.delays))
	for i, s := range followers {
		s.mu.Lock()
		fmt.Printf("reader %d, event time to reader: %s\n", i+1, quantiles(s.delays))
		var fromAnswer []time.Duration
		w.mu.Lock()
		for id, at := range s.arrived {
			if ans, ok := w.answered[id]; ok {
				fromAnswer = append(fromAnswer, at.Sub(ans))
			}
		}
		w.mu.Unlock()
		fmt.Printf("reader %d, writer's 2xx to reader: %s\n", i+1, quantiles(fromAnswer))
		s.mu.Unlock()
	}
	return nil
}

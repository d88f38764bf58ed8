package service

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/webhook"
)

// webhookRun is one instance's work on one subscription whose lease it
// holds: the subscription as claimed, the progress not yet written, and
// when it was last written.
type webhookRun struct {
	s        *Service
	job      stockroom.WebhookJob
	prog     stockroom.WebhookProgress
	unsaved  int
	lastSave time.Time
}

// errRunEnded ends a run with nothing more to write: its lease passed to
// another instance, its subscription was disabled or deleted meanwhile, or
// an attempt failed (and was written).
var errRunEnded = errors.New("lease lost")

// peeked is the read of the feed that found a subscription's next events
// before it was claimed: after its position then.
type peeked struct {
	after stockroom.EventCursor
	read  stockroom.EventRead
}

// serveWebhook claims a subscription and delivers its events in feed order
// until none is left, one fails, or the lease is lost. If ctx ends it
// returns at once and writes nothing more: its lease then expires. The
// first page is the one peeked, when the subscription's position is still
// where it was peeked at: the feed is read once per page.
func (s *Service) serveWebhook(ctx context.Context, p *stockroom.Principal, id int64, first peeked) error {
	w := s.webhooks
	now := s.now()
	job, ok, err := s.db.ClaimWebhook(ctx, id, w.owner, now, now.Add(w.opts.Lease))
	if err != nil || !ok {
		return err
	}
	r := &webhookRun{s: s, job: job, lastSave: time.Now(), prog: stockroom.WebhookProgress{
		Cursor: job.Cursor, LastSuccess: job.LastSuccess, FailureCount: job.FailureCount,
		FirstFailure: job.FirstFailure, LastFailure: job.LastFailure, LastError: job.LastError}}
	if first.after != job.Cursor {
		first.read.Events = nil // another instance moved it meanwhile
	}
	err = r.deliver(ctx, p, first.read.Events)
	switch {
	case ctx.Err() != nil, errors.Is(err, errRunEnded):
		return nil
	case err != nil:
		return err
	}
	r.prog.Release = true
	_, _, err = r.save(ctx)
	return err
}

// deliver sends the subscription's events after its position, a page of
// the feed at a time, until none is left or one fails; the first page is
// first, when given. Each page's client is looked at after the page is
// read and before any of it is sent: once the client is disabled or has
// lost permission 370 (Webhook Administration), no page read after that is
// sent, and the run stops with its position written; when its scope
// changed, the page is read again as it now sees the feed.
func (r *webhookRun) deliver(ctx context.Context, p *stockroom.Principal, first []stockroom.Event) error {
	f := webhookFilter(p, r.job)
	for {
		read, err := stockroom.EventRead{Events: first}, error(nil)
		if first == nil {
			read, err = r.s.db.ReadEvents(ctx, f)
		}
		first = nil
		if errors.Is(err, stockroom.ErrCursorExpired) {
			// The events after the position were pruned (retention):
			// what is kept is all that can be sent.
			f.After = stockroom.EventCursor{}
			continue
		}
		if err != nil {
			return err
		}
		events := read.Events[:min(len(read.Events), f.Limit)]
		if len(events) == 0 {
			r.s.webhooks.stats.setLag(r.job.Rec, 0)
			return nil
		}
		now, err := r.s.webhookPrincipal(ctx, r.job.ClientID)
		if err != nil || now == nil {
			return err
		}
		if now != p {
			// The client was read again (a change, or its cache entry's
			// age): the page stands unless what it sees changed.
			seen := webhookFilter(now, r.job)
			seen.After, p = f.After, now
			if !seen.SeesAs(f) {
				f = seen
				continue
			}
		}
		r.s.webhooks.stats.setLag(r.job.Rec, r.s.now().Sub(events[0].Time))
		for _, e := range events {
			// What the subscriber's client would see of it by the feed.
			if err := eventSeen(p, &e); err != nil {
				return err
			}
			ok, err := r.one(ctx, e)
			if err != nil || !ok {
				return err
			}
		}
		f.After = eventCursor(events[len(events)-1])
	}
}

// one delivers one event and records the outcome: on success the position
// moves past it, written now and then; a failure is written at once, with
// the next attempt's time, and ends the run (ok false).
func (r *webhookRun) one(ctx context.Context, e stockroom.Event) (ok bool, err error) {
	w := r.s.webhooks
	d, err := w.attempt(ctx, r.job, e, r.prog.FailureCount+1)
	if err != nil || ctx.Err() != nil {
		return false, err
	}
	now := r.s.now()
	r.prog.Deliveries = append(r.prog.Deliveries, d)
	if !d.Success {
		r.fail(now, d.Error)
		_, _, err := r.save(ctx)
		if err == nil {
			err = errRunEnded // nothing more to do: the run ends
		}
		return false, err
	}
	r.prog.Cursor, r.prog.LastSuccess = eventCursor(e), &now
	r.prog.FailureCount, r.prog.FirstFailure, r.prog.NextAttempt = 0, nil, time.Time{}
	r.unsaved++
	if r.unsaved < webhookSaveEvery && time.Since(r.lastSave) < webhookSaveAfter {
		return true, nil
	}
	held, active, err := r.save(ctx)
	if err == nil && (!held || !active) {
		err = errRunEnded
	}
	return err == nil, err
}

// fail records a failed attempt at now: one more failure in a row, the
// next attempt by the schedule, and whether the rule disables it.
func (r *webhookRun) fail(now time.Time, msg string) {
	p := &r.prog
	p.FailureCount++
	if p.FirstFailure == nil {
		p.FirstFailure = &now
	}
	p.LastFailure, p.LastError = &now, msg
	p.NextAttempt = now.Add(r.s.webhooks.retryDelay(p.FailureCount, r.job.Rec))
	p.Disable = webhook.ShouldDisable(p.FailureCount, *p.FirstFailure, now)
	p.Release = true
}

// save writes the run's progress and renews (or releases) its lease.
func (r *webhookRun) save(ctx context.Context) (held, active bool, err error) {
	r.prog.LeaseUntil = r.s.now().Add(r.s.webhooks.opts.Lease)
	held, active, err = r.s.db.SaveWebhookProgress(ctx, r.job.Rec, r.s.webhooks.owner, r.prog)
	r.prog.Deliveries, r.unsaved, r.lastSave = nil, 0, time.Now()
	return held, active, err
}

// webhookStats are this instance's figures of deliveries, for metrics.
type webhookStats struct {
	mu        sync.Mutex
	succeeded int64
	failed    int64
	looks     int64
	lag       map[int64]time.Duration
}

func newWebhookStats() webhookStats { return webhookStats{lag: map[int64]time.Duration{}} }

func (st *webhookStats) count(ok bool) {
	st.mu.Lock()
	if ok {
		st.succeeded++
	} else {
		st.failed++
	}
	st.mu.Unlock()
}

func (st *webhookStats) look() {
	st.mu.Lock()
	st.looks++
	st.mu.Unlock()
}

func (st *webhookStats) setLag(id int64, d time.Duration) {
	st.mu.Lock()
	st.lag[id] = max(d, 0)
	st.mu.Unlock()
}

// WebhookStats are the delivery figures of this instance: attempts by
// outcome, and per subscription it served, how far its deliveries lag
// behind the feed (now − the time of the oldest event not delivered, when
// last looked at; 0 when caught up); and how many looks for subscriptions
// due deliveries the worker made.
type WebhookStats struct {
	Succeeded, Failed, Looks int64
	Lag                      map[int64]time.Duration
}

// WebhookStats returns this instance's delivery figures.
func (s *Service) WebhookStats() WebhookStats {
	st := &s.webhooks.stats
	st.mu.Lock()
	defer st.mu.Unlock()
	lag := make(map[int64]time.Duration, len(st.lag))
	for id, d := range st.lag {
		lag[id] = d
	}
	return WebhookStats{Succeeded: st.succeeded, Failed: st.failed, Looks: st.looks, Lag: lag}
}

// eventCursor is the feed position just after event e (its id).
func eventCursor(e stockroom.Event) stockroom.EventCursor {
	var v stockroom.Validation
	return stockroom.ParseEventCursor(e.ID, "id", &v)
}

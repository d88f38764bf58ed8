package service

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/stockroom/stockroom"
)

// eventStore reads the change feed and says when to read it again.
type eventStore interface {
	ReadEvents(ctx context.Context, f stockroom.EventFilter) (stockroom.EventRead, error)
	// EventsChanged returns a channel closed when events may have been
	// appended since it was asked for.
	EventsChanged() <-chan struct{}
	PruneEvents(ctx context.Context, cutoff time.Time, batch int) (int, error)
	// EventHead is the feed's position now.
	EventHead(ctx context.Context) (stockroom.EventCursor, error)
}

// EventHead returns the cursor of the feed as it stands (permission 11): a
// reader starting from it meets every change committed from now on, the
// console's way to follow changes from the moment a screen opens without
// reading the feed's past.
func (s *Service) EventHead(ctx context.Context, p *stockroom.Principal) (stockroom.EventCursor, error) {
	req := Request[struct{}]{}
	if err := s.admit(p, stockroom.PermItemRead, false, &req); err != nil {
		return stockroom.EventCursor{}, err
	}
	return s.db.EventHead(ctx)
}

// pruneBatch is how many events one transaction of a prune deletes.
const pruneBatch = 1000

// PruneEvents deletes the events older than retention, a bounded batch
// per transaction, and returns how many it deleted.
func (s *Service) PruneEvents(ctx context.Context, retention time.Duration) (int, error) {
	return s.db.PruneEvents(ctx, s.now().Add(-retention), pruneBatch)
}

// EventQuery is a read of the change feed as the HTTP layer read it.
type EventQuery struct {
	After stockroom.EventCursor
	Limit int
	Types []stockroom.EventType
	// Wait is how long to wait for an event when none is readable now.
	Wait time.Duration
}

// How often a waiting reader looks again without being woken: soon when
// events of committed transactions wait behind the horizon (an older
// transaction still running may end appending nothing, which notifies
// nobody), and now and then in any case (a notification lost while the
// listening connection reconnected).
const (
	eventBehindRecheck = 20 * time.Millisecond
	eventRecheck       = time.Second
	// eventWaitMargin is left of the request's time to answer in.
	eventWaitMargin = 500 * time.Millisecond
)

// eventWaiters counts the readers of the feed waiting now.
var eventWaiters atomic.Int64

// EventReadersWaiting is how many readers of the feed wait for an event
// now, in this process.
func EventReadersWaiting() int64 { return eventWaiters.Load() }

// ListEvents returns the events after the cursor that the client sees
// (permission 11), oldest first. With a wait and nothing new, it waits for
// the next event the client sees, holding no database connection, until
// the wait (or the request's time) ends.
func (s *Service) ListEvents(ctx context.Context, p *stockroom.Principal, req Request[EventQuery]) (stockroom.EventPage, error) {
	if err := s.admit(p, stockroom.PermItemRead, false, &req); err != nil {
		return stockroom.EventPage{}, err
	}
	if err := req.problems(); err != nil {
		return stockroom.EventPage{}, err
	}
	q := req.In
	f := stockroom.EventFilter{After: q.After, Limit: q.Limit, Types: q.Types}
	eventScope(p, &f)
	end := time.Now().Add(q.Wait)
	if d, ok := ctx.Deadline(); ok && d.Add(-eventWaitMargin).Before(end) {
		end = d.Add(-eventWaitMargin)
	}
	for {
		changed := s.db.EventsChanged() // before the read: no wake-up is missed
		read, err := s.db.ReadEvents(ctx, f)
		if err != nil {
			return stockroom.EventPage{}, err
		}
		left := time.Until(end)
		if len(read.Events) > 0 || left <= 0 {
			return eventPage(p, q, read)
		}
		recheck := eventRecheck
		if read.Behind {
			recheck = eventBehindRecheck
		}
		if err := waitForEvents(ctx, changed, min(left, recheck)); err != nil {
			return stockroom.EventPage{}, err
		}
	}
}

// waitForEvents waits for changed, at most d, holding nothing, counted
// among the readers waiting.
func waitForEvents(ctx context.Context, changed <-chan struct{}, d time.Duration) error {
	eventWaiters.Add(1)
	defer eventWaiters.Add(-1)
	return waitFor(ctx, changed, d)
}

// waitFor waits until changed is closed (never, when it is nil), d has
// passed (at once when d <= 0) or ctx ends, and returns ctx's error then.
func waitFor(ctx context.Context, changed <-chan struct{}, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-changed:
	case <-t.C:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// eventPage is the answer of a read: at most the limit's events, the
// cursor after the last (or the one asked with, when there is none), and
// whether more are readable. Each event is as the client sees it
// (eventSeen).
func eventPage(p *stockroom.Principal, q EventQuery, read stockroom.EventRead) (stockroom.EventPage, error) {
	page := stockroom.EventPage{Value: read.Events, Cursor: q.After.String()}
	if len(page.Value) > q.Limit {
		page.Value, page.HasMore = page.Value[:q.Limit], true
	}
	if page.Value == nil {
		page.Value = []stockroom.Event{}
	}
	for i := range page.Value {
		if err := eventSeen(p, &page.Value[i]); err != nil {
			return page, err
		}
	}
	if n := len(page.Value); n > 0 {
		page.Cursor = page.Value[n-1].ID
	}
	return page, nil
}

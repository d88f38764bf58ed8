package service

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/webhook"
)

// The delivery worker (contract §12). Its state is in the database, never
// in an instance: each subscription keeps the feed position of the last
// event delivered, its failures in a row and when to try again, and a lease.
// A worker looks for subscriptions due an attempt, peeks at the feed after
// each one's position (through the client's own scope and the
// subscription's types, the read of GET /Events), and claims those with
// something to send (store.ClaimWebhook: one instance wins). It then
// delivers in feed order, one event at a time, and writes its progress
// every webhookSaveEvery events or webhookSaveAfter, renewing its lease; an
// instance killed in between re-sends at most those events, which
// at-least-once allows. A failure stops the subscription until its next
// attempt (webhook.NextAttempt), and may disable it (webhook.ShouldDisable).
// The worker wakes when events commit (EventsChanged: this instance's, and
// on PostgreSQL every instance's), and polls for retries that come due.

// webhookWorkStore is what the worker keeps in the database.
type webhookWorkStore interface {
	DueWebhooks(ctx context.Context, now time.Time) ([]stockroom.WebhookJob, error)
	ClaimWebhook(ctx context.Context, id int64, owner string, now, until time.Time) (stockroom.WebhookJob, bool, error)
	SaveWebhookProgress(ctx context.Context, id int64, owner string, p stockroom.WebhookProgress) (held, active bool, err error)
	PruneWebhookDeliveries(ctx context.Context, cutoff time.Time, batch int) (int, error)
}

// WebhookOptions configure deliveries.
type WebhookOptions struct {
	// AllowPrivate lets subscriptions name http:// URLs and private,
	// loopback and link-local hosts (--webhook-allow-private).
	AllowPrivate bool
	// RetryBase is the wait after a first failure, which the schedule of
	// webhook.RetryDelay scales from; webhook.FirstRetryDelay when zero.
	// Tests shorten it.
	RetryBase time.Duration
	// Lease is how long a claim of a subscription lasts unrenewed: how
	// soon another instance resumes the deliveries of one that died.
	// 30 s when zero.
	Lease time.Duration
	// Poll is how often the worker looks for due retries without being
	// woken; 1 s when zero.
	Poll time.Duration
	// Timeout replaces webhook.DefaultTimeout when positive.
	Timeout time.Duration
	// Gap is the least time between two looks for due subscriptions,
	// which commits wake: under a stream of writes one look serves the
	// commits of a gap, not each (a look reads every due subscription and
	// peeks at its feed). 10 ms when zero.
	Gap time.Duration
}

// The worker's constants.
const (
	defaultWebhookLease = 30 * time.Second
	defaultWebhookPoll  = time.Second
	defaultWebhookGap   = 10 * time.Millisecond
	// webhookBatch is how many events one read of the feed takes.
	webhookBatch = 100
	// webhookSaveEvery and webhookSaveAfter bound the events delivered
	// but not yet recorded: what an instance killed mid-delivery re-sends.
	webhookSaveEvery = 100
	webhookSaveAfter = 100 * time.Millisecond
	// webhookWorkers is how many subscriptions one instance delivers to
	// at once.
	webhookWorkers = 16
	// webhookBehindRecheck: see eventBehindRecheck.
	webhookBehindRecheck = 20 * time.Millisecond
	// webhookClientTTL is how long the worker trusts a client's scope.
	webhookClientTTL = 5 * time.Second
)

// webhooks is the Service's delivery machinery.
type webhooks struct {
	opts   WebhookOptions
	sender *webhook.Sender
	// owner names this instance in the leases it takes.
	owner string
	slots *semaphore.Weighted
	busy  sync.Map // subscription id -> struct{}: being served here
	// running are the deliveries under way, which RunWebhooks waits for
	// before it returns (the database closes after it).
	running sync.WaitGroup
	stats   webhookStats

	mu      sync.Mutex
	clients map[string]webhookClient
	// forgets counts forget's calls: a client read before one is not kept
	// (it may be the client as it was before the change).
	forgets uint64
}

type webhookClient struct {
	p  *stockroom.Principal
	at time.Time
}

func newWebhooks(opts WebhookOptions) *webhooks {
	if opts.Lease <= 0 {
		opts.Lease = defaultWebhookLease
	}
	if opts.Poll <= 0 {
		opts.Poll = defaultWebhookPoll
	}
	if opts.Gap <= 0 {
		opts.Gap = defaultWebhookGap
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return &webhooks{opts: opts, owner: hex.EncodeToString(b), slots: semaphore.NewWeighted(webhookWorkers),
		sender:  webhook.NewSender(webhook.Options{AllowPrivate: opts.AllowPrivate, Timeout: opts.Timeout}),
		clients: map[string]webhookClient{}, stats: newWebhookStats()}
}

// retryDelay is the wait after the failures-th failure in a row: the
// schedule of webhook.RetryDelay, scaled to RetryBase.
func (w *webhooks) retryDelay(failures int, id int64) time.Duration {
	d := webhook.RetryDelay(failures, uint64(id))
	if w.opts.RetryBase > 0 {
		d = time.Duration(float64(d) * float64(w.opts.RetryBase) / float64(webhook.FirstRetryDelay))
	}
	return d
}

// RunWebhooks delivers the events of every subscription, with the other
// instances on the same database, until ctx ends. An ended ctx stops it as
// a kill would: a delivery in flight is abandoned unrecorded and the leases
// it holds expire, whereupon another instance resumes from the last
// position written.
func (s *Service) RunWebhooks(ctx context.Context, logger *slog.Logger) {
	defer s.webhooks.running.Wait()
	prune := time.Now()
	var last time.Time
	for ctx.Err() == nil {
		if waitFor(ctx, nil, s.webhooks.opts.Gap-time.Since(last)) != nil {
			return
		}
		last = time.Now()
		changed := s.db.EventsChanged() // before the look: no wake-up is missed
		s.webhooks.stats.look()
		behind, err := s.webhookPass(ctx, logger)
		if err != nil && ctx.Err() == nil {
			logger.Warn("webhook deliveries", "error", err.Error())
		}
		if time.Since(prune) > 10*time.Minute {
			prune = time.Now()
			if _, err := s.db.PruneWebhookDeliveries(ctx, s.now().Add(-stockroom.WebhookLogRetention), pruneBatch); err != nil && ctx.Err() == nil {
				logger.Warn("pruning the webhook log", "error", err.Error())
			}
		}
		wait := s.webhooks.opts.Poll
		if behind {
			wait = webhookBehindRecheck
		}
		_ = waitFor(ctx, changed, wait) // an ended ctx ends the loop
	}
}

// webhookPass serves every subscription due now that is not served here
// already, each in a goroutine of its own while slots last. behind reports
// that some have events committed but not yet readable (PostgreSQL).
func (s *Service) webhookPass(ctx context.Context, logger *slog.Logger) (behind bool, err error) {
	jobs, err := s.db.DueWebhooks(ctx, s.now())
	if err != nil {
		return false, err
	}
	w := s.webhooks
	for _, job := range jobs {
		if _, busy := w.busy.Load(job.Rec); busy {
			continue
		}
		p, err := s.webhookPrincipal(ctx, job.ClientID)
		if err != nil || p == nil {
			continue // the client is gone or disabled: nothing is sent for it
		}
		f := webhookFilter(p, job)
		read, err := s.db.ReadEvents(ctx, f)
		if errors.Is(err, stockroom.ErrCursorExpired) {
			f.After = stockroom.EventCursor{}
			read, err = s.db.ReadEvents(ctx, f)
		}
		if err != nil {
			return behind, err
		}
		behind = behind || read.Behind
		if len(read.Events) == 0 {
			w.stats.setLag(job.Rec, 0)
			continue
		}
		if !w.slots.TryAcquire(1) {
			return behind, nil
		}
		w.busy.Store(job.Rec, struct{}{})
		w.running.Go(func() {
			defer w.slots.Release(1)
			defer w.busy.Delete(job.Rec)
			if err := s.serveWebhook(ctx, p, job.Rec, peeked{after: f.After, read: read}); err != nil && ctx.Err() == nil {
				logger.Warn("webhook deliveries", "webhook", job.Rec, "error", err.Error())
			}
		})
	}
	return behind, nil
}

// webhookFilter is the read of the feed a subscription's deliveries make:
// after its position, of its types, as its client sees the feed.
func webhookFilter(p *stockroom.Principal, job stockroom.WebhookJob) stockroom.EventFilter {
	f := stockroom.EventFilter{After: job.Cursor, Limit: webhookBatch, Types: stockroom.WebhookEventTypes(job.Events)}
	eventScope(p, &f)
	return f
}

// webhookPrincipal is the client a subscription delivers for, as its
// tokens would show it; nil when it is disabled, no longer exists or no
// longer holds permission 370 (Webhook Administration). Nothing is sent
// for such a client and its subscriptions keep their position and state:
// enabled again, or given 370 again, it is sent the events from the first
// not delivered, as after any pause (contract §12 names no disableType for
// a client's loss of rights, and its subscriptions are its own to keep).
// A change made by another process is seen within webhookClientTTL.
func (s *Service) webhookPrincipal(ctx context.Context, clientID string) (*stockroom.Principal, error) {
	w := s.webhooks
	w.mu.Lock()
	c, ok := w.clients[clientID]
	forgets := w.forgets
	w.mu.Unlock()
	if ok && time.Since(c.at) < webhookClientTTL {
		return c.p, nil
	}
	client, _, err := s.db.FindClient(ctx, clientID)
	switch {
	case errors.Is(err, stockroom.ErrNotFound):
	case err != nil:
		return nil, err
	case client.Enabled && client.Principal().Can(stockroom.PermWebhooks):
		c.p = client.Principal()
	}
	w.mu.Lock()
	if w.forgets == forgets {
		w.clients[clientID] = webhookClient{p: c.p, at: time.Now()}
	}
	w.mu.Unlock()
	return c.p, nil
}

// forget drops what the worker knows of a client, which has changed.
func (w *webhooks) forget(clientID string) {
	w.mu.Lock()
	delete(w.clients, clientID)
	w.forgets++
	w.mu.Unlock()
}

// attempt delivers one event to a subscription and reports the attempt as
// the log keeps it.
func (w *webhooks) attempt(ctx context.Context, job stockroom.WebhookJob, e stockroom.Event, n int) (stockroom.WebhookDelivery, error) {
	body, err := webhookBody(job.PayloadMode, e)
	if err != nil {
		return stockroom.WebhookDelivery{}, err
	}
	at := time.Now()
	res := w.sender.Deliver(ctx, webhook.Target{URL: job.URL, Secret: job.Secret},
		webhook.Payload{EventID: e.ID, EventType: string(e.Type), Body: body})
	w.stats.count(res.OK())
	return stockroom.WebhookDelivery{EventID: e.ID, Type: e.Type, Attempt: n, Time: at.UTC(), Success: res.OK(),
		Status: res.Status, Duration: res.Duration.Milliseconds(), Error: res.Err}, nil
}

// webhookBody is the body of a delivery of e in a payload mode.
func webhookBody(mode int, e stockroom.Event) ([]byte, error) {
	if mode == stockroom.PayloadSummary {
		return json.Marshal(stockroom.WebhookPayload{ID: e.ID, Seq: e.Seq, Type: e.Type, Time: e.Time, Subject: e.Subject})
	}
	return json.Marshal(e)
}

package service

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/webhook"
)

// Webhook subscriptions (contract §12), permission 370. A client sees and
// changes only its own: another client's subscription is not found, exactly
// like one that does not exist.

// webhookStore keeps subscriptions, their delivery state and their log.
type webhookStore interface {
	FindWebhook(ctx context.Context, clientID string, id int64) (stockroom.Webhook, error)
	ListWebhooks(ctx context.Context, clientID string, req stockroom.PageRequest) (stockroom.Page[stockroom.Webhook], error)
	CreateWebhook(ctx context.Context, key *stockroom.IdempotencyKey, clientID string, w *stockroom.Webhook) error
	UpdateWebhook(ctx context.Context, clientID string, id int64, fn func(*stockroom.Webhook) (bool, error)) (stockroom.Webhook, error)
	DeleteWebhook(ctx context.Context, clientID string, id int64) error
	FindWebhookJob(ctx context.Context, clientID string, id int64) (stockroom.WebhookJob, error)
	AddWebhookDelivery(ctx context.Context, id int64, d stockroom.WebhookDelivery) error
	ListWebhookDeliveries(ctx context.Context, id int64, since time.Time, req stockroom.PageRequest) (stockroom.Page[stockroom.WebhookDelivery], error)
	webhookWorkStore
}

// WebhookUpdate is a PUT /Webhook/{id}: the subscription the path names
// and the change its body makes.
type WebhookUpdate struct {
	Rec    int64
	Change stockroom.WebhookChange
}

// WebhookLogQuery is a GET /Webhook/{id}/log.
type WebhookLogQuery struct {
	Rec  int64
	Page stockroom.PageRequest
}

// ListWebhooks returns a page of the client's subscriptions.
func (s *Service) ListWebhooks(ctx context.Context, p *stockroom.Principal, req Request[stockroom.PageRequest]) (stockroom.Page[stockroom.Webhook], error) {
	if err := s.admitWebhooks(p, false, &req); err != nil {
		return stockroom.Page[stockroom.Webhook]{}, err
	}
	return s.db.ListWebhooks(ctx, p.ClientID, req.In)
}

// GetWebhook returns one of the client's subscriptions.
func (s *Service) GetWebhook(ctx context.Context, p *stockroom.Principal, req Request[int64]) (stockroom.Webhook, error) {
	if err := s.admitWebhooks(p, false, &req); err != nil {
		return stockroom.Webhook{}, err
	}
	w, err := s.db.FindWebhook(ctx, p.ClientID, req.In)
	return w, noWebhook(err, req.In)
}

// CreateWebhook validates and stores a new subscription of the client, with
// a fresh secret that the answer shows, this once. It delivers the events
// appended from now on.
func (s *Service) CreateWebhook(ctx context.Context, p *stockroom.Principal, req Request[stockroom.WebhookChange]) (stockroom.Webhook, error) {
	if err := s.admit(p, stockroom.PermWebhooks, true, &req); err != nil {
		return stockroom.Webhook{}, err
	}
	ch := req.In
	ch.Validate(&req.Problems, true)
	s.checkWebhookURL(ctx, &req.Problems, ch.URL)
	if err := req.Problems.Err(); err != nil {
		return stockroom.Webhook{}, err
	}
	now := s.now()
	w := stockroom.Webhook{Name: *ch.Name, URL: *ch.URL, Events: *ch.Events, PayloadMode: int(*ch.PayloadMode),
		Created: now, Modified: now, Secret: webhook.NewSecret()}
	if ch.Active != nil && !*ch.Active {
		w.DisableType = stockroom.WebhookDisabledByHand
	}
	w.Active = w.DisableType == stockroom.WebhookEnabled
	if err := s.db.CreateWebhook(ctx, req.Key, p.ClientID, &w); err != nil {
		return stockroom.Webhook{}, err
	}
	return w, nil
}

// UpdateWebhook applies a partial change to one of the client's
// subscriptions. rotateSecret gives it a new secret, shown in the answer
// this once; active true enables a disabled one again, with its failures
// forgotten, resuming from the first event not delivered; active false
// disables it by hand (disableType 2).
func (s *Service) UpdateWebhook(ctx context.Context, p *stockroom.Principal, req Request[WebhookUpdate]) (stockroom.Webhook, error) {
	if err := s.admit(p, stockroom.PermWebhooks, true, &req); err != nil {
		return stockroom.Webhook{}, err
	}
	ch := req.In.Change
	ch.Validate(&req.Problems, false)
	s.checkWebhookURL(ctx, &req.Problems, ch.URL)
	if err := req.problems(); err != nil {
		return stockroom.Webhook{}, err
	}
	if err := req.missing(); err != nil {
		return stockroom.Webhook{}, err
	}
	var secret string
	if ch.RotateSecret != nil && *ch.RotateSecret {
		secret = webhook.NewSecret()
	}
	w, err := s.db.UpdateWebhook(ctx, p.ClientID, req.In.Rec, func(w *stockroom.Webhook) (bool, error) {
		before := *w
		applyWebhookChange(w, ch)
		w.Secret = secret
		if *w == before {
			return false, nil
		}
		w.Modified = later(s.now(), w.Modified)
		return true, nil
	})
	return w, noWebhook(err, req.In.Rec)
}

// applyWebhookChange writes a change's fields onto w.
func applyWebhookChange(w *stockroom.Webhook, ch stockroom.WebhookChange) {
	set(&w.Name, ch.Name)
	set(&w.URL, ch.URL)
	set(&w.Events, ch.Events)
	if ch.PayloadMode != nil {
		w.PayloadMode = int(*ch.PayloadMode)
	}
	switch {
	case ch.Active == nil:
	case *ch.Active && w.DisableType != stockroom.WebhookEnabled:
		w.DisableType, w.FailureCount, w.FailureDays = stockroom.WebhookEnabled, 0, 0
	case !*ch.Active:
		w.DisableType = stockroom.WebhookDisabledByHand
	}
	w.Active = w.DisableType == stockroom.WebhookEnabled
}

// set writes *src onto *dst when src is given.
func set[T any](dst *T, src *T) {
	if src != nil {
		*dst = *src
	}
}

// DeleteWebhook deletes one of the client's subscriptions and its log.
func (s *Service) DeleteWebhook(ctx context.Context, p *stockroom.Principal, req Request[int64]) error {
	if err := s.admitWebhooks(p, true, &req); err != nil {
		return err
	}
	return noWebhook(s.db.DeleteWebhook(ctx, p.ClientID, req.In), req.In)
}

// TestWebhook sends a signed test payload (type webhook.test) to one of the
// client's subscriptions now, whether or not it is active, logs the
// attempt and answers with it. Its failure counts against nothing.
func (s *Service) TestWebhook(ctx context.Context, p *stockroom.Principal, req Request[int64]) (stockroom.WebhookDelivery, error) {
	if err := s.admitWebhooks(p, true, &req); err != nil {
		return stockroom.WebhookDelivery{}, err
	}
	job, err := s.db.FindWebhookJob(ctx, p.ClientID, req.In)
	if err != nil {
		return stockroom.WebhookDelivery{}, noWebhook(err, req.In)
	}
	now := s.now()
	e := stockroom.Event{ID: "test_" + strconv.FormatInt(now.UnixNano(), 36), Type: stockroom.EventWebhookTest, Time: now,
		ClientID: p.ClientID, Subject: stockroom.EventSubject{Kind: "webhook", ID: strconv.FormatInt(job.Rec, 10)}}
	shown := job.Webhook
	shown.Secret = ""
	if e.Data, err = json.Marshal(shown); err != nil {
		return stockroom.WebhookDelivery{}, err
	}
	d, err := s.webhooks.attempt(ctx, job, e, 1)
	if err != nil {
		return stockroom.WebhookDelivery{}, err
	}
	return d, s.db.AddWebhookDelivery(ctx, job.Rec, d)
}

// WebhookLog returns a page of the attempts of the last 7 days of one of
// the client's subscriptions, newest first.
func (s *Service) WebhookLog(ctx context.Context, p *stockroom.Principal, req Request[WebhookLogQuery]) (stockroom.Page[stockroom.WebhookDelivery], error) {
	if err := s.admitWebhooks(p, false, &req); err != nil {
		return stockroom.Page[stockroom.WebhookDelivery]{}, err
	}
	if _, err := s.db.FindWebhook(ctx, p.ClientID, req.In.Rec); err != nil {
		return stockroom.Page[stockroom.WebhookDelivery]{}, noWebhook(err, req.In.Rec)
	}
	return s.db.ListWebhookDeliveries(ctx, req.In.Rec, s.now().Add(-stockroom.WebhookLogRetention), req.In.Page)
}

// admitWebhooks admits a request of permission 370 with no body to
// validate: its query's problems, then a path that names nothing.
func (s *Service) admitWebhooks(p *stockroom.Principal, write bool, req reading) error {
	if err := s.admit(p, stockroom.PermWebhooks, write, req); err != nil {
		return err
	}
	if err := req.problems(); err != nil {
		return err
	}
	return req.missing()
}

// checkWebhookURL adds the address guard's refusal of a subscription's url
// to v: https to a host that resolves to public addresses only, unless the
// server allows private ones (--webhook-allow-private).
func (s *Service) checkWebhookURL(ctx context.Context, v *stockroom.Validation, url *string) {
	if url == nil || v.Has("url") {
		return
	}
	if err := webhook.CheckResolved(ctx, *url, s.webhooks.opts.AllowPrivate); err != nil {
		v.Add("url", err.Error())
	}
}

// noWebhook names the missing subscription of a lookup that found none.
func noWebhook(err error, id int64) error {
	if errors.Is(err, stockroom.ErrNotFound) {
		return stockroom.Errorf(stockroom.ENOTFOUND, "No webhook %d.", id)
	}
	return err
}

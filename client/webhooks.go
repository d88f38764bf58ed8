package client

import (
	"context"
	"iter"
	"strconv"

	"github.com/stockroom/stockroom"
)

// Webhook subscriptions (permission 370): each client sees and changes only
// its own. A receiver checks each delivery with VerifyWebhook.
type (
	// Webhook is a subscription; Secret is set only in the answers of
	// CreateWebhook and of UpdateWebhook with RotateSecret.
	Webhook = stockroom.Webhook
	// WebhookInput creates a subscription (Name, URL, Events, PayloadMode
	// required) or changes the fields it sets.
	WebhookInput = stockroom.WebhookChange
	// WebhookDelivery is one delivery attempt, as the log keeps it.
	WebhookDelivery = stockroom.WebhookDelivery
)

// webhookPath is the path of a subscription, with what follows it.
func webhookPath(rec int64, rest string) string {
	return "Webhook/" + strconv.FormatInt(rec, 10) + rest
}

// ListWebhooks returns one page of the client's subscriptions.
func (c *Client) ListWebhooks(ctx context.Context, opts ListOptions) (*Page[Webhook], error) {
	return getPage[Webhook](ctx, c, "Webhook", opts.values())
}

// Webhooks yields every subscription of the client.
func (c *Client) Webhooks(ctx context.Context) iter.Seq2[Webhook, error] {
	return Walk(ctx, ListOptions{}, c.ListWebhooks)
}

// GetWebhook returns one of the client's subscriptions; another client's is
// an *Error with code "not_found", as a missing one.
func (c *Client) GetWebhook(ctx context.Context, rec int64) (*Webhook, error) {
	return webhookCall(ctx, c, call{method: "GET", path: webhookPath(rec, "")})
}

// CreateWebhook subscribes to events. The answer's Secret is shown this
// once: keep it to verify deliveries.
func (c *Client) CreateWebhook(ctx context.Context, in WebhookInput) (*Webhook, error) {
	return webhookCall(ctx, c, call{method: "POST", path: "Webhook", body: in})
}

// UpdateWebhook changes the fields in sets. Active true enables a disabled
// subscription again, resuming from the first event not delivered;
// RotateSecret true answers with a new Secret.
func (c *Client) UpdateWebhook(ctx context.Context, rec int64, in WebhookInput) (*Webhook, error) {
	return webhookCall(ctx, c, call{method: "PUT", path: webhookPath(rec, ""), body: in})
}

// DeleteWebhook deletes a subscription and its log.
func (c *Client) DeleteWebhook(ctx context.Context, rec int64) error {
	_, err := c.do(ctx, call{method: "DELETE", path: webhookPath(rec, "")}, nil)
	return err
}

// TestWebhook has the server send a signed test payload (type
// webhook.test) to the subscription now, and returns the attempt: a
// receiver's refusal is Success false, not an error.
func (c *Client) TestWebhook(ctx context.Context, rec int64) (*WebhookDelivery, error) {
	var d WebhookDelivery
	if _, err := c.do(ctx, call{method: "POST", path: webhookPath(rec, "/test")}, &d); err != nil {
		return nil, err
	}
	return &d, nil
}

// WebhookLog returns one page of a subscription's delivery attempts of the
// last 7 days, newest first.
func (c *Client) WebhookLog(ctx context.Context, rec int64, opts ListOptions) (*Page[WebhookDelivery], error) {
	return getPage[WebhookDelivery](ctx, c, webhookPath(rec, "/log"), opts.values())
}

// webhookCall runs a call answered with a subscription.
func webhookCall(ctx context.Context, c *Client, cl call) (*Webhook, error) {
	var w Webhook
	if _, err := c.do(ctx, cl, &w); err != nil {
		return nil, err
	}
	return &w, nil
}

package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/stockroom/stockroom"
)

// The limits of one delivery (contract §12).
const (
	// DefaultTimeout is how long a receiver has to answer, from the first
	// byte sent to the last byte of the answer read.
	DefaultTimeout = 10 * time.Second
	// MaxResponseBytes is how much of an answer's body is read. The body is
	// only discarded; reading a small one to its end lets the connection
	// serve the next delivery, and the cap keeps a receiver that streams
	// from holding a delivery worker.
	MaxResponseBytes = 64 << 10
	// maxErrorText bounds Result.Err, which the delivery log keeps.
	maxErrorText = 200
)

// UserAgent is the User-Agent of every delivery, for receivers' logs and
// firewalls.
const UserAgent = "Stockroom-Webhook/1"

// Options configure a Sender.
type Options struct {
	// AllowPrivate lifts the address guard and allows http:// URLs: the
	// server's --webhook-allow-private, for on-premises receivers and tests.
	AllowPrivate bool
	// Timeout replaces DefaultTimeout when positive (tests).
	Timeout time.Duration
	// Now replaces time.Now as the clock deliveries are signed with (tests).
	Now func() time.Time
}

// A Sender makes deliveries. It is safe for concurrent use, and one Sender
// for the whole server lets deliveries to the same receiver share
// connections.
type Sender struct {
	client       *http.Client
	allowPrivate bool
	timeout      time.Duration
	now          func() time.Time
}

// NewSender returns a Sender with the guarded client of NewClient.
func NewSender(opts Options) *Sender {
	s := &Sender{client: NewClient(opts.AllowPrivate), allowPrivate: opts.AllowPrivate, timeout: DefaultTimeout, now: time.Now}
	if opts.Timeout > 0 {
		s.timeout = opts.Timeout
	}
	if opts.Now != nil {
		s.now = opts.Now
	}
	return s
}

// A Target is where a subscription's deliveries go and the secret they are
// signed with.
type Target struct {
	URL    string
	Secret string
}

// A Payload is one event as delivered: its id and type, sent as headers so
// that a receiver can route or deduplicate before parsing, and the JSON body
// in the subscription's payloadMode.
type Payload struct {
	EventID   string
	EventType string
	Body      []byte
}

// A Result is the outcome of one delivery attempt, as the delivery log keeps
// it.
type Result struct {
	// Status is the receiver's HTTP status, 0 when it gave none.
	Status int
	// Duration is from sending the request to the end of reading the answer.
	Duration time.Duration
	// Err says why the attempt failed, empty when it succeeded. It is short
	// and names neither the URL (which may carry credentials) nor the secret.
	Err string
}

// OK reports whether the attempt succeeded: a 2xx within the timeout.
func (r Result) OK() bool { return r.Err == "" && r.Status/100 == 2 }

// Deliver POSTs the payload to the target once, signed, and reports the
// outcome; retrying is the caller's. A redirect is not followed and counts as
// a failure, like any status but 2xx. If ctx ends first the attempt fails
// with "delivery canceled", which the caller may choose not to count against
// the subscription.
func (s *Sender) Deliver(ctx context.Context, target Target, payload Payload) Result {
	if err := CheckURL(target.URL, s.allowPrivate); err != nil {
		return Result{Err: shorten(err.Error())}
	}
	deadline, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	start := time.Now()
	status, err := s.post(deadline, target, payload)
	res := Result{Status: status, Duration: time.Since(start)}
	switch {
	case err != nil:
		res.Err = s.describe(ctx, deadline, err)
	case status/100 == 3:
		res.Err = fmt.Sprintf("HTTP %d: redirects are not followed", status)
	case status/100 != 2:
		res.Err = fmt.Sprintf("HTTP %d", status)
	}
	return res
}

// post sends the request and reads the answer's body up to the cap. A status
// that arrived counts even if reading the body then fails.
func (s *Sender) post(ctx context.Context, target Target, payload Payload) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target.URL, bytes.NewReader(payload.Body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Stockroom-Event-Id", payload.EventID)
	req.Header.Set("Stockroom-Event-Type", payload.EventType)
	req.Header.Set(stockroom.WebhookSignatureHeader, stockroom.SignWebhook(target.Secret, s.now(), payload.Body))
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, err
	}
	// Closing a body read to its end keeps the connection; closing one cut
	// short by the cap closes it, which is the price of a large answer.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, MaxResponseBytes))
	resp.Body.Close()
	return resp.StatusCode, nil
}

// describe turns a transport error into the log's short text: without the
// *url.Error's method and URL, and a timeout (the deadline ended, whatever
// the layer that noticed it said) or a cancellation (the caller's ctx ended)
// said plainly.
func (s *Sender) describe(ctx, deadline context.Context, err error) string {
	switch {
	case ctx.Err() != nil:
		return "delivery canceled"
	case deadline.Err() != nil:
		return fmt.Sprintf("no answer within %s", s.timeout)
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err
	}
	return shorten(err.Error())
}

// shorten cuts text to maxErrorText bytes, on a rune boundary.
func shorten(text string) string {
	if len(text) <= maxErrorText {
		return text
	}
	cut := maxErrorText
	for cut > 0 && text[cut]&0xC0 == 0x80 {
		cut--
	}
	return text[:cut] + "…"
}

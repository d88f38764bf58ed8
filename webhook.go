package stockroom

import (
	"slices"
	"strings"
	"time"
)

// Webhook subscriptions (contract §12): a client's standing order to have
// the events it may see POSTed to a URL, signed, in feed order, at least
// once. The fields are the original product's.

// The payload modes of a subscription: what a delivery's body holds.
const (
	// PayloadEvent is the whole event, as GET /Events shows it.
	PayloadEvent = 1
	// PayloadSummary is {id, seq, type, time, subject} only: a receiver
	// that fetches the resource itself needs no more.
	PayloadSummary = 2
)

// The disable types of a subscription: whether, and why, it delivers nothing.
const (
	WebhookEnabled            = 0
	WebhookDisabledByFailures = 1
	WebhookDisabledByHand     = 2
)

// Limits of a subscription's fields.
const (
	MaxWebhookNameLen = 100
	MaxWebhookURLLen  = 2048
	// WebhookAllEvents in events subscribes to every type, present and
	// future.
	WebhookAllEvents = "*"
	// WebhookLogRetention is how long the delivery log keeps an attempt.
	WebhookLogRetention = 7 * 24 * time.Hour
	// EventWebhookTest is the type of the payload POST /Webhook/{id}/test
	// sends; it never appears in the feed.
	EventWebhookTest EventType = "webhook.test"
)

// Webhook is a subscription as the API shows it. Secret is set only in the
// answers of POST /Webhook and of PUT with rotateSecret, once.
type Webhook struct {
	Rec         int64  `json:"rec"`
	Name        string `json:"name"`
	URL         string `json:"url"`
	Events      string `json:"events"`
	PayloadMode int    `json:"payloadMode"`
	Active      bool   `json:"active"`
	DisableType int    `json:"disableType"`
	// FailureCount is how many attempts in a row have failed (0 after a
	// success); FailureDays how many whole days from the first of them to
	// the last.
	FailureCount int        `json:"failureCount"`
	FailureDays  int        `json:"failureDays"`
	LastSuccess  *time.Time `json:"lastSuccess"`
	LastFailure  *time.Time `json:"lastFailure"`
	LastError    string     `json:"lastError"`
	Created      time.Time  `json:"created"`
	Modified     time.Time  `json:"modified"`
	Secret       string     `json:"secret,omitempty"`
}

// WebhookChange is the body of POST /Webhook and PUT /Webhook/{id} (a
// partial update: what is absent stays).
type WebhookChange struct {
	// The fields the server writes: neither read nor unknown.
	_           struct{} `readonly:"rec,disableType,failureCount,failureDays,lastSuccess,lastFailure,lastError,created,modified,secret"`
	Name        *string  `json:"name,omitempty"`
	URL         *string  `json:"url,omitempty"`
	Events      *string  `json:"events,omitempty"`
	PayloadMode *int64   `json:"payloadMode,omitempty"`
	// Active false disables the subscription by hand; true enables it
	// again, resuming from the first event not delivered.
	Active *bool `json:"active,omitempty"`
	// RotateSecret true on PUT replaces the secret; the answer shows the
	// new one, once.
	RotateSecret *bool `json:"rotateSecret,omitempty"`
}

// Validate checks every field the change gives, all at once; create says
// whether it makes a new subscription (name, url, events and payloadMode
// required). It trims the name and url and writes events in its canonical
// form: "*", or the types sorted, without repeats. Whether the url may be
// reached is the service's to judge (it depends on the server's flags).
func (c *WebhookChange) Validate(v *Validation, create bool) {
	checkName(v, "name", &c.Name, MaxWebhookNameLen, create)
	checkName(v, "url", &c.URL, MaxWebhookURLLen, create)
	if !v.Has("events") {
		switch {
		case c.Events == nil && create:
			v.Add("events", "is required")
		case c.Events != nil:
			events := canonicalEvents(*c.Events, v)
			c.Events = &events
		}
	}
	if !v.Has("payloadMode") {
		switch {
		case c.PayloadMode == nil && create:
			v.Add("payloadMode", "is required")
		case c.PayloadMode != nil && *c.PayloadMode != PayloadEvent && *c.PayloadMode != PayloadSummary:
			v.Add("payloadMode", "must be 1 (the whole event) or 2 (id, seq, type, time and subject)")
		}
	}
}

// canonicalEvents reads a subscription's events: "*" or a comma-separated
// list of EventTypes.
func canonicalEvents(s string, v *Validation) string {
	s = strings.TrimSpace(s)
	switch {
	case s == WebhookAllEvents:
		return s
	case s == "":
		v.Add("events", `is required: event types, comma-separated, or "*" for all`)
		return s
	}
	types := ParseEventTypes(s, "events", v)
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = string(t)
	}
	return strings.Join(names, ",")
}

// WebhookEventTypes is the filter of a subscription's events: nil for all.
func WebhookEventTypes(events string) []EventType {
	if events == WebhookAllEvents {
		return nil
	}
	var out []EventType
	for f := range strings.SplitSeq(events, ",") {
		if t := EventType(f); slices.Contains(EventTypes, t) {
			out = append(out, t)
		}
	}
	return out
}

// WebhookDelivery is one attempt of a delivery, as the log keeps it (7
// days) and as POST /Webhook/{id}/test answers it. Status is the
// receiver's HTTP status (0: none), Duration in milliseconds, Error empty
// on success.
type WebhookDelivery struct {
	EventID  string    `json:"eventID"`
	Type     EventType `json:"type"`
	Attempt  int       `json:"attempt"`
	Time     time.Time `json:"time"`
	Success  bool      `json:"success"`
	Status   int       `json:"status"`
	Duration int64     `json:"duration"`
	Error    string    `json:"error"`
}

// WebhookPayload is the body of a delivery of an event in mode
// PayloadSummary.
type WebhookPayload struct {
	ID      string       `json:"id"`
	Seq     int64        `json:"seq"`
	Type    EventType    `json:"type"`
	Time    time.Time    `json:"time"`
	Subject EventSubject `json:"subject"`
}

// WebhookJob is a subscription as its delivery worker holds it: the public
// fields with the secret, whose client it is, the feed position of the last
// event delivered, and when the failures in a row began.
type WebhookJob struct {
	Webhook
	ClientID     string
	Cursor       EventCursor
	FirstFailure *time.Time
}

// WebhookProgress is what a delivery worker writes of a subscription it
// holds the lease of: where it has got to, the attempts it made, its
// failures in a row, and how long it keeps the lease (Release: no longer).
type WebhookProgress struct {
	Cursor       EventCursor
	LastSuccess  *time.Time
	FailureCount int
	FirstFailure *time.Time
	LastFailure  *time.Time
	LastError    string
	NextAttempt  time.Time
	// Disable disables the subscription for its failures (disableType 1).
	Disable    bool
	Deliveries []WebhookDelivery
	LeaseUntil time.Time
	Release    bool
}

package stockroom

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// EventType names a kind of change in the feed (contract §12).
type EventType string

// The event types of contract §12. Adding an operation's event is one
// constant here, its name in EventTypes, and one call of the store's
// appendEvent in the transaction of the change (ARCHITECTURE.md, "How to add
// an event type").
const (
	EventItemCreated       EventType = "item.created"
	EventItemUpdated       EventType = "item.updated"
	EventItemDiscontinued  EventType = "item.discontinued"
	EventAliasCreated      EventType = "alias.created"
	EventAliasDeleted      EventType = "alias.deleted"
	EventReceived          EventType = "inventory.received"
	EventIssued            EventType = "inventory.issued"
	EventMoved             EventType = "inventory.moved"
	EventHeld              EventType = "inventory.held"
	EventReleased          EventType = "inventory.released"
	EventStockLevelChanged EventType = "stocklevel.changed"
	EventTransitShipped    EventType = "transit.shipped"
	EventTransitReceived   EventType = "transit.received"
	EventTransitCanceled   EventType = "transit.canceled"
)

// orderEventActions are what may happen to an order of each kind, each an
// event type "<kind>.<action>" (contract §12).
var orderEventActions = []string{"created", "updated", "committed", "packed", "shipped", "received", "completed", "closed", "canceled"}

// OrderEvent is the event type of action on an order of kind
// ("purchaseorder", "shippingorder" or "workorder").
func OrderEvent(kind, action string) EventType { return EventType(kind + "." + action) }

// EventKind is how the feed names an order of kind k: its events' subject
// kind and the prefix of their types ("purchaseorder", ...).
func (k OrderKind) EventKind() string { return string(k) + "order" }

// EventTypes lists every event type a client may ask the feed for, in the
// contract's order.
var EventTypes = func() []EventType {
	ts := []EventType{
		EventItemCreated, EventItemUpdated, EventItemDiscontinued, EventAliasCreated, EventAliasDeleted,
		EventReceived, EventIssued, EventMoved, EventHeld, EventReleased, EventStockLevelChanged,
		EventTransitShipped, EventTransitReceived, EventTransitCanceled,
	}
	for _, kind := range []string{"purchaseorder", "shippingorder", "workorder"} {
		for _, a := range orderEventActions {
			ts = append(ts, OrderEvent(kind, a))
		}
	}
	return ts
}()

// ParseEventTypes reads a comma-separated list of event types; an unknown
// one is a problem of field (a validation error).
func ParseEventTypes(s, field string, v *Validation) []EventType {
	var out []EventType
	for f := range strings.SplitSeq(s, ",") {
		t := EventType(strings.TrimSpace(f))
		if !slices.Contains(EventTypes, t) {
			v.Add(field, fmt.Sprintf("%q is not an event type", string(t)))
			continue
		}
		out = append(out, t)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Event is one entry of the change feed: what changed (Subject, Data: the
// resource after the change, as its endpoint answers or its GET shows it),
// where (WID, ToWID for a move or transit between two warehouses; 0 for an
// item's, which is seen by its catalogue, Owner), who and when.
type Event struct {
	// ID is unique and stable: the cursor just after this event, so a
	// consumer that kept an event's id resumes from it (after=ID).
	ID string `json:"id"`
	// Seq is the event's sequence number: unique, increasing along the feed
	// within a transaction and, on SQLite, along the whole feed. The order
	// of the feed is the cursor's (see EventCursor).
	Seq      int64           `json:"seq"`
	Type     EventType       `json:"type"`
	Time     time.Time       `json:"time"`
	ClientID string          `json:"clientID"`
	WID      int64           `json:"wid"`
	ToWID    *int64          `json:"toWid,omitempty"`
	Owner    int64           `json:"owner"`
	Subject  EventSubject    `json:"subject"`
	Data     json.RawMessage `json:"data"`
}

// EventSubject names the resource an event is about: its kind ("lot",
// "transaction", "item", "alias", "stocklevel", ...) and its id as text.
type EventSubject struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
}

// EventPage is a page of the feed: the events after the cursor asked for,
// the cursor to continue from (the last event's, or the one asked for when
// the page is empty), and whether more events are readable now.
type EventPage struct {
	Value   []Event `json:"value"`
	Cursor  string  `json:"cursor"`
	HasMore bool    `json:"hasMore"`
}

// EventCursor is a position in the feed: after the event (XID, Seq). On
// PostgreSQL XID is the writing transaction's id and the feed is ordered by
// (XID, Seq), which is commit order at the reader's horizon (store/event.go);
// on SQLite XID is 0 and Seq is the row's id. The zero cursor is the start.
type EventCursor struct {
	XID, Seq int64
}

// eventCursorVersion prefixes a cursor's text, so that its form can change.
const eventCursorVersion = "e1"

// String is the cursor's opaque form: base64url of a small versioned text.
func (c EventCursor) String() string {
	if c == (EventCursor{}) {
		return ""
	}
	s := eventCursorVersion + "." + strconv.FormatInt(c.XID, 10) + "." + strconv.FormatInt(c.Seq, 10)
	return base64.RawURLEncoding.EncodeToString([]byte(s))
}

// ParseEventCursor reads a cursor written by String; "" is the start. A
// cursor it cannot read is a validation error naming field.
func ParseEventCursor(s, field string, v *Validation) EventCursor {
	if s == "" {
		return EventCursor{}
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	parts := bytes.Split(b, []byte("."))
	if err != nil || len(parts) != 3 || string(parts[0]) != eventCursorVersion {
		v.Add(field, "is not a cursor this feed gave")
		return EventCursor{}
	}
	xid, err1 := strconv.ParseInt(string(parts[1]), 10, 64)
	seq, err2 := strconv.ParseInt(string(parts[2]), 10, 64)
	if err1 != nil || err2 != nil || xid < 0 || seq < 1 {
		v.Add(field, "is not a cursor this feed gave")
		return EventCursor{}
	}
	return EventCursor{XID: xid, Seq: seq}
}

// Feed limits (contract §12).
const (
	DefaultEventLimit = 100
	MaxEventLimit     = 1000
	MaxEventWait      = 60 * time.Second
	// DefaultEventRetention is how long events are kept at least.
	DefaultEventRetention = 30 * 24 * time.Hour
)

// ECURSOREXPIRED is the error code of a feed cursor older than the events
// kept (410).
const ECURSOREXPIRED = "cursor_expired"

// ErrCursorExpired is the refusal of such a cursor.
var ErrCursorExpired = &Error{Code: ECURSOREXPIRED, Message: "The cursor is older than the events kept; start again from the beginning of the feed (no after)."}

// EventFilter is a read of the feed as the store runs it: where to start,
// how many, which types (nil: all), and what the client sees (contract §4,
// §9): events of its warehouses (either end of a move or transit) and owners;
// an item's events by the item's catalogue. A nil scope is every one.
type EventFilter struct {
	After      EventCursor
	Limit      int
	Types      []EventType
	Warehouses Scope
	Owners     *Scope
	Catalogues *Scope
}

// SeesAs reports whether reads by f and o find the same events wherever
// they start: the same types, warehouses, owners and catalogues.
func (f EventFilter) SeesAs(o EventFilter) bool {
	return slices.Equal(f.Types, o.Types) && f.Warehouses.Equal(o.Warehouses) &&
		equalScopes(f.Owners, o.Owners) && equalScopes(f.Catalogues, o.Catalogues)
}

// equalScopes is Scope.Equal for scopes of which nil is every one.
func equalScopes(a, b *Scope) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

// EventRead is one read of the feed by the store: the events found (one
// more than the filter's limit when there are more), and whether events of
// committed transactions wait behind the horizon (PostgreSQL: an older
// transaction still runs), readable once it ends.
type EventRead struct {
	Events []Event
	Behind bool
}

// NewEvent is an event as a write appends it; the store gives it its
// position, and Data is the resource after the change, encoded as its
// endpoint answers.
type NewEvent struct {
	Type     EventType
	Time     time.Time
	ClientID string
	// WID is 0 for an item's event, seen by its catalogue (Owner).
	WID     int64
	ToWID   *int64
	Owner   int64
	Subject EventSubject
	Data    any
}

package client

import (
	"context"
	"iter"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
)

// EventOptions select a read of the change feed (GET /Events).
type EventOptions struct {
	// After is a cursor the feed gave (a page's Cursor or an event's ID);
	// empty for the start of the feed.
	After string
	// Limit is the most events a page holds; 0 means the server's default
	// (100). At most stockroom.MaxEventLimit.
	Limit int
	// Types keeps only events of these types; nil keeps all.
	Types []stockroom.EventType
	// Wait is how long a read at the end of the feed waits for the next
	// event, in whole seconds, at most stockroom.MaxEventWait; 0 answers at
	// once.
	Wait time.Duration
}

func (o EventOptions) values() url.Values {
	q := url.Values{}
	setIf(q, "after", o.After)
	if o.Limit > 0 {
		q.Set("limit", strconv.Itoa(o.Limit))
	}
	if len(o.Types) > 0 {
		ts := make([]string, len(o.Types))
		for i, t := range o.Types {
			ts[i] = string(t)
		}
		q.Set("types", strings.Join(ts, ","))
	}
	if o.Wait > 0 {
		q.Set("wait", strconv.Itoa(int(o.Wait/time.Second)))
	}
	return q
}

// ListEvents reads one page of the change feed: the events after
// opts.After that the client sees, oldest first (permission 11). Send the
// page's Cursor as the next After to read on. A cursor older than the
// events the server keeps is an *Error with code stockroom.ECURSOREXPIRED.
func (c *Client) ListEvents(ctx context.Context, opts EventOptions) (*stockroom.EventPage, error) {
	var page stockroom.EventPage
	if _, err := c.do(ctx, call{method: "GET", path: "Events", query: opts.values()}, &page); err != nil {
		return nil, err
	}
	return &page, nil
}

// Events follows the change feed from opts.After for as long as the loop
// runs: every event the client sees, each once, in the feed's one order,
// each with its ID the cursor just after it, to be stored with the event's effect,
// so that a consumer that stops resumes from it (opts.After) and misses
// nothing. At the end of the feed it long-polls (opts.Wait, 30 s when 0).
// It stops at the first error, which it yields, when ctx ends (yielding
// ctx's error), and when the loop body breaks.
func (c *Client) Events(ctx context.Context, opts EventOptions) iter.Seq2[stockroom.Event, error] {
	if opts.Wait <= 0 {
		opts.Wait = 30 * time.Second
	}
	return func(yield func(stockroom.Event, error) bool) {
		for {
			page, err := c.ListEvents(ctx, opts)
			if err == nil {
				err = ctx.Err()
			}
			if err != nil {
				yield(stockroom.Event{}, err)
				return
			}
			for _, e := range page.Value {
				if !yield(e, nil) {
					return
				}
			}
			opts.After = page.Cursor
		}
	}
}

package sdktest_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
)

// TestEventsResumeFromAStoredCursor: a consumer follows the feed, stops,
// and resumes from the id of the last event it handled, meeting each event
// once; a read at the end of the feed waits for the next one.
func TestEventsResumeFromAStoredCursor(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	c := s.admin(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	mustCreateItem(t, c, "FEED-1")
	mustReceive(t, c, "FEED-1", units(t, "3"), 1, "A")

	receipts := client.EventOptions{Types: []stockroom.EventType{stockroom.EventReceived}}
	var stored string
	for e, err := range c.Events(ctx, receipts) {
		if err != nil {
			t.Fatal(err)
		}
		if e.Type != stockroom.EventReceived || e.WID != 1 {
			t.Fatalf("first event %+v", e)
		}
		stored = e.ID
		break
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		mustReceive(t, c, "FEED-1", units(t, "4"), 1, "B")
	}()
	resumed := receipts
	resumed.After = stored
	for e, err := range c.Events(ctx, resumed) {
		if err != nil {
			t.Fatal(err)
		}
		var r stockroom.ReceiveResult
		if err := decodeData(e, &r); err != nil || r.Lot.Spot != "B" {
			t.Fatalf("after the stored cursor: %+v (%v), want the second receipt", r, err)
		}
		break
	}
	_, err := c.ListEvents(ctx, client.EventOptions{After: "not-a-cursor"})
	if ce, ok := errors.AsType[*client.Error](err); !ok || ce.Code != stockroom.EINVALID {
		t.Fatalf("a bad cursor: %v", err)
	}
}

func decodeData(e stockroom.Event, v any) error { return json.Unmarshal(e.Data, v) }

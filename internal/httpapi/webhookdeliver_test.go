package httpapi_test

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/testdb"
)

// eventIDs are the ids of events, in their order.
func eventIDs(es []stockroom.Event) []string {
	ids := make([]string, len(es))
	for i, e := range es {
		ids[i] = e.ID
	}
	return ids
}

// stockChanges makes n receipts in warehouse 1 and a move to warehouse 2:
// events of several types in both warehouses.
func (a *api) stockChanges(t *testing.T, tok string, n int) {
	t.Helper()
	for range n {
		a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 2, "wid": 1, "reasonCode": 1}, 201)
	}
	a.mustPost(t, tok, "/api/v1/Inventory/Move", map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "shipToWid": 2, "toSpot": "R"}, 200)
}

// wantFeed waits until the receiver has exactly the events of the feed
// after cursor that tok's client sees (of query's types), in feed order,
// each signed.
func (a *api) wantFeed(t *testing.T, tok, cursor, query string, rc *receiver, want int) []stockroom.Event {
	t.Helper()
	feed, _ := a.feedTo(t, tok, cursor, query, want)
	waitFor(t, "every event delivered", func() bool { return len(rc.events()) >= len(feed) })
	time.Sleep(50 * time.Millisecond) // nothing more comes
	got := rc.events()
	if !slices.Equal(eventIDs(got), eventIDs(feed)) {
		t.Fatalf("delivered %v,\nfeed has %v", eventIDs(got), eventIDs(feed))
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.bad != 0 {
		t.Fatalf("%d deliveries with a bad signature or body", rc.bad)
	}
	return got
}

// feedEnd is the cursor at the end of the feed tok's client sees, once
// every event committed before is readable.
func (a *api) feedEnd(t *testing.T, tok string) string {
	t.Helper()
	testdb.SettleFeed(t, a.db)
	cursor := ""
	for {
		p := decode[stockroom.EventPage](t, a.get(t, "/api/v1/Events?limit=1000&after="+cursor, tok))
		if len(p.Value) == 0 {
			return cursor
		}
		cursor = p.Cursor
	}
}

// webhookLog waits until a subscription's log holds n attempts (the worker
// writes them with its position, just after the receiver answered) and
// returns them, newest first.
func (a *api) webhookLog(t *testing.T, tok string, rec int64, n int) []stockroom.WebhookDelivery {
	t.Helper()
	var log struct{ Value []stockroom.WebhookDelivery }
	waitFor(t, "the attempts logged", func() bool {
		log = decode[struct{ Value []stockroom.WebhookDelivery }](t, a.get(t, "/api/v1/Webhook/"+strconv.FormatInt(rec, 10)+"/log?pageSize=100", tok))
		return len(log.Value) >= n
	})
	return log.Value
}

func TestWebhookDelivery(t *testing.T) {
	eachWebhookEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		a.runWebhooks(t)

		t.Run("EveryEventInFeedOrder", func(t *testing.T) {
			rc := newReceiver(t)
			start := a.feedEnd(t, tok)
			sub := a.subscribe(t, tok, rc, "*")
			a.stockChanges(t, tok, 5)
			a.wantFeed(t, tok, start, "", rc, 5*2+3)
			log := a.webhookLog(t, tok, sub.Rec, 13)
			if len(log) != 13 || !log[0].Success || log[0].Attempt != 1 || log[0].Status != 204 {
				t.Fatalf("log %+v", log)
			}
			a.send(t, "DELETE", "/api/v1/Webhook/"+strconv.FormatInt(sub.Rec, 10), tok, nil)
		})
		t.Run("FailingReceiverRecovers", func(t *testing.T) {
			rc := newReceiver(t)
			rc.fail = func(n int) bool { return n <= 4 }
			start := a.feedEnd(t, tok)
			sub := a.subscribe(t, tok, rc, "inventory.received,inventory.moved")
			a.stockChanges(t, tok, 3)
			a.wantFeed(t, tok, start, "&types=inventory.received,inventory.moved", rc, 4)
			path := "/api/v1/Webhook/" + strconv.FormatInt(sub.Rec, 10)
			log := a.webhookLog(t, tok, sub.Rec, 8)
			// Newest first: the four successes, then the failures, each
			// attempt of the first event counted.
			if len(log) != 8 || log[4].Attempt != 4 || log[7].Attempt != 1 || log[4].Status != 503 || log[4].Success {
				t.Fatalf("log %+v", log)
			}
			wh := decode[stockroom.Webhook](t, a.get(t, path, tok))
			if wh.FailureCount != 0 || wh.LastSuccess == nil || wh.LastFailure == nil || wh.LastError != "HTTP 503" {
				t.Fatalf("after recovery %+v", wh)
			}
			a.send(t, "DELETE", path, tok, nil)
		})
		t.Run("DisabledAfterThreeDaysThenResumed", func(t *testing.T) {
			rc := newReceiver(t)
			down := true
			rc.fail = func(int) bool { return down }
			start := a.feedEnd(t, tok)
			sub := a.subscribe(t, tok, rc, "*")
			path := "/api/v1/Webhook/" + strconv.FormatInt(sub.Rec, 10)
			a.stockChanges(t, tok, 1)
			waitFor(t, "a first failure", func() bool { return decode[stockroom.Webhook](t, a.get(t, path, tok)).FailureCount >= 1 })
			a.advance(73 * time.Hour)
			tok = a.token(t, a.adminID, a.adminSecret) // the first expired
			waitFor(t, "disabled", func() bool { return decode[stockroom.Webhook](t, a.get(t, path, tok)).DisableType == 1 })
			wh := decode[stockroom.Webhook](t, a.get(t, path, tok))
			if wh.Active || wh.FailureDays != 3 {
				t.Fatalf("disabled %+v", wh)
			}
			a.stockChanges(t, tok, 1) // kept for the resumption
			rc.mu.Lock()
			down = false
			rc.mu.Unlock()
			wh = decode[stockroom.Webhook](t, a.send(t, "PUT", path, tok, map[string]any{"active": true}))
			if !wh.Active || wh.DisableType != 0 || wh.FailureCount != 0 || wh.FailureDays != 0 {
				t.Fatalf("enabled %+v", wh)
			}
			a.wantFeed(t, tok, start, "", rc, 2*(2+3))
			a.send(t, "DELETE", path, tok, nil)
		})
		t.Run("ScopeLimitsDeliveries", func(t *testing.T) {
			id, secret := a.addClient(t, service.NewClient{Scope: stockroom.Scope{IDs: []int64{2}},
				Permissions: []stockroom.Permission{stockroom.PermItemRead, stockroom.PermWebhooks}})
			limited := a.token(t, id, secret)
			rc := newReceiver(t)
			start := a.feedEnd(t, limited)
			a.subscribe(t, limited, rc, "*")
			a.stockChanges(t, tok, 2)
			got := a.wantFeed(t, limited, start, "", rc, 2)
			for _, e := range got {
				if e.WID != 2 && (e.ToWID == nil || *e.ToWID != 2) {
					t.Fatalf("warehouse 2's subscription got %+v", e)
				}
			}
		})
	})
}

// Commits wake the worker, but a stream of them is served by one look for
// due subscriptions each Gap, not one a commit; every event still arrives.
func TestWebhookLooksAreSpaced(t *testing.T) {
	opts := testWebhooks
	opts.Gap = 200 * time.Millisecond
	eachWebhookEngineWith(t, opts, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		a.runWebhooks(t)
		rc := newReceiver(t)
		start := a.feedEnd(t, tok)
		a.subscribe(t, tok, rc, "*")
		before, began := a.svc.WebhookStats().Looks, time.Now()
		a.stockChanges(t, tok, 30)
		a.wantFeed(t, tok, start, "", rc, 30*2+3)
		looks, took := a.svc.WebhookStats().Looks-before, time.Since(began)
		if most := int64(took/opts.Gap) + 2; looks > most {
			t.Fatalf("%d looks in %v, more than one a %v (%d)", looks, took, opts.Gap, most)
		}
		t.Logf("%d looks in %v", looks, took)
	})
}

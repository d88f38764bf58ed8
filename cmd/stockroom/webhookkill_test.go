package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// hookReceiver is a webhook receiver on loopback: it keeps each delivery
// whose signature is valid, and counts those whose is not. Each delivery
// takes a few milliseconds, so that an instance killed is caught in the
// middle of one.
type hookReceiver struct {
	*httptest.Server
	mu     sync.Mutex
	secret string
	got    []string // event ids, in the order delivered
	bad    int
}

func newHookReceiver(t *testing.T) *hookReceiver {
	rc := &hookReceiver{}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		time.Sleep(3 * time.Millisecond)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		var e stockroom.Event
		if client.VerifyWebhook(rc.secret, r.Header.Get(client.WebhookSignatureHeader), body) != nil ||
			json.Unmarshal(body, &e) != nil || e.ID != r.Header.Get("Stockroom-Event-Id") {
			rc.bad++
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		rc.got = append(rc.got, e.ID)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *hookReceiver) ids() []string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.got)
}

// TestWebhooksSurviveSIGKILL: three `stockroom serve` processes on one
// PostgreSQL database deliver three subscriptions while stock changes
// stream in; an instance delivering at that moment (its count of
// deliveries growing) is killed with SIGKILL in the middle of them. The other two take over its
// subscriptions when its leases (--webhook-lease 2s) expire: every event
// reaches every receiver with a valid signature, and each receiver's
// deliveries follow the feed's order, going back at most once (the
// events the killed instance delivered but had not recorded), never
// ahead of an event not yet delivered.
func TestWebhooksSurviveSIGKILL(t *testing.T) {
	dsn := testdb.DSN(t, "postgres")
	procs, _, _ := startCluster(t, 3, dsn, "", "--rate-limit", "10000000", "--webhook-allow-private", "--webhook-lease", "2s")
	token := newClientToken(t, dsn, procs[0].url)
	if s, b, _ := call("POST", procs[1].url+"/api/v1/Item", token, `{"shortID":"K-1"}`); s != 201 {
		t.Fatalf("create item: %d %s", s, b)
	}
	settleFeed(t, dsn)
	start := feedEnd(t, procs[1].url, token)
	rcs := []*hookReceiver{newHookReceiver(t), newHookReceiver(t), newHookReceiver(t)}
	for _, rc := range rcs {
		s, b, _ := call("POST", procs[2].url+"/api/v1/Webhook", token, fmt.Sprintf(`{"name":"kill test","url":%q,"events":"*","payloadMode":1}`, rc.URL+"/hook"))
		var wh stockroom.Webhook
		if s != 201 || json.Unmarshal(b, &wh) != nil {
			t.Fatalf("subscribe: %d %s", s, b)
		}
		rc.mu.Lock()
		rc.secret = wh.Secret
		rc.mu.Unlock()
	}

	const receipts = 150 // two events each: the receipt and its level
	urls := []string{procs[0].url, procs[1].url, procs[2].url}
	var stream sync.WaitGroup
	for w := range 3 {
		stream.Go(func() {
			for i := w; i < receipts; i += 3 {
				// Sent on to the next instance, with its key, when the
				// one asked dies under it.
				d := deliver(urls, i, "Receive", token, fmt.Sprintf("kill-%d", i), fmt.Sprintf(`{"itemID":"K-1","wid":1,"units":%d,"reasonCode":1}`, 1+i%5),
					time.Now().Add(20*time.Second))
				if d.status != 201 {
					t.Errorf("receipt %d: %d %s", i, d.status, d.body)
				}
			}
		})
	}
	deadline := time.Now().Add(20 * time.Second)
	for delivered(rcs) < receipts/2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	victim := busiest(t, procs)
	victim.kill()
	t.Logf("killed instance %s with %d deliveries received", victim.addr, delivered(rcs))
	stream.Wait()
	alive := procs[0]
	if alive == victim {
		alive = procs[1]
	}
	feed := feedFrom(t, alive.url, token, start, 2*receipts)

	for i, rc := range rcs {
		for time.Now().Before(deadline.Add(10*time.Second)) && len(distinctIDs(rc.ids())) < len(feed) {
			time.Sleep(20 * time.Millisecond)
		}
		got := rc.ids()
		if !slices.Equal(distinctIDs(got), feed) {
			t.Fatalf("receiver %d has %d of the %d events (%d deliveries)", i, len(distinctIDs(got)), len(feed), len(got))
		}
		if n, err := rewindsOf(got, feed); err != nil || n > 1 {
			t.Errorf("receiver %d: went back %d times (%v)", i, n, err)
		}
		if rc.bad > 0 {
			t.Errorf("receiver %d: %d deliveries with a bad signature", i, rc.bad)
		}
		n, _ := rewindsOf(got, feed)
		t.Logf("receiver %d: %d deliveries of %d events, %d rewinds", i, len(got), len(feed), n)
	}
}

// delivered is how many deliveries the receivers have had.
func delivered(rcs []*hookReceiver) int {
	n := 0
	for _, rc := range rcs {
		n += len(rc.ids())
	}
	return n
}

var successes = regexp.MustCompile(`(?m)^stockroom_webhook_deliveries_total\{outcome="success"\} (\d+)`)

// busiest is the instance delivering now: the one whose /metrics count of
// deliveries made grew the most over 100 ms (one that grew at all).
func busiest(t *testing.T, procs []*proc) *proc {
	t.Helper()
	count := func(p *proc) int {
		n := 0
		if m := successes.FindStringSubmatch(getMetrics(t, p.url)); m != nil {
			n, _ = strconv.Atoi(m[1])
		}
		return n
	}
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); {
		before := make([]int, len(procs))
		for i, p := range procs {
			before[i] = count(p)
		}
		time.Sleep(100 * time.Millisecond)
		var best *proc
		most := 0
		for i, p := range procs {
			if n := count(p) - before[i]; n > most {
				best, most = p, n
			}
		}
		if best != nil {
			return best
		}
	}
	t.Fatal("no instance was delivering")
	return nil
}

// settleFeed waits until every event committed on the database at dsn is
// readable (testdb.SettleFeed).
func settleFeed(t *testing.T, dsn string) {
	t.Helper()
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	testdb.SettleFeed(t, db)
}

// feedEnd is the cursor at the end of the feed as readable now (after
// settleFeed, every event committed before).
func feedEnd(t *testing.T, base, token string) string {
	t.Helper()
	after := ""
	for {
		page := readFeed(t, base, token, after, 1)
		if len(page.Value) == 0 {
			return after
		}
		after = page.Cursor
	}
}

// feedFrom reads the feed's event ids after a cursor until it has want.
func feedFrom(t *testing.T, base, token, after string, want int) []string {
	t.Helper()
	var ids []string
	for end := time.Now().Add(30 * time.Second); len(ids) < want && time.Now().Before(end); {
		page := readFeed(t, base, token, after, 2)
		for _, e := range page.Value {
			ids = append(ids, e.ID)
		}
		after = page.Cursor
	}
	if len(ids) != want {
		t.Fatalf("the feed has %d events after the subscriptions, want %d", len(ids), want)
	}
	return ids
}

func readFeed(t *testing.T, base, token, after string, wait int) stockroom.EventPage {
	t.Helper()
	s, b, _ := call("GET", fmt.Sprintf("%s/api/v1/Events?limit=1000&wait=%d&after=%s", base, wait, url.QueryEscape(after)), token, "")
	var page stockroom.EventPage
	if s != 200 || json.Unmarshal(b, &page) != nil {
		t.Fatalf("GET /Events: %d %s", s, b)
	}
	return page
}

func distinctIDs(ids []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// rewindsOf counts the deliveries of an event at or before the last one
// delivered (a re-send after a lease passed on), and fails on a delivery
// past the next event not yet delivered (one skipped, or out of order).
func rewindsOf(got, feed []string) (int, error) {
	pos := map[string]int{}
	for i, id := range feed {
		pos[id] = i
	}
	n, last, reached := 0, -1, -1
	for i, id := range got {
		p, ok := pos[id]
		switch {
		case !ok:
			return n, fmt.Errorf("delivery %d is of event %s, not in the feed", i, id)
		case p > reached+1:
			return n, fmt.Errorf("delivery %d is of feed event %d before event %d was delivered", i, p, reached+1)
		case p <= last:
			n++
		}
		last, reached = p, max(reached, p)
	}
	return n, nil
}

package sdktest_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// errConnectionLost stands for a connection that broke after the server had
// handled the request but before its answer arrived.
var errConnectionLost = errors.New("connection reset by peer (simulated)")

// failFirst returns a tap fault that lets the first request to a path with
// the given suffix reach the server, then replaces the server's answer with
// what replace makes of it.
func failFirst(suffix string, replace func(*http.Response) (*http.Response, error)) func(*http.Request, *http.Response) (*http.Response, error) {
	var done atomic.Bool
	return func(req *http.Request, res *http.Response) (*http.Response, error) {
		if !strings.HasSuffix(req.URL.Path, suffix) || done.Swap(true) {
			return res, nil
		}
		// Read the whole answer first: the server has finished with the request.
		_, err := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("reading the answer before replacing it: %w", err)
		}
		return replace(res)
	}
}

func dropConnection(*http.Response) (*http.Response, error) { return nil, errConnectionLost }

// ledgerOf returns the types of an item's ledger entries, newest first.
func ledgerOf(t *testing.T, c *client.Client, shortID string) []string {
	t.Helper()
	var types []string
	for tx, err := range c.Transactions(context.Background(), client.TransactionListOptions{ItemID: shortID}) {
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, string(tx.Type))
	}
	return types
}

// TestRetryIsAppliedOnce proves a receipt whose answer was lost is retried
// with the same Idempotency-Key and booked once, and that the caller gets
// the first answer.
func TestRetryIsAppliedOnce(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	mustCreateItem(t, s.admin(t), "RETRY-1")
	tp := &tap{fault: failFirst("/Inventory/Receive", dropConnection)}
	c := s.admin(t, tp.option())

	res, err := c.Receive(context.Background(), client.ReceiveRequest{ItemID: "RETRY-1", Units: units(t, "7"), WID: 1, ReasonCode: 1})
	if err != nil {
		t.Fatal(err)
	}
	attempts := tp.matching("POST", "/Inventory/Receive")
	if len(attempts) != 2 || attempts[0].status != 0 || !attempts[1].replayed ||
		attempts[0].idempotencyKey == "" || attempts[0].idempotencyKey != attempts[1].idempotencyKey {
		t.Fatalf("attempts %+v, want a lost one and a replay under the same key", attempts)
	}
	if got := ledgerOf(t, c, "RETRY-1"); len(got) != 1 {
		t.Fatalf("ledger %v, want one receipt", got)
	}
	if got := level(t, c, "RETRY-1", 1); got.InStock != units(t, "7") || res.Lot.Units != units(t, "7") {
		t.Fatalf("in stock %s after receiving 7 once (result %+v)", got.InStock, res)
	}
}

// TestRetryAfterGatewayTimeout proves the same for a 504 from a proxy that
// gave up waiting while the server carried on.
func TestRetryAfterGatewayTimeout(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	admin := s.admin(t)
	mustCreateItem(t, admin, "RETRY-2")
	mustReceive(t, admin, "RETRY-2", units(t, "10"), 1, "")
	tp := &tap{fault: failFirst("/Inventory/Issue", func(res *http.Response) (*http.Response, error) {
		return &http.Response{
			StatusCode: http.StatusGatewayTimeout, Status: "504 Gateway Timeout", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header:  http.Header{"Content-Type": {"text/html"}},
			Body:    io.NopCloser(strings.NewReader("<html><body>upstream timed out</body></html>")),
			Request: res.Request,
		}, nil
	})}
	c := s.admin(t, tp.option())
	if _, err := c.Issue(context.Background(), client.IssueRequest{ItemID: "RETRY-2", Units: units(t, "4"), WID: 1, ReasonCode: 20}); err != nil {
		t.Fatal(err)
	}
	if got := ledgerOf(t, c, "RETRY-2"); len(got) != 2 || got[0] != "issue" {
		t.Fatalf("ledger %v, want one issue after the receipt", got)
	}
	if got := level(t, c, "RETRY-2", 1).InStock; got != units(t, "6") {
		t.Fatalf("in stock %s, want 10 - 4 = 6", got)
	}
}

// TestCallerKey proves a key chosen by the caller makes a request safe to
// repeat across calls, as a program that restarts after a crash would, and
// that without retries the lost answer is reported as a transport error.
func TestCallerKey(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	mustCreateItem(t, s.admin(t), "RETRY-3")
	tp := &tap{fault: failFirst("/Inventory/Receive", dropConnection)}
	c := s.admin(t, tp.option(), client.WithRetries(0, 0))
	ctx := client.WithIdempotencyKey(context.Background(), "po-4711-line-1")
	req := client.ReceiveRequest{ItemID: "RETRY-3", Units: units(t, "3"), WID: 1, ReasonCode: 1, Reference: "PO-4711"}

	_, err := c.Receive(ctx, req)
	if !errors.Is(err, errConnectionLost) {
		t.Fatalf("first attempt: %v, want the lost connection", err)
	}
	if _, ok := errors.AsType[*client.Error](err); ok {
		t.Fatalf("a lost connection reported as a server error: %v", err)
	}
	again, err := c.Receive(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if got := ledgerOf(t, c, "RETRY-3"); len(got) != 1 {
		t.Fatalf("ledger %v, want one receipt", got)
	}
	for _, ex := range tp.matching("POST", "/Inventory/Receive") {
		if ex.idempotencyKey != "po-4711-line-1" {
			t.Fatalf("sent key %q, want the caller's", ex.idempotencyKey)
		}
	}
	if again.Lot.Reference != "PO-4711" {
		t.Fatalf("repeated call answered %+v", again)
	}

	req.Units = units(t, "4")
	_, err = c.Receive(ctx, req)
	if apiErr, ok := errors.AsType[*client.Error](err); !ok || apiErr.StatusCode != 422 || apiErr.Code != stockroom.EIDEMPOTENCY {
		t.Fatalf("the same key with another body: %v, want 422 %s", err, stockroom.EIDEMPOTENCY)
	}
}

// TestEachCallGetsItsOwnKey proves separate calls are separate requests to
// the server: two identical receipts are booked twice.
func TestEachCallGetsItsOwnKey(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	tp := &tap{}
	c := s.admin(t, tp.option())
	mustCreateItem(t, c, "RETRY-4")
	mustReceive(t, c, "RETRY-4", units(t, "1"), 1, "")
	mustReceive(t, c, "RETRY-4", units(t, "1"), 1, "")
	posts := tp.matching("POST", "/Inventory/Receive")
	if len(posts) != 2 || posts[0].idempotencyKey == posts[1].idempotencyKey || posts[1].replayed {
		t.Fatalf("receipts %+v, want two distinct keys", posts)
	}
	if got := level(t, c, "RETRY-4", 1).InStock; got != units(t, "2") {
		t.Fatalf("in stock %s, want 2", got)
	}
	for _, tok := range tp.matching("POST", "/Token") {
		if tok.idempotencyKey != "" {
			t.Fatalf("token request sent Idempotency-Key %q", tok.idempotencyKey)
		}
	}
}

// TestRetryWhileFirstAttemptRuns: a 409 that says (with Retry-After) that a
// request with the same Idempotency-Key is still running is retried; a 409
// that waiting cannot change, short stock, is not.
func TestRetryWhileFirstAttemptRuns(t *testing.T) {
	testdb.RequirePostgres(t) // on SQLite, writes of one key never run side by side
	s := newServer(t, serverConfig{engine: store.Postgres})
	tp := &tap{}
	c := s.admin(t, tp.option(), client.WithRetries(1, 10*time.Millisecond))
	ctx := context.Background()
	item := unique("RUN")
	if _, err := c.CreateItem(ctx, client.ItemInput{ShortID: item}); err != nil {
		t.Fatal(err)
	}
	// A first attempt holds the key, as one still running on another
	// instance would.
	tok, err := c.Token(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.svc.Authenticate(ctx, tok.AccessToken)
	if err != nil {
		t.Fatal(err)
	}
	req := client.ReceiveRequest{ItemID: item, Units: stockroom.Whole(1), WID: 1, ReasonCode: 1}
	release, err := s.db.HoldKeyForTest(ctx, p.ClientID, "k-running")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	_, err = c.Receive(client.WithIdempotencyKey(ctx, "k-running"), req)
	if e, ok := errors.AsType[*client.Error](err); !ok || e.StatusCode != 409 || e.RetryAfter <= 0 {
		t.Fatalf("receive while the key is held: %v", err)
	}
	if n := tp.count("POST", "/Inventory/Receive", 409); n != 2 {
		t.Fatalf("%d attempts got 409, want 2 (the call and one retry)", n)
	}
	_, err = c.Issue(ctx, client.IssueRequest{ItemID: item, Units: stockroom.Whole(1), WID: 1, ReasonCode: 20})
	if e, ok := errors.AsType[*client.Error](err); !ok || e.StatusCode != 409 {
		t.Fatalf("issue of missing stock: %v", err)
	}
	if n := tp.count("POST", "/Inventory/Issue", 409); n != 1 {
		t.Fatalf("short stock was sent %d times, want once", n)
	}
}

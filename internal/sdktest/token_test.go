package sdktest_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
)

// listWarehouses makes one authenticated call and fails the test if it
// fails.
func listWarehouses(t *testing.T, c *client.Client) {
	t.Helper()
	if _, err := c.ListWarehouses(context.Background(), client.ListOptions{}); err != nil {
		t.Fatal(err)
	}
}

// TestTokenExpiredOnTheServer proves a call succeeds when the server no
// longer accepts the client's token: the SDK gets a new one and repeats the
// call once.
func TestTokenExpiredOnTheServer(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{tokenTTL: time.Hour})
	tp := &tap{}
	c := s.admin(t, tp.option())
	listWarehouses(t, c)
	s.advance(2 * time.Hour) // the server's clock: the token has expired
	listWarehouses(t, c)
	if n := tp.count("GET", "/Warehouse", 401); n != 1 {
		t.Fatalf("%d refused calls, want 1", n)
	}
	if n := tp.count("POST", "/Token", 200); n != 2 {
		t.Fatalf("%d tokens fetched, want 2", n)
	}
}

// TestConcurrentCallersShareOneToken proves a burst of calls from many
// goroutines costs one token request, at start and again after the token
// expired under all of them.
func TestConcurrentCallersShareOneToken(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{tokenTTL: time.Hour})
	tp := &tap{}
	c := s.admin(t, tp.option())
	burst := func() {
		var wg sync.WaitGroup
		for range 20 {
			wg.Go(func() {
				if _, err := c.ListWarehouses(context.Background(), client.ListOptions{}); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
	}
	burst()
	if n := tp.count("POST", "/Token", 0); n != 1 {
		t.Fatalf("%d token requests for the first burst, want 1", n)
	}
	s.advance(2 * time.Hour)
	burst()
	if n := tp.count("POST", "/Token", 0); n != 2 {
		t.Fatalf("%d token requests after expiry, want 2 in all", n)
	}
}

// TestWrongCredentials proves bad credentials end in a typed 401 at once,
// without retrying.
func TestWrongCredentials(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	tp := &tap{}
	c := newClient(t, s.url, s.adminID, "not-the-secret-at-all", tp.option())
	_, err := c.ListItems(context.Background(), client.ItemListOptions{})
	apiErr, ok := errors.AsType[*client.Error](err)
	if !ok || apiErr.StatusCode != 401 || apiErr.Code != stockroom.EUNAUTHORIZED || apiErr.Message != stockroom.MsgInvalidClient {
		t.Fatalf("call with a wrong secret: %v, want 401 %q", err, stockroom.MsgInvalidClient)
	}
	if n := tp.count("POST", "/Token", 0); n != 1 {
		t.Fatalf("%d token requests, want 1", n)
	}
	if n := tp.count("GET", "/Item", 0); n != 0 {
		t.Fatalf("%d item requests sent without a token, want none", n)
	}
}

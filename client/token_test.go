package client_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stockroom/stockroom/client"
)

// TestTokenRenewedBeforeExpiry proves the SDK replaces a token shortly
// before it expires, so that the server never has to refuse it.
func TestTokenRenewedBeforeExpiry(t *testing.T) {
	t.Parallel()
	s := newServer(t, "--token-ttl", "1h")
	tp := &tap{}
	c := s.admin(t, tp.option())
	var offset atomic.Int64
	client.SetClock(c, func() time.Time { return time.Now().Add(time.Duration(offset.Load())) })

	tok, err := c.Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if tok.ExpiresIn != 3600 || tok.TokenType != "bearer" || tok.AccessToken == "" {
		t.Fatalf("token %+v", tok)
	}
	listWarehouses(t, c)
	offset.Store(int64(30 * time.Minute))
	listWarehouses(t, c) // half-way through its life the token is kept
	offset.Store(int64(59*time.Minute + 30*time.Second))
	listWarehouses(t, c) // in its last minute it is replaced
	if n := tp.count("POST /api/v1/Token 200"); n != 2 {
		t.Fatalf("%d tokens fetched, want 2", n)
	}
	if n := tp.count("GET /api/v1/Warehouse 401"); n != 0 {
		t.Fatalf("%d calls refused, want none", n)
	}
}

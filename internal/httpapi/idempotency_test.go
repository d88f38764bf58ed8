package httpapi_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/testdb"
)

func (a *api) postKey(t *testing.T, tok, path, key string, body any) response {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return a.do(t, "POST", path, strings.NewReader(string(b)), "Authorization", "Bearer "+tok, "Content-Type", "application/json", "Idempotency-Key", key)
}

func (a *api) ledgerSize(t *testing.T, tok string) int64 {
	t.Helper()
	return decode[struct{ TotalCount int64 }](t, a.get(t, "/api/v1/Inventory/Transactions?pageSize=1", tok)).TotalCount
}

func TestIdempotencyKeys(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		receive := map[string]any{"itemID": "ITEM-A", "units": 2, "wid": 1, "reasonCode": 1}

		t.Run("RepeatReplaysAndChangesNothing", func(t *testing.T) {
			before := a.ledgerSize(t, tok)
			first := a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-seq", receive)
			again := a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-seq", receive)
			if first.status != 201 || again.status != 201 || string(first.body) != string(again.body) {
				t.Fatalf("first %d %s, repeat %d %s", first.status, first.body, again.status, again.body)
			}
			if first.header.Get("Idempotent-Replayed") != "" || again.header.Get("Idempotent-Replayed") != "true" {
				t.Fatalf("Idempotent-Replayed: %q then %q", first.header.Get("Idempotent-Replayed"), again.header.Get("Idempotent-Replayed"))
			}
			if n := a.ledgerSize(t, tok); n != before+1 {
				t.Fatalf("ledger grew by %d, want 1", n-before)
			}
		})
		t.Run("OtherBodyIs422", func(t *testing.T) {
			if r := a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-mis", receive); r.status != 201 {
				t.Fatalf("first use of the key: %d %s", r.status, r.body)
			}
			other := map[string]any{"itemID": "ITEM-A", "units": 3, "wid": 1, "reasonCode": 1}
			wantError(t, a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-mis", other), 422, stockroom.EIDEMPOTENCY)
			wantError(t, a.postKey(t, tok, "/api/v1/Inventory/Issue", "k-mis", receive), 422, stockroom.EIDEMPOTENCY)
		})
		t.Run("KeysBelongToOneClient", func(t *testing.T) {
			other := a.clientToken(t, false, stockroom.PermReceive, stockroom.PermItemRead)
			before := a.ledgerSize(t, tok)
			if r := a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-shared", receive); r.status != 201 {
				t.Fatalf("first use of the key: %d %s", r.status, r.body)
			}
			if r := a.postKey(t, other, "/api/v1/Inventory/Receive", "k-shared", receive); r.status != 201 || r.header.Get("Idempotent-Replayed") != "" {
				t.Fatalf("another client's use of the key: %d %v", r.status, r.header)
			}
			if n := a.ledgerSize(t, tok); n != before+2 {
				t.Fatalf("ledger grew by %d, want 2", n-before)
			}
		})
		t.Run("ConcurrentRepeatsApplyOnce", func(t *testing.T) {
			before := a.ledgerSize(t, tok)
			var (
				wg     sync.WaitGroup
				mu     sync.Mutex
				bodies = map[string]int{}
				codes  = map[int]int{}
			)
			for range 16 {
				wg.Go(func() {
					r := a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-conc", receive)
					mu.Lock()
					defer mu.Unlock()
					codes[r.status]++
					if r.status == 201 {
						bodies[string(r.body)]++
					} else if r.status != 409 {
						t.Errorf("concurrent repeat: %d %s", r.status, r.body)
					}
				})
			}
			wg.Wait()
			if n := a.ledgerSize(t, tok); n != before+1 {
				t.Fatalf("16 concurrent repeats grew the ledger by %d (codes %v)", n-before, codes)
			}
			if len(bodies) != 1 {
				t.Fatalf("successful repeats returned %d different bodies", len(bodies))
			}
			if r := a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-conc", receive); r.status != 201 {
				t.Fatalf("after the race: %d", r.status)
			}
		})
		t.Run("ItemsAndErrorsToo", func(t *testing.T) {
			item := map[string]any{"shortID": "IDEM-1"}
			first := a.postKey(t, tok, "/api/v1/Item", "k-item", item)
			again := a.postKey(t, tok, "/api/v1/Item", "k-item", item)
			if first.status != 201 || again.status != 201 || again.header.Get("Location") != first.header.Get("Location") || string(again.body) != string(first.body) {
				t.Fatalf("item create repeat: %d %s / %d %s", first.status, first.body, again.status, again.body)
			}
			bad := map[string]any{"itemID": "ITEM-A", "units": -1, "wid": 1, "reasonCode": 1}
			r1 := a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-bad", bad)
			r2 := a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-bad", bad)
			if r1.status != 400 || r2.status != 400 || string(r1.body) != string(r2.body) || r2.header.Get("Idempotent-Replayed") != "true" {
				t.Fatalf("validation error repeat: %d / %d %v", r1.status, r2.status, r2.header)
			}
		})
		t.Run("BadKeys", func(t *testing.T) {
			for _, key := range []string{strings.Repeat("k", 256), "has space", "tab\tkey"} {
				wantError(t, a.postKey(t, tok, "/api/v1/Inventory/Receive", key, receive), 400, stockroom.EBADREQUEST)
			}
		})
		t.Run("ExpireAfter24Hours", func(t *testing.T) {
			before := a.ledgerSize(t, tok)
			if r := a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-old", receive); r.status != 201 {
				t.Fatalf("first use of the key: %d %s", r.status, r.body)
			}
			a.advance(23 * time.Hour)
			tok2 := a.token(t, a.adminID, a.adminSecret) // the first token has expired
			if r := a.postKey(t, tok2, "/api/v1/Inventory/Receive", "k-old", receive); r.header.Get("Idempotent-Replayed") != "true" {
				t.Fatal("a key of 23 hours ago was not remembered")
			}
			a.advance(time.Hour + time.Second)
			tok3 := a.token(t, a.adminID, a.adminSecret)
			if r := a.postKey(t, tok3, "/api/v1/Inventory/Receive", "k-old", receive); r.status != 201 || r.header.Get("Idempotent-Replayed") != "" {
				t.Fatal("a key of over 24 hours ago was still remembered")
			}
			if n := a.ledgerSize(t, tok3); n != before+2 {
				t.Fatalf("ledger grew by %d, want 2", n-before)
			}
			if n, err := a.svc.DeleteExpiredIdempotencyKeys(context.Background()); err != nil || n == 0 {
				t.Fatalf("sweep removed %d keys (%v); the older ones had expired", n, err)
			}
		})
	})
}

// TestIdempotencyAfterACrash covers requests whose server died mid-way: one
// that died before committing is run again by a repeat once its lease has
// passed; one that committed but never stored its response is never run
// twice.
func TestIdempotencyAfterACrash(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			db := testdb.MustOpen(t, engine)
			a := newAPIWith(t, db, service.Options{})
			other := newAPIWith(t, db, service.Options{}) // another instance on the same database
			tok := stockAPI(t, a)
			ctx := context.Background()
			p, err := a.svc.Authenticate(ctx, tok)
			if err != nil {
				t.Fatal(err)
			}
			receive := map[string]any{"itemID": "ITEM-A", "units": 2, "wid": 1, "reasonCode": 1}
			b, err := json.Marshal(receive)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(append([]byte("POST /api/v1/Inventory/Receive\n"), b...))
			hash := hex.EncodeToString(sum[:])

			// Died before committing: claimed, nothing applied.
			if o, _, err := a.svc.ClaimIdempotencyKey(ctx, p, "k-died", hash); err != nil || o != stockroom.ClaimNew {
				t.Fatalf("claim: %d %v", o, err)
			}
			r := other.postKey(t, tok, "/api/v1/Inventory/Receive", "k-died", receive)
			wantError(t, r, 409, stockroom.ECONFLICT)
			if r.header.Get("Retry-After") != "1" {
				t.Fatalf("409 while the first request may still run: Retry-After %q, want 1", r.header.Get("Retry-After"))
			}
			a.advance(stockroom.IdempotencyLease)
			other.advance(stockroom.IdempotencyLease)
			if r := other.postKey(t, tok, "/api/v1/Inventory/Receive", "k-died", receive); r.status != 201 {
				t.Fatalf("repeat after the lease of a dead request: %d %s", r.status, r.body)
			}

			// Committed, response lost: applied inside the transaction.
			if o, _, err := a.svc.ClaimIdempotencyKey(ctx, p, "k-lost", hash); err != nil || o != stockroom.ClaimNew {
				t.Fatalf("claim: %d %v", o, err)
			}
			if _, _, err := a.svc.Receive(a.svc.ApplyingContext(ctx, p, "k-lost"), p, stockroom.ReceiveRequest{ItemID: "ITEM-A", Units: 2_000_000, WID: 1, ReasonCode: 1}, &stockroom.Validation{}); err != nil {
				t.Fatal(err)
			}
			before := a.ledgerSize(t, tok)
			a.advance(stockroom.IdempotencyLease)
			other.advance(stockroom.IdempotencyLease)
			r = other.postKey(t, tok, "/api/v1/Inventory/Receive", "k-lost", receive)
			wantError(t, r, 409, stockroom.ECONFLICT)
			if r.header.Get("Retry-After") != "" {
				t.Fatalf("409 for a lost response says Retry-After %q; retrying cannot help", r.header.Get("Retry-After"))
			}
			if n := a.ledgerSize(t, tok); n != before {
				t.Fatalf("a request whose response was lost ran again: ledger %d -> %d", before, n)
			}
		})
	}
}

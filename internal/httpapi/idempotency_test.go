package httpapi_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/store"
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
			if first.status != 201 || again.status != 201 || !strings.HasPrefix(first.header.Get("Location"), "/api/v1/Item/") ||
				again.header.Get("Location") != first.header.Get("Location") || string(again.body) != string(first.body) {
				t.Fatalf("item create repeat: %d %s / %d %s", first.status, first.body, again.status, again.body)
			}
			bad := map[string]any{"itemID": "ITEM-A", "units": -1, "wid": 1, "reasonCode": 1}
			r1 := a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-bad", bad)
			r2 := a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-bad", bad)
			if r1.status != 400 || r2.status != 400 || string(r1.body) != string(r2.body) || r2.header.Get("Idempotent-Replayed") != "true" {
				t.Fatalf("validation error repeat: %d / %d %v", r1.status, r2.status, r2.header)
			}
		})
		t.Run("BodiesCompareAsJSONValues", func(t *testing.T) {
			send := func(body string) response {
				return a.do(t, "POST", "/api/v1/Inventory/Receive", strings.NewReader(body),
					"Authorization", "Bearer "+tok, "Content-Type", "application/json", "Idempotency-Key", "k-json")
			}
			before := a.ledgerSize(t, tok)
			first := send(`{"itemID":"ITEM-A","units":2,"wid":1,"reasonCode":1}`)
			same := send(`{ "reasonCode" : 1,
				"WID": 1, "units": 2.0, "itemID": "ITEM-A" }`)
			if first.status != 201 || same.status != 201 || same.header.Get("Idempotent-Replayed") != "true" || string(same.body) != string(first.body) {
				t.Fatalf("the same JSON value written differently: %d, then %d %v", first.status, same.status, same.header)
			}
			wantError(t, send(`{"itemID":"ITEM-A","units":2.5,"wid":1,"reasonCode":1}`), 422, stockroom.EIDEMPOTENCY)
			if n := a.ledgerSize(t, tok); n != before+1 {
				t.Fatalf("ledger grew by %d, want 1", n-before)
			}
		})
		t.Run("ARefusalReplaysLikeASuccess", func(t *testing.T) {
			issue := map[string]any{"itemID": "ITEM-B", "units": 1000, "wid": 1, "reasonCode": 20}
			first := a.postKey(t, tok, "/api/v1/Inventory/Issue", "k-short", issue)
			wantError(t, first, 409, stockroom.ECONFLICT)
			a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-restock", map[string]any{"itemID": "ITEM-B", "units": 5000, "wid": 1, "reasonCode": 1})
			again := a.postKey(t, tok, "/api/v1/Inventory/Issue", "k-short", issue)
			if again.status != 409 || string(again.body) != string(first.body) || again.header.Get("Idempotent-Replayed") != "true" {
				t.Fatalf("repeat of a refused issue after restocking: %d %s %v", again.status, again.body, again.header)
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

// TestRefusedKeyStoresNothing: a keyed request refused for the caller's
// rights (403: a read-only account, a missing permission, a warehouse out of
// scope) stores nothing under its key (contract §14), so that once the
// client may make it, the same request with the same key runs for real
// instead of replaying the refusal. A malformed key is reported after the
// permission, as any unreadable request is.
func TestRefusedKeyStoresNothing(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := stockAPI(t, a)
		receive := map[string]any{"itemID": "ITEM-A", "units": 2, "wid": 2, "reasonCode": 1}
		canReceive := []stockroom.Permission{stockroom.PermItemRead, stockroom.PermReceive}
		notReadOnly := false
		for _, tc := range []struct {
			name    string
			client  service.NewClient
			grant   stockroom.ClientChange
			message string
		}{
			{"ReadOnlyAccount", service.NewClient{Permissions: canReceive, Scope: stockroom.Scope{All: true}, ReadOnly: true},
				stockroom.ClientChange{ReadOnly: &notReadOnly}, stockroom.MsgReadOnly},
			{"MissingPermission", service.NewClient{Permissions: canReceive[:1], Scope: stockroom.Scope{All: true}},
				stockroom.ClientChange{Permissions: canReceive}, stockroom.MsgNoPermission},
			{"WarehouseOutOfScope", service.NewClient{Permissions: canReceive, Scope: stockroom.Scope{IDs: []int64{1}}},
				stockroom.ClientChange{Scope: &stockroom.Scope{All: true}}, stockroom.MsgOutOfScope},
		} {
			t.Run(tc.name, func(t *testing.T) {
				id, secret := a.addClient(t, tc.client)
				tok := a.token(t, id, secret)
				before := a.ledgerSize(t, admin)
				v := wantError(t, a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-refused", receive), 403, stockroom.EFORBIDDEN)
				if v["message"] != tc.message {
					t.Fatalf("refused with %q, want %q", v["message"], tc.message)
				}
				if tc.name != "WarehouseOutOfScope" {
					bad := a.postKey(t, tok, "/api/v1/Inventory/Receive", "has space", receive)
					wantError(t, bad, 403, stockroom.EFORBIDDEN)
				}
				if _, err := a.svc.UpdateClient(context.Background(), service.Operator, id, tc.grant); err != nil {
					t.Fatal(err)
				}
				r := a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-refused", receive)
				if r.status != 201 || r.header.Get("Idempotent-Replayed") != "" {
					t.Fatalf("the request once allowed: %d %v %s, want it run", r.status, r.header, r.body)
				}
				if again := a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-refused", receive); again.status != 201 ||
					again.header.Get("Idempotent-Replayed") != "true" || string(again.body) != string(r.body) {
					t.Fatalf("its repeat: %d %v, want the receipt replayed", again.status, again.header)
				}
				wantError(t, a.postKey(t, tok, "/api/v1/Inventory/Receive", "has space", receive), 400, stockroom.EBADREQUEST)
				if n := a.ledgerSize(t, admin); n != before+1 {
					t.Fatalf("ledger grew by %d, want 1", n-before)
				}
			})
		}
	})
}

// TestKeyHashedAfterPermission: the service makes a key's request hash, the
// work a body costs whoever sends it, only once the caller's permission is
// checked (contract §14). Refused, the key holds its request unhashed.
func TestKeyHashedAfterPermission(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := stockAPI(t, a)
		ctx := context.Background()
		body := []byte(`{"itemID":"ITEM-A","units":2,"wid":1,"reasonCode":1}`)
		in := stockroom.ReceiveRequest{ItemID: "ITEM-A", Units: stockroom.Whole(2), WID: 1, ReasonCode: 1}
		for _, tc := range []struct {
			name, tok string
			admitted  bool
		}{
			{"Refused", a.clientToken(t, false, stockroom.PermItemRead), false},
			{"Admitted", admin, true},
		} {
			t.Run(tc.name, func(t *testing.T) {
				p, err := a.svc.Authenticate(ctx, tc.tok)
				if err != nil {
					t.Fatal(err)
				}
				key, err := service.NewIdempotencyKey(p, "k-hash", "POST", "/api/v1/Inventory/Receive", body)
				if err != nil {
					t.Fatal(err)
				}
				key.Status = 201
				_, err = a.svc.Receive(ctx, p, service.Request[stockroom.ReceiveRequest]{In: in, Key: key})
				if (err == nil) != tc.admitted || (key.RequestHash != "") != tc.admitted {
					t.Fatalf("receipt: %v; request hash %q", err, key.RequestHash)
				}
			})
		}
	})
}

// TestIdempotencyThroughFaults covers what the chaos runs found: an answer
// that never reached its client is replayed, because it is recorded in the
// transaction of the change it answers; and the key of a request whose
// server died is free at once, because its lock dies with the session.
func TestIdempotencyThroughFaults(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		ctx := context.Background()
		p, err := a.svc.Authenticate(ctx, tok)
		if err != nil {
			t.Fatal(err)
		}
		receive := map[string]any{"itemID": "ITEM-A", "units": 2, "wid": 1, "reasonCode": 1}
		body, _ := json.Marshal(receive)

		t.Run("AnAnswerThatWasLostReplays", func(t *testing.T) {
			before := a.ledgerSize(t, tok)
			key, err := service.NewIdempotencyKey(p, "k-lost", "POST", "/api/v1/Inventory/Receive", body)
			if err != nil {
				t.Fatal(err)
			}
			key.Status = 201
			in := stockroom.ReceiveRequest{ItemID: "ITEM-A", Units: stockroom.Whole(2), WID: 1, ReasonCode: 1}
			first, err := a.svc.Receive(ctx, p, service.Request[stockroom.ReceiveRequest]{In: in, Key: key})
			if err != nil {
				t.Fatal(err)
			}
			// The answer is lost on its way; the client repeats.
			r := a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-lost", receive)
			if r.status != 201 || r.header.Get("Idempotent-Replayed") != "true" {
				t.Fatalf("repeat of an applied request: %d %v %s", r.status, r.header, r.body)
			}
			if got := decode[stockroom.ReceiveResult](t, r); got.TransactionID != first.TransactionID {
				t.Fatalf("replayed transaction %d, first %d", got.TransactionID, first.TransactionID)
			}
			if n := a.ledgerSize(t, tok); n != before+1 {
				t.Fatalf("ledger grew by %d, want 1", n-before)
			}
		})
		t.Run("ADeadRequestsKeyIsFreeAtOnce", func(t *testing.T) {
			if a.db.Engine() != store.Postgres {
				t.Skip("on SQLite writes of one key never run side by side")
			}
			release, err := a.db.HoldKeyForTest(ctx, p.ClientID, "k-died")
			if err != nil {
				t.Fatal(err)
			}
			before := a.ledgerSize(t, tok)
			r := a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-died", receive)
			wantError(t, r, 409, stockroom.ECONFLICT)
			if r.header.Get("Retry-After") != "1" {
				t.Fatalf("409 while the first request may still run: Retry-After %q, want 1", r.header.Get("Retry-After"))
			}
			release() // its server dies: no lease, no timer
			// PostgreSQL ends the dead session's transaction, and its lock,
			// as soon as it reads the closed socket: a retry may meet the
			// lock for a moment, never for the old 90 s lease.
			deadline := time.Now().Add(5 * time.Second)
			r = a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-died", receive)
			for r.status == 409 && r.header.Get("Retry-After") == "1" && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
				r = a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-died", receive)
			}
			if r.status != 201 || r.header.Get("Idempotent-Replayed") != "" {
				t.Fatalf("repeat once the holder died: %d %s", r.status, r.body)
			}
			if n := a.ledgerSize(t, tok); n != before+1 {
				t.Fatalf("ledger grew by %d, want 1", n-before)
			}
		})
	})
}

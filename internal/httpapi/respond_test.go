package httpapi_test

import (
	"testing"

	"github.com/stockroom/stockroom"
)

// TestJSONAnswersAreNeitherSniffedNorStored: a success, an error, a replay
// and a 429 all carry nosniff and no-store (contract §14). (The harness holds
// every JSON answer of every test to the same.)
func TestJSONAnswersAreNeitherSniffedNorStored(t *testing.T) {
	a, _ := limitedAPI(t, 6)
	tok := stockAPI(t, a)
	receive := map[string]any{"itemID": "ITEM-A", "units": 2, "wid": 1, "reasonCode": 1}
	first := a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-headers", receive)
	replay := a.postKey(t, tok, "/api/v1/Inventory/Receive", "k-headers", receive)
	if first.status != 201 || replay.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("receive %d, then %d replayed %q", first.status, replay.status, replay.header.Get("Idempotent-Replayed"))
	}
	refused := a.get(t, "/api/v1/Item/NO-SUCH-ITEM", tok)
	wantError(t, refused, 404, stockroom.ENOTFOUND)
	var limited response
	for range 10 {
		if limited = a.get(t, "/api/v1/Warehouse", tok); limited.status == 429 {
			break
		}
	}
	for name, r := range map[string]response{"success": first, "replay": replay, "error": refused, "429": limited} {
		if r.header.Get("X-Content-Type-Options") != "nosniff" || r.header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s (%d): X-Content-Type-Options %q, Cache-Control %q", name, r.status,
				r.header.Get("X-Content-Type-Options"), r.header.Get("Cache-Control"))
		}
	}
	if limited.status != 429 {
		t.Fatalf("no 429 after 10 requests over a budget of 6: %d", limited.status)
	}
}

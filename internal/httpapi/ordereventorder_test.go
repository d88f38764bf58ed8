package httpapi_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/testdb"
)

// TestOrderEventsFollowChanges: six clients commit and uncommit lines of
// one shipping order at once; the feed's last event of the order is the
// order as GET then shows it. On PostgreSQL the feed is ordered by the
// writing transactions' xids, taken at a transaction's first write; an
// order's changes are ordered by its header's lock, which is each change's
// first write, so the two orders agree. (Levels needed levels.writer,
// migration 19, because a change locks several level rows one after
// another; this holds orders to the simpler rule. With an xid taken 10 ms
// before the header's lock, in store.orderAction, it failed 1 run of 3.)
func TestOrderEventsFollowChanges(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		a.addCustomer(t, ownerA)
		a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 100, "wid": 1, "reasonCode": 1}, 201)
		var lines []any
		for range 4 {
			lines = append(lines, map[string]any{"itemID": "ITEM-A", "units": 10, "wid": 1})
		}
		r := a.send(t, "POST", "/api/v1/ShippingOrder", tok, map[string]any{"customerID": ownerA, "lines": lines})
		so := decode[stockroom.ShippingOrder](t, r)
		if r.status != 201 {
			t.Fatalf("create: %d %s", r.status, r.body)
		}
		path := "/api/v1/ShippingOrder/" + so.SONo
		var wg sync.WaitGroup
		for g := range 6 {
			wg.Go(func() {
				rng := rand.New(rand.NewPCG(uint64(g), 41))
				for range 15 {
					action := []string{"/Commit", "/Uncommit"}[rng.IntN(2)]
					body, _ := json.Marshal(map[string]any{"lines": []any{map[string]any{"line": 1 + rng.IntN(4), "units": 1 + rng.IntN(3)}}})
					r, err := a.try("POST", path+action, tok, body)
					if err == nil && r.status/100 != 2 && r.status != 409 {
						err = fmt.Errorf("%d %s", r.status, r.body)
					}
					if err != nil {
						t.Errorf("POST %s %s: %v", action, body, err)
						return
					}
				}
			})
		}
		wg.Wait()
		if t.Failed() {
			return
		}
		testdb.SettleFeed(t, a.db)
		var last []byte
		events := 0
		for _, e := range a.feedAll(t, tok) {
			if e.Subject.Kind == stockroom.OrderKindShipping.EventKind() && e.Subject.ID == so.SONo {
				last, events = e.Data, events+1
			}
		}
		var fromFeed, shown map[string]any
		decodeJSON(t, last, &fromFeed)
		decodeJSON(t, a.get(t, path, tok).body, &shown)
		if !reflect.DeepEqual(fromFeed, shown) {
			t.Fatalf("after %d events of the order, the feed's last has\n%v\nGET shows\n%v", events, fromFeed, shown)
		}
		if events < 10 {
			t.Fatalf("only %d events of the order: the mix changed too little", events)
		}
		a.auditClean(t)
	})
}

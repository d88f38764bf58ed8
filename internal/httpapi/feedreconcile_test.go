package httpapi_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stockroom/stockroom"
)

// TestFeedReconciles: after a concurrent mix of every operation that
// changes stock (receive, issue, move, hold and release by the stock mix;
// purchase orders received against, noticed, closed and canceled;
// shipping orders committed, packed, shipped, uncommitted and canceled;
// work orders committed, completed and canceled; transfers received and
// canceled) by several owners in three warehouses, replaying the feed's
// stocklevel.changed events from its start gives, per item, warehouse and
// owner, exactly the six figures GET /Inventory/StockLevels shows, and the
// audit finds nothing.
//
// It failed on PostgreSQL before migration 19 (levels.writer), in 3 of 8
// runs: a row's last two events were of transactions whose xids were in
// the other order than their changes (xid 28570 with inStock 11 after xid
// 28572 with inStock 10), so the replay ended on the older figures.
func TestFeedReconciles(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok, items, owners := ownersMixAPI(t, a)
		a.mustPost(t, tok, "/api/v1/Vendor", map[string]any{"shortID": "BOLTCO", "name": "Boltco Supplies"}, 201)
		m := newHTTPMix(owners...)
		f := &orderMix{a: a, tok: tok, items: items, owners: owners}
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				rng := rand.New(rand.NewPCG(uint64(g), 40))
				for i := range 30 {
					ref := fmt.Sprintf("g%d-%d", g, i)
					var err error
					if rng.IntN(2) == 0 {
						err = a.mixStep(tok, m, items, rng, ref)
					} else {
						err = f.step(rng, ref)
					}
					if err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		if t.Failed() {
			return
		}
		feed := a.feedAll(t, tok)
		checkFeedCovers(t, feed)
		replayed := replayLevels(t, feed)
		for wid := int64(1); wid <= 3; wid++ {
			for _, owner := range owners {
				shown := decode[page[stockroom.StockLevel]](t, a.get(t, fmt.Sprintf("/api/v1/Inventory/StockLevels/%d?owner=%d&includeZero=true&pageSize=100", wid, owner), tok))
				if len(shown.Value) != len(items) {
					t.Fatalf("StockLevels/%d?owner=%d: %d rows, want one per item", wid, owner, len(shown.Value))
				}
				for _, l := range shown.Value {
					k := levelKey{l.ShortID, wid, owner}
					if got := replayed[k]; !sameFigures(got, l) {
						t.Errorf("%s in warehouse %d for owner %d: the feed replays %+v, GET shows %+v", l.ShortID, wid, owner, figures(got), figures(l))
					}
					delete(replayed, k)
				}
			}
		}
		for k, l := range replayed {
			t.Errorf("the feed has levels of %+v that no GET shows: %+v", k, figures(l))
		}
		a.auditClean(t)
	})
}

// levelKey is a level row: item, warehouse and owner.
type levelKey struct {
	shortID    string
	wid, owner int64
}

// replayLevels applies every stocklevel.changed of the feed in its order:
// the last one of each row is what the feed says the row is.
func replayLevels(t *testing.T, feed []stockroom.Event) map[levelKey]stockroom.StockLevel {
	t.Helper()
	out := map[levelKey]stockroom.StockLevel{}
	for _, e := range feed {
		if e.Type != stockroom.EventStockLevelChanged {
			continue
		}
		var l stockroom.StockLevel
		decodeJSON(t, e.Data, &l)
		if l.ShortID != e.Subject.ID {
			t.Fatalf("stocklevel.changed of %q carries the level of %q", e.Subject.ID, l.ShortID)
		}
		out[levelKey{l.ShortID, e.WID, e.Owner}] = l
	}
	return out
}

// figures are a level's figures, in a form that prints well.
func figures(l stockroom.StockLevel) [7]string {
	return [7]string{"inStock " + l.InStock.String(), "onHold " + l.OnHold.String(), "committed " + l.Committed.String(),
		"packed " + l.Packed.String(), "onOrder " + l.OnOrder.String(), "aSN " + l.ASN.String(), "available " + l.Available.String()}
}

func sameFigures(a, b stockroom.StockLevel) bool { return figures(a) == figures(b) }

// checkFeedCovers fails the test unless the mix did what it is for: every
// kind of change that moves a figure is in the feed.
func checkFeedCovers(t *testing.T, feed []stockroom.Event) {
	t.Helper()
	seen := map[stockroom.EventType]int{}
	for _, e := range feed {
		seen[e.Type]++
	}
	var missing []stockroom.EventType
	for _, typ := range []stockroom.EventType{
		stockroom.EventReceived, stockroom.EventIssued, stockroom.EventMoved, stockroom.EventHeld, stockroom.EventReleased,
		stockroom.EventTransitShipped, stockroom.EventTransitReceived, stockroom.EventTransitCanceled,
		"purchaseorder.created", "purchaseorder.received", "purchaseorder.closed", "purchaseorder.canceled",
		"shippingorder.created", "shippingorder.committed", "shippingorder.packed", "shippingorder.shipped", "shippingorder.canceled",
		"workorder.created", "workorder.committed", "workorder.completed", "workorder.canceled",
	} {
		if seen[typ] == 0 {
			missing = append(missing, typ)
		}
	}
	if len(missing) > 0 {
		t.Errorf("the mix made no %v; it made %v", missing, seen)
	}
}

// orderMix sends the steps of orders and transits: each a short story of
// an order or transfer of a random item, warehouse and owner.
type orderMix struct {
	a      *api
	tok    string
	items  []string
	owners []int64
}

// step runs one story.
func (f *orderMix) step(rng *rand.Rand, ref string) error {
	item, wid, owner := f.items[rng.IntN(len(f.items))], int64(1+rng.IntN(3)), f.owners[rng.IntN(len(f.owners))]
	switch rng.IntN(4) {
	case 0:
		return f.purchase(rng, ref, item, wid, owner)
	case 1:
		return f.shipping(rng, item, wid, owner)
	case 2:
		return f.work(rng, wid, owner)
	default:
		return f.transfer(rng, ref, item, wid, owner)
	}
}

// send sends one request of a story: a success decodes into out (when not
// nil) and is true; a refusal by the state of the stock or order (409) is
// false; anything else is an error.
func (f *orderMix) send(path string, body any, out any) (bool, error) {
	var b []byte // no body
	if body != nil {
		var err error
		if b, err = json.Marshal(body); err != nil {
			return false, err
		}
	}
	r, err := f.a.try("POST", "/api/v1/"+path, f.tok, b)
	switch {
	case err != nil:
		return false, fmt.Errorf("POST %s %s: %w", path, b, err)
	case r.status == 409:
		return false, nil
	case r.status/100 != 2:
		return false, fmt.Errorf("POST %s %s: %d %s", path, b, r.status, r.body)
	case out != nil:
		return true, json.Unmarshal(r.body, out)
	}
	return true, nil
}

// purchase orders 6 and receives some against the line, or has them
// noticed and receives or cancels the notice, or closes or cancels it.
func (f *orderMix) purchase(rng *rand.Rand, ref, item string, wid, owner int64) error {
	var po stockroom.PurchaseOrder
	if _, err := f.send("PurchaseOrder", map[string]any{"vendorID": "BOLTCO", "lines": []any{
		map[string]any{"itemID": item, "units": 6, "unitPrice": 1, "warehouse": wid, "owner": owner}}}, &po); err != nil {
		return err
	}
	path := "PurchaseOrder/" + po.PONo
	switch rng.IntN(4) {
	case 0:
		_, err := f.send(path+"/Cancel", nil, nil)
		return err
	case 1:
		var tr stockroom.Transit
		if _, err := f.send(path+"/Ship", map[string]any{"asn": ref, "lines": []any{map[string]any{"line": 1, "units": 4}}}, &tr); err != nil {
			return err
		}
		end := "/Receive"
		if rng.IntN(2) == 0 {
			end = "/Cancel"
		}
		_, err := f.send(fmt.Sprintf("Transit/%d%s", tr.ID, end), map[string]any{}, nil)
		return err
	}
	if _, err := f.send("Inventory/Receive", map[string]any{"itemID": item, "units": 1 + rng.IntN(6), "wid": wid, "reasonCode": 1,
		"poNo": po.PONo, "line": 1}, nil); err != nil || rng.IntN(2) == 0 {
		return err
	}
	_, err := f.send(path+"/Close", nil, nil)
	return err
}

// shipping orders up to 3 for a customer and commits them; then packs
// one, ships, uncommits or cancels.
func (f *orderMix) shipping(rng *rand.Rand, item string, wid, owner int64) error {
	var so stockroom.ShippingOrder
	if _, err := f.send("ShippingOrder", map[string]any{"customerID": ownerA, "lines": []any{
		map[string]any{"itemID": item, "units": 1 + rng.IntN(3), "wid": wid, "owner": owner}}}, &so); err != nil {
		return err
	}
	path := "ShippingOrder/" + so.SONo
	committed, err := f.send(path+"/Commit", map[string]any{}, nil)
	if err != nil {
		return err
	}
	action, body := []string{"/Pack", "/Ship", "/Uncommit", "/Cancel"}[rng.IntN(4)], any(map[string]any{})
	if !committed {
		action = "/Cancel"
	}
	if action == "/Pack" {
		body = map[string]any{"lines": []any{map[string]any{"line": 1, "units": 1}}}
	}
	if _, err := f.send(path+action, body, nil); err != nil || action != "/Pack" {
		return err
	}
	_, err = f.send(path+"/Ship", map[string]any{}, nil)
	return err
}

// work orders 2 of ITEM-C from one ITEM-A each, then commits and
// completes one, completes one without a commit, or commits and cancels.
func (f *orderMix) work(rng *rand.Rand, wid, owner int64) error {
	var wo stockroom.WorkOrder
	if _, err := f.send("WorkOrder", map[string]any{"itemID": "ITEM-C", "units": 2, "wid": wid, "owner": owner,
		"components": []any{map[string]any{"itemID": "ITEM-A", "units": 1}}}, &wo); err != nil {
		return err
	}
	path := "WorkOrder/" + wo.WONo
	story := rng.IntN(3)
	if story != 1 {
		if _, err := f.send(path+"/Commit", map[string]any{}, nil); err != nil {
			return err
		}
	}
	if story == 2 {
		_, err := f.send(path+"/Cancel", nil, nil)
		return err
	}
	_, err := f.send(path+"/Complete", map[string]any{"units": 1}, nil)
	return err
}

// transfer sends up to 3 to another warehouse in transit, then receives
// all, receives one, cancels, or leaves it in transit.
func (f *orderMix) transfer(rng *rand.Rand, ref, item string, wid, owner int64) error {
	var moved stockroom.DrawResult
	ok, err := f.send("Inventory/Move", map[string]any{"itemID": item, "units": 1 + rng.IntN(3), "wid": wid, "owner": owner,
		"shipToWid": 1 + wid%3, "transitSlip": ref}, &moved)
	if err != nil || !ok || moved.TransitID == nil {
		return err
	}
	path := fmt.Sprintf("Transit/%d", *moved.TransitID)
	switch rng.IntN(4) {
	case 0:
		_, err = f.send(path+"/Receive", map[string]any{}, nil)
	case 1:
		_, err = f.send(path+"/Receive", map[string]any{"lines": []any{map[string]any{"line": 1, "units": 1}}}, nil)
	case 2:
		_, err = f.send(path+"/Cancel", nil, nil)
	}
	return err
}

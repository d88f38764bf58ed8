package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// feedTo follows GET /Events from after until it has read want events or
// a minute passed, and returns what it read and the last cursor. (On
// PostgreSQL an event is readable once every transaction older than its
// own, of any database of the server, has ended.)
func (a *api) feedTo(t *testing.T, tok, after, query string, want int) ([]stockroom.Event, string) {
	t.Helper()
	var all []stockroom.Event
	for end := time.Now().Add(time.Minute); len(all) < want && time.Now().Before(end); {
		p := decode[stockroom.EventPage](t, a.get(t, "/api/v1/Events?wait=2&after="+url.QueryEscape(after)+query, tok))
		all = append(all, p.Value...)
		after = p.Cursor
	}
	return all, after
}

func TestEvents(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		items, start := a.feedTo(t, tok, "", "", 2)
		if len(items) != 2 || items[0].Type != stockroom.EventItemCreated || items[0].Subject.ID != "ITEM-A" {
			t.Fatalf("events %+v, want the fixture's two items'", items)
		}
		lot := a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 5, "wid": 1, "reasonCode": 1}, 201)
		a.mustPost(t, tok, "/api/v1/Inventory/Move", map[string]any{"itemID": "ITEM-A", "units": 2, "wid": 1, "shipToWid": 2, "toSpot": "R"}, 200)
		es, cursor := a.feedTo(t, tok, start, "", 5)
		if len(es) != 5 || es[1].Type != stockroom.EventReceived || es[4].Type != stockroom.EventMoved {
			t.Fatalf("events %+v, want a receipt's two and a move's three", es)
		}
		if es[1].Subject.ID != jsonText(lot["recNo"]) || es[1].WID != 1 || es[4].ToWID == nil || *es[4].ToWID != 2 {
			t.Errorf("receipt %+v, move %+v", es[1], es[4])
		}
		level := a.levelOf(t, tok, "ITEM-A", 2)
		var shown stockroom.StockLevel
		decodeJSON(t, es[3].Data, &shown)
		if es[3].WID != 2 || shown.InStock != level.InStock || shown.Available != level.Available {
			t.Errorf("stocklevel.changed of warehouse 2 %+v, level %+v", es[3], level)
		}

		t.Run("EmptyPageKeepsTheCursor", func(t *testing.T) {
			p := decode[stockroom.EventPage](t, a.get(t, "/api/v1/Events?after="+cursor, tok))
			if len(p.Value) != 0 || p.Cursor != cursor || p.HasMore {
				t.Fatalf("after the last event: %+v", p)
			}
		})
		t.Run("LimitAndTypes", func(t *testing.T) {
			p := decode[stockroom.EventPage](t, a.get(t, "/api/v1/Events?limit=1&types=inventory.moved,inventory.received", tok))
			if len(p.Value) != 1 || p.Value[0].Type != stockroom.EventReceived || !p.HasMore || p.Cursor != p.Value[0].ID {
				t.Fatalf("first of two: %+v", p)
			}
			p = decode[stockroom.EventPage](t, a.get(t, "/api/v1/Events?limit=1&types=inventory.moved,inventory.received&after="+p.Cursor, tok))
			if len(p.Value) != 1 || p.Value[0].Type != stockroom.EventMoved || p.HasMore {
				t.Fatalf("second of two: %+v", p)
			}
		})
		t.Run("AnotherWarehouseSeesNothingOfThis", func(t *testing.T) {
			id, secret := a.addClient(t, service.NewClient{Permissions: []stockroom.Permission{stockroom.PermItemRead}, Scope: stockroom.Scope{IDs: []int64{2}}})
			p := decode[stockroom.EventPage](t, a.get(t, "/api/v1/Events?after="+start, a.token(t, id, secret)))
			if len(p.Value) != 2 || p.Value[0].WID != 2 || p.Value[1].Type != stockroom.EventMoved {
				t.Fatalf("warehouse 2's client sees %+v, want the move's level in 2 and the move", p.Value)
			}
		})
		t.Run("LongPollWakesAtTheEvent", func(t *testing.T) {
			got := make(chan response, 1)
			start := time.Now()
			go func() { got <- a.get(t, "/api/v1/Events?wait=20&after="+cursor, tok) }()
			time.Sleep(200 * time.Millisecond)
			sent := time.Now()
			a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-B", "units": 1, "wid": 1, "reasonCode": 1}, 201)
			r := <-got
			p := decode[stockroom.EventPage](t, r)
			if len(p.Value) == 0 || time.Since(start) < 200*time.Millisecond {
				t.Fatalf("long poll answered %+v after %v", p, time.Since(start))
			}
			if d := time.Since(sent); d > 800*time.Millisecond {
				t.Errorf("long poll answered %v after the receipt, want well under a second", d)
			}
		})
	})
}

func jsonText(v any) string {
	b, _ := stockroom.MarshalAnswer(v)
	return string(b[:len(b)-1])
}

func TestEventRefusals(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		for _, tc := range []struct{ query, field string }{
			{"after=nonsense", "after"},
			{"after=" + (stockroom.EventCursor{Seq: 1}).String() + "x", "after"},
			{"limit=0", "limit"},
			{"limit=1001", "limit"},
			{"limit=ten", "limit"},
			{"wait=61", "wait"},
			{"wait=-1", "wait"},
			{"types=inventory.received,inventory.stolen", "types"},
		} {
			v := wantError(t, a.get(t, "/api/v1/Events?"+tc.query, tok), 400, stockroom.EINVALID)
			if got := detailFields(v); len(got) != 1 || got[0] != tc.field {
				t.Errorf("%s: details %v, want %s", tc.query, got, tc.field)
			}
		}
		t.Run("WithoutPermission11", func(t *testing.T) {
			wantError(t, a.get(t, "/api/v1/Events?limit=0", a.clientToken(t, false, stockroom.PermReceive)), 403, stockroom.EFORBIDDEN)
		})
		t.Run("CursorOlderThanTheEventsKept", func(t *testing.T) {
			a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 5, "wid": 1, "reasonCode": 1}, 201)
			es, _ := a.feedTo(t, tok, "", "", 4) // the fixture's items', the receipt's
			if _, err := a.db.PruneEvents(context.Background(), time.Now().Add(time.Hour), 1000); err != nil {
				t.Fatal(err)
			}
			wantError(t, a.get(t, "/api/v1/Events?after="+es[0].ID, tok), 410, stockroom.ECURSOREXPIRED)
			if r := a.get(t, "/api/v1/Events?after="+es[len(es)-1].ID, tok); r.status != 200 {
				t.Fatalf("the last event pruned as cursor: %d %s", r.status, r.body)
			}
		})
	})
}

func decodeJSON(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
}

// feedAll reads the whole feed the token's client sees, to a page that
// stays empty for a second.
func (a *api) feedAll(t *testing.T, tok string) []stockroom.Event {
	t.Helper()
	var all []stockroom.Event
	for after := ""; ; {
		p := decode[stockroom.EventPage](t, a.get(t, "/api/v1/Events?limit=1000&wait=1&after="+url.QueryEscape(after), tok))
		if len(p.Value) == 0 {
			return all
		}
		all, after = append(all, p.Value...), p.Cursor
	}
}

// TestEventsHideWhatGETHides: a client limited to owner A reads in the
// feed nothing of owner B's (items, aliases, stock, orders, transits), only
// A's lines of orders of both, no other client's id, and not the customer
// or texts of a shipping order to B; the administrator reads them all.
func TestEventsHideWhatGETHides(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin, _, limited := boundaryAPI(t, a)
		hiddenRecords(t, a, admin)
		seen := a.feedAll(t, limited)
		kinds := map[string]bool{}
		for _, e := range seen {
			kinds[e.Subject.Kind] = true
			text := string(e.Data)
			if e.Owner == ownerB || e.ClientID != "" || strings.Contains(text, "THEIRS") || strings.Contains(text, "B's") ||
				strings.Contains(text, `"createdBy":"cl-`) || strings.Contains(text, fmt.Sprintf(`"owner":%d`, ownerB)) {
				t.Errorf("owner A's client reads %s of %+v, owner %d, client %q: %s", e.Type, e.Subject, e.Owner, e.ClientID, text)
			}
			if e.Subject == (stockroom.EventSubject{Kind: "shippingorder", ID: "SO-MIX"}) {
				var o stockroom.ShippingOrder
				decodeJSON(t, e.Data, &o)
				if o.CustomerID != 0 || len(o.Lines) != 1 || o.Lines[0].Owner != ownerA {
					t.Errorf("owner A's client reads SO-MIX as %s", e.Data)
				}
			}
		}
		for _, k := range []string{"item", "alias", "purchaseorder", "shippingorder", "transit"} {
			if !kinds[k] {
				t.Errorf("owner A's client reads no %s event; kinds %v", k, kinds)
			}
		}
		var words bool
		for _, e := range a.feedAll(t, admin) {
			words = words || strings.Contains(string(e.Data), "B's own words")
		}
		if !words {
			t.Error("the administrator does not read SO-MIX's reference")
		}
	})
}

package httpapi_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// TestWebhookOwnerLosesRights: a subscription is delivered for as long as
// its client is enabled and holds permission 370. Once the client loses
// 370, or is disabled, no event committed after that is sent; the
// subscription keeps its position and state (disableType 0: the client's rights, not its
// receiver, stopped it), and when the client has them again it is sent the
// events it missed, in feed order, from the first not delivered.
func TestWebhookOwnerLosesRights(t *testing.T) {
	eachWebhookEngine(t, func(t *testing.T, a *api) {
		admin := stockAPI(t, a)
		perms := []stockroom.Permission{stockroom.PermItemRead, stockroom.PermWebhooks}
		id, secret := a.addClient(t, service.NewClient{Name: "hooks", Permissions: perms, Scope: stockroom.Scope{All: true}})
		tok := a.token(t, id, secret)
		a.runWebhooks(t)
		rc := newReceiver(t)
		wh := a.subscribe(t, tok, rc, "inventory.received")
		receive := func() {
			t.Helper()
			a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "reasonCode": 1}, 201)
		}
		nothingSent := func(what string, had int) {
			t.Helper()
			time.Sleep(500 * time.Millisecond) // ten of the worker's polls
			if got := len(rc.events()); got != had {
				t.Fatalf("%s: the receiver got %d deliveries, had %d", what, got, had)
			}
		}
		receive()
		waitFor(t, "the first delivery", func() bool { return len(rc.events()) == 1 })

		ctx := context.Background()
		if _, err := a.svc.UpdateClient(ctx, service.Operator, id, stockroom.ClientChange{Permissions: []stockroom.Permission{stockroom.PermItemRead}}); err != nil {
			t.Fatal(err)
		}
		receive()
		nothingSent("after the client lost 370", 1)
		if _, err := a.svc.UpdateClient(ctx, service.Operator, id, stockroom.ClientChange{Permissions: perms}); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the missed event once 370 is back", func() bool { return len(rc.events()) == 2 })
		if got := decode[stockroom.Webhook](t, a.get(t, fmt.Sprintf("/api/v1/Webhook/%d", wh.Rec), tok)); !got.Active || got.DisableType != 0 || got.FailureCount != 0 {
			t.Fatalf("the subscription after the pause: %+v", got)
		}

		if err := a.svc.SetClientEnabled(ctx, service.Operator, id, false); err != nil {
			t.Fatal(err)
		}
		receive()
		receive()
		nothingSent("after the client was disabled", 2)
		if err := a.svc.SetClientEnabled(ctx, service.Operator, id, true); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the missed events once enabled", func() bool { return len(rc.events()) == 4 })
		feed, _ := a.feedTo(t, admin, "", "&types=inventory.received", 4)
		if got := eventIDs(rc.events()); fmt.Sprint(got) != fmt.Sprint(eventIDs(feed)) {
			t.Fatalf("deliveries %v, feed %v", got, eventIDs(feed))
		}
	})
}

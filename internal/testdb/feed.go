package testdb

import (
	"context"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store"
)

// SettleFeed waits until every event committed before it is readable in
// db's feed. On PostgreSQL an event is readable once every transaction
// older than its own has ended, in any database of the server: another
// test's, running beside this one, can hold it back. A test that takes the
// end of the feed as readable (what a new subscription starts from) calls
// it first, so that events committed before are not left behind that end.
func SettleFeed(tb testing.TB, db *store.DB) {
	tb.Helper()
	f := stockroom.EventFilter{Limit: stockroom.MaxEventLimit, Warehouses: stockroom.Scope{All: true}}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		r, err := db.ReadEvents(context.Background(), f)
		if err != nil {
			tb.Fatal(err)
		}
		if len(r.Events) > 0 {
			var v stockroom.Validation
			f.After = stockroom.ParseEventCursor(r.Events[min(len(r.Events), f.Limit)-1].ID, "id", &v)
		}
		switch {
		case len(r.Events) > f.Limit:
		case !r.Behind:
			return
		case time.Now().After(deadline):
			tb.Fatal("events committed a minute ago are still not readable")
		}
	}
}

package httpapi_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/httpapi"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// TestCSVExportFromReplica runs a server on a scratch primary with a real
// streaming replica (serve --db-replica): exports read from the replica
// (what it has not replayed yet is not in them, and once it has caught up
// an export is the list's rows), and from the primary while the replica is
// down, with one warning in the log for the outage.
func TestCSVExportFromReplica(t *testing.T) {
	pair := testdb.StartReplica(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	db, err := store.Open(ctx, pair.Primary)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	logs := &httpapi.LogBuffer{}
	if err := db.OpenReplica(ctx, pair.Standby, slog.New(slog.NewJSONHandler(logs, nil))); err != nil {
		t.Fatal(err)
	}
	a := newAPIWith(t, db, service.Options{})
	admin := stockAPI(t, a)
	receive := func(spot string) {
		a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 1.5, "wid": 1, "spot": spot, "reasonCode": 1}, 201)
	}
	receive("R-1")
	receive("R-2")
	pair.CaughtUp(ctx)
	a.sameAsJSON(t, "/api/v1/Inventory", "lots.csv", admin)

	// Served by the replica: a lot it has not replayed is not there yet.
	pair.Exec(pair.Standby, "SELECT pg_wal_replay_pause()::text")
	receive("R-3")
	rows := csvRows(t, a.getCSV(t, "/api/v1/Inventory", admin), "lots.csv")
	if got := column(t, rows, "spot"); strings.Join(got, ",") != "R-2,R-1" {
		t.Errorf("spots %q from a replica paused before R-3", got)
	}
	// Reports too: the page and the CSV of a valuation without R-3.
	valuation := reportPath(stockroom.ReportStockValuation, nil)
	if p := decode[reportPage[stockroom.ValuationRow]](t, a.get(t, valuation, admin)); len(p.Value) != 1 || p.Value[0].Units != u("3") {
		t.Errorf("valuation %+v from a replica paused before R-3, want 3 units", p.Value)
	}
	rows = csvRows(t, a.getCSV(t, valuation, admin), reportCSV(stockroom.ReportStockValuation))
	if got := column(t, rows, "units"); strings.Join(got, ",") != "3" {
		t.Errorf("valuation CSV units %q from a replica paused before R-3, want 3", got)
	}
	pair.Exec(pair.Standby, "SELECT pg_wal_replay_resume()::text")
	pair.CaughtUp(ctx)
	rows = a.sameAsJSON(t, "/api/v1/Inventory/StockLevels", "stocklevels.csv", admin)
	if got := column(t, rows, "inStock"); strings.Join(got, ",") != "4.5" {
		t.Errorf("inStock %q once the replica caught up, want 4.5", got)
	}

	// The replica down: the primary answers, and the log says so once.
	pair.StopStandby()
	receive("R-4")
	for range 3 {
		rows = a.sameAsJSON(t, "/api/v1/Inventory", "lots.csv", admin)
	}
	if len(rows) != 5 {
		t.Errorf("%d rows from the primary, want the header and 4 lots", len(rows))
	}
	if p := decode[reportPage[stockroom.ValuationRow]](t, a.get(t, valuation, admin)); len(p.Value) != 1 || p.Value[0].Units != u("6") {
		t.Errorf("valuation %+v from the primary, want 6 units", p.Value)
	}
	a.sameAsJSON(t, valuation, reportCSV(stockroom.ReportStockValuation), admin)
	if n := strings.Count(logs.String(), "database replica not answering"); n != 1 {
		t.Errorf("%d warnings of the outage, want 1:\n%s", n, logs.String())
	}
	if !strings.Contains(logs.String(), `"level":"WARN"`) {
		t.Errorf("the outage is not a warning:\n%s", logs.String())
	}
}

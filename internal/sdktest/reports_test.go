package sdktest_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
	"github.com/stockroom/stockroom/internal/service"
)

// TestReports proves that a program using only the SDK can list the
// reports it may run and read their typed rows, every page of them, and is
// told apart when it may not run one.
func TestReports(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	c := s.admin(t)
	ctx := context.Background()
	sku := unique("REPORT")
	mustCreateItem(t, c, sku)
	mustReceive(t, c, sku, units(t, "4"), 1, "A")
	if _, err := c.Receive(ctx, client.ReceiveRequest{ItemID: sku, Units: units(t, "2"), WID: 1, ReasonCode: 1, Price: units(t, "1.5")}); err != nil {
		t.Fatal(err)
	}

	reports, err := c.ListReports(ctx)
	if err != nil || len(reports) != len(stockroom.Reports) || reports[0].Columns[0] != "partNo" {
		t.Fatalf("ListReports: %v %+v", err, reports)
	}
	var rows []stockroom.ValuationRow
	for row, err := range c.StockValuation(ctx, client.ReportOptions{PageSize: 1}) {
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row)
	}
	if len(rows) != 1 || rows[0].ItemID != sku || rows[0].Units != units(t, "6") || rows[0].TotalValue != units(t, "3") || rows[0].UnitCost != units(t, "0.5") {
		t.Fatalf("valuation rows %+v", rows)
	}
	var buf bytes.Buffer
	if _, err := c.ExportReportCSV(ctx, stockroom.ReportStockValuation, client.ReportOptions{PageSize: 1, Page: 3}, &buf); err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(records) != 2 || !slices.Equal(records[0], reports[0].Columns) || !slices.Equal(records[1], rows[0].Cells()) {
		t.Fatalf("valuation as CSV %q: %v", records, err)
	}
	from := time.Now().Add(-time.Hour)
	for row, err := range c.InventoryActivity(ctx, client.ReportOptions{Params: stockroom.ReportParams{From: from, To: from.Add(2 * time.Hour)}}) {
		if err != nil || row.Received != units(t, "6") || row.Closing != units(t, "6") {
			t.Fatalf("activity row %+v %v", row, err)
		}
	}
	for _, err := range c.ExpiringLots(ctx, client.ReportOptions{}) {
		if err != nil {
			t.Fatalf("expiring lots with days 0: %v", err)
		}
	}

	none := s.clientWith(t, service.NewClient{Permissions: stockroom.AllPermissions, Scope: stockroom.Scope{All: true}})
	if reports, err := none.ListReports(ctx); err != nil || len(reports) != 0 {
		t.Fatalf("a client of no report lists %v %+v", err, reports)
	}
	_, err = client.RunReport[stockroom.ValuationRow](ctx, none, stockroom.ReportStockValuation, client.ReportOptions{})
	if apiErr, ok := errors.AsType[*client.Error](err); !ok || apiErr.StatusCode != 403 || apiErr.Message != stockroom.MsgReportDenied {
		t.Fatalf("a report the client may not run: %v", err)
	}
	_, err = none.ExportReportCSV(ctx, stockroom.ReportStockValuation, client.ReportOptions{}, &buf)
	if apiErr, ok := errors.AsType[*client.Error](err); !ok || apiErr.StatusCode != 403 || apiErr.Message != stockroom.MsgReportDenied {
		t.Fatalf("a report the client may not run, as CSV: %v", err)
	}
}

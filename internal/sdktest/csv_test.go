package sdktest_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"slices"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
)

// TestExportCSV: the SDK streams an export to a writer, exact quantities
// and all, and a refusal is the API's error.
func TestExportCSV(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	c := s.admin(t)
	ctx := context.Background()
	mustCreateItem(t, c, "VALVE-1")
	mustReceive(t, c, "VALVE-1", units(t, "0.000001"), 1, "A-01")
	mustReceive(t, c, "VALVE-1", units(t, "1234567.5"), 1, "A-02")

	var buf bytes.Buffer
	n, err := c.ExportLotsCSV(ctx, client.LotListOptions{ListOptions: client.ListOptions{Sort: "units"}}, &buf)
	if err != nil || n != int64(buf.Len()) {
		t.Fatalf("export: %d bytes, %v", n, err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("rows %q: %v", rows, err)
	}
	i := slices.Index(rows[0], "units")
	if rows[1][i] != "0.000001" || rows[2][i] != "1234567.5" {
		t.Errorf("units %q and %q", rows[1][i], rows[2][i])
	}
	buf.Reset()
	if _, err := c.ExportTransactionsCSV(ctx, client.TransactionListOptions{Type: "receive"}, &buf); err != nil || bytes.Count(buf.Bytes(), []byte("\n")) < 3 {
		t.Errorf("transactions export %q: %v", buf.String(), err)
	}
	_, err = c.ExportStockLevelsCSV(ctx, client.StockLevelListOptions{WID: 99}, &buf)
	var apiErr *client.Error
	if !errors.As(err, &apiErr) || apiErr.Code != stockroom.ENOTFOUND {
		t.Errorf("export of warehouse 99: %v, want not_found", err)
	}
}

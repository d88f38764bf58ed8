package main

import (
	"encoding/csv"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/testdb"
)

// TestReportCommand: `stockroom report` prints every row of a report as a
// line of JSON, and report rights are kept, changed and listed with the
// client.
func TestReportCommand(t *testing.T) {
	dsn := testdb.DSN(t, "sqlite")
	mustAdmin(t, dsn, "migrate")
	mustAdmin(t, dsn, "demo", "--items", "3", "--lots", "9")
	out := mustAdmin(t, dsn, "report", "15", "--wid", "1")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("report 15: %q", out)
	}
	for _, l := range lines {
		var row stockroom.ValuationRow
		if err := json.Unmarshal([]byte(l), &row); err != nil || row.WID != 1 || row.Units.Sign() <= 0 {
			t.Errorf("row %q: %+v %v", l, row, err)
		}
	}
	// --csv: the report's columns, then the same rows, decimals exact.
	records, err := csv.NewReader(strings.NewReader(mustAdmin(t, dsn, "report", "15", "--wid", "1", "--csv"))).ReadAll()
	if report, _ := stockroom.FindReport(15); err != nil || len(records) != 4 || !slices.Equal(records[0], report.Columns) {
		t.Fatalf("report 15 --csv: %q %v", records, err)
	}
	for i, l := range lines {
		var row stockroom.ValuationRow
		if err := json.Unmarshal([]byte(l), &row); err != nil || !slices.Equal(records[i+1], row.Cells()) {
			t.Errorf("CSV row %q, want %q (%v)", records[i+1], row.Cells(), err)
		}
	}
	if code, out, errOut := admin(t, dsn, "report", "22", "--from", "2025-01-01", "--csv"); code == 0 || out != "" || !strings.Contains(errOut, "to") {
		t.Errorf("report 22 --csv without to: exit %d %q %s", code, out, errOut)
	}
	if code, _, errOut := admin(t, dsn, "report", "22", "--from", "2025-01-01"); code == 0 || !strings.Contains(errOut, "to") {
		t.Errorf("report 22 without to: exit %d %s", code, errOut)
	}
	if code, _, _ := admin(t, dsn, "report", "16"); code != 2 {
		t.Errorf("report 16: exit %d, want 2", code)
	}

	mustAdmin(t, dsn, "client", "add", "--id", "clerk", "--name", "Clerk", "--permissions", "11", "--warehouses", "all", "--reports", "103,15")
	if out := mustAdmin(t, dsn, "client", "list"); !strings.Contains(out, "REPORTS") || !strings.Contains(out, " 15,103 ") {
		t.Errorf("client list: %s", out)
	}
	if out := mustAdmin(t, dsn, "client", "update", "--id", "clerk", "--reports", "none"); !strings.Contains(out, "reports none") {
		t.Errorf("client update: %s", out)
	}
	if code, _, errOut := admin(t, dsn, "client", "update", "--id", "clerk", "--reports", "16"); code != 2 || !strings.Contains(errOut, "unknown report") {
		t.Errorf("--reports 16: exit %d %s", code, errOut)
	}
}

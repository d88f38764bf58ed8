package stockroom_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

func TestValuationRoundsOnceHalfAwayFromZero(t *testing.T) {
	u := stockroom.MustParseUnits
	for _, tc := range []struct {
		lots            [][2]string // units, price
		total, unitCost string
	}{
		{[][2]string{{"6", "2.5"}, {"5", "4.1"}}, "35.5", "3.227273"},
		{[][2]string{{"3", "0.333333"}}, "0.999999", "0.333333"},
		// 0.5 × 0.000001 = 0.0000005: rounds up, once, after the sum.
		{[][2]string{{"0.5", "0.000001"}}, "0.000001", "0.000001"},
		{[][2]string{{"0.5", "0.000001"}, {"0.5", "0.000001"}}, "0.000001", "0.000001"},
		{[][2]string{{"0.4", "0.000001"}}, "0", "0.000001"},
		{[][2]string{{"1000000", "999999.999999"}}, "999999999999", "999999.999999"},
		{nil, "0", "0"},
	} {
		var v stockroom.Valuation
		for _, l := range tc.lots {
			v.Add(u(l[0]), u(l[1]))
		}
		if v.TotalValue() != u(tc.total) || v.UnitCost() != u(tc.unitCost) {
			t.Errorf("%v: total %s unitCost %s, want %s and %s", tc.lots, v.TotalValue(), v.UnitCost(), tc.total, tc.unitCost)
		}
	}
}

func TestUnitDays(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var d stockroom.UnitDays
	d.Add(stockroom.Whole(10), t0, t0.Add(36*time.Hour))
	d.Add(stockroom.MustParseUnits("0.5"), t0, t0.Add(time.Second))
	// 15 unit-days and 0.5/86400 = 0.0000057… → 0.000006.
	if got := d.Total(); got != stockroom.MustParseUnits("15.000006") {
		t.Errorf("unit-days %s", got)
	}
}

func TestAgeBucketEdges(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		age    time.Duration
		bucket int
	}{
		{0, 0}, {31*24*time.Hour - time.Microsecond, 0}, {31 * 24 * time.Hour, 1},
		{61*24*time.Hour - time.Microsecond, 1}, {61 * 24 * time.Hour, 2},
		{91*24*time.Hour - time.Microsecond, 2}, {91 * 24 * time.Hour, 3},
	} {
		if got := stockroom.AgeBucket(stockroom.WholeDays(now.Add(-tc.age), now)); got != tc.bucket {
			t.Errorf("age %v: bucket %d, want %d", tc.age, got, tc.bucket)
		}
	}
	if got := stockroom.WholeDays(now, now.Add(-time.Hour)); got != -1 {
		t.Errorf("an hour ago is %d whole days ahead, want -1", got)
	}
}

// TestReportColumnsAreTheRowsFields holds each report's Columns to the JSON
// fields of its rows, in order, and to the cells a CSV writes.
func TestReportColumnsAreTheRowsFields(t *testing.T) {
	rows := map[stockroom.ReportID]stockroom.ReportRow{
		15: stockroom.ValuationRow{}, 22: stockroom.ActivityRow{}, 47: stockroom.OpenPurchaseRow{}, 101: stockroom.AgeingRow{},
		102: stockroom.ExpiringLotRow{}, 103: stockroom.StorageRow{}, 104: stockroom.OpenShippingRow{}, 105: stockroom.TraceRow{},
	}
	for _, r := range stockroom.Reports {
		row := rows[r.ReportID]
		typ := reflect.TypeOf(row)
		var fields []string
		for i := range typ.NumField() {
			fields = append(fields, strings.Split(typ.Field(i).Tag.Get("json"), ",")[0])
		}
		if strings.Join(fields, ",") != strings.Join(r.Columns, ",") || len(row.Cells()) != len(r.Columns) {
			t.Errorf("report %d: columns %v, row fields %v, %d cells", r.ReportID, r.Columns, fields, len(row.Cells()))
		}
		if _, err := json.Marshal(row); err != nil {
			t.Error(err)
		}
	}
}

func TestParseReports(t *testing.T) {
	for in, want := range map[string]string{"all": "all", "": "none", "none": "none", "103, 15,15": "15,103"} {
		s, err := stockroom.ParseReports(in)
		if err != nil || stockroom.FormatReports(s) != want {
			t.Errorf("%q: %v %v", in, stockroom.FormatReports(s), err)
		}
	}
	if _, err := stockroom.ParseReports("15,16"); err == nil {
		t.Error("report 16 accepted")
	}
}

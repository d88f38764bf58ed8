package stockroom_test

import (
	"slices"
	"testing"

	"github.com/stockroom/stockroom"
)

func TestPlanDraw(t *testing.T) {
	u := func(n int64) stockroom.Units { return stockroom.Units(n * stockroom.UnitScale) }
	lots := []stockroom.Candidate{{RecNo: 7, Units: u(5)}, {RecNo: 3, Units: u(10)}, {RecNo: 9, Units: 0}, {RecNo: 4, Units: u(2)}}
	for _, tc := range []struct {
		name string
		want stockroom.Units
		out  []stockroom.Draw
		err  string
	}{
		{"FromTheFirstLot", u(3), []stockroom.Draw{{RecNo: 7, Units: u(3), Remaining: u(2)}}, ""},
		{"EmptiesTheFirstExactly", u(5), []stockroom.Draw{{RecNo: 7, Units: u(5), Remaining: 0}}, ""},
		{"SpansLotsInOrder", u(16), []stockroom.Draw{{RecNo: 7, Units: u(5)}, {RecNo: 3, Units: u(10)}, {RecNo: 4, Units: u(1), Remaining: u(1)}}, ""},
		{"Everything", u(17), []stockroom.Draw{{RecNo: 7, Units: u(5)}, {RecNo: 3, Units: u(10)}, {RecNo: 4, Units: u(2)}}, ""},
		{"TooMuch", u(17) + 1, nil, "Insufficient stock: 17.000001 units requested, 17 available."},
		{"Fractions", 1, []stockroom.Draw{{RecNo: 7, Units: 1, Remaining: u(5) - 1}}, ""},
		{"Nothing", 0, nil, "Insufficient stock: 0 units requested, 17 available."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := stockroom.PlanDraw(lots, tc.want)
			if tc.err != "" {
				if stockroom.ErrorCode(err) != stockroom.ECONFLICT || stockroom.ErrorMessage(err) != tc.err || got != nil {
					t.Fatalf("got %v, %v; want conflict %q", got, err, tc.err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.out) {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.out)
			}
		})
	}
	if _, err := stockroom.PlanDraw(nil, 1); stockroom.ErrorCode(err) != stockroom.ECONFLICT {
		t.Fatal("no candidates must be a conflict")
	}
}

package stockroom_test

import (
	"slices"
	"testing"

	"github.com/stockroom/stockroom"
)

func TestPlan(t *testing.T) {
	u := stockroom.Whole
	micro := stockroom.FromMicros(1)
	lots := []stockroom.Candidate{{RecNo: 7, Units: u(5)}, {RecNo: 3, Units: u(10)}, {RecNo: 9}, {RecNo: 4, Units: u(2)}}
	issue := func(want stockroom.Units) stockroom.Withdrawal {
		return stockroom.Withdrawal{Type: stockroom.TxIssue, Units: want}
	}
	for _, tc := range []struct {
		name  string
		w     stockroom.Withdrawal
		cands []stockroom.Candidate
		out   []stockroom.Draw
		err   string
	}{
		{"FromTheFirstLot", issue(u(3)), lots, []stockroom.Draw{{RecNo: 7, Units: u(3), Remaining: u(2)}}, ""},
		{"EmptiesTheFirstExactly", issue(u(5)), lots, []stockroom.Draw{{RecNo: 7, Units: u(5)}}, ""},
		{"SpansLotsInOrder", issue(u(16)), lots, []stockroom.Draw{{RecNo: 7, Units: u(5)}, {RecNo: 3, Units: u(10)}, {RecNo: 4, Units: u(1), Remaining: u(1)}}, ""},
		{"Everything", issue(u(17)), lots, []stockroom.Draw{{RecNo: 7, Units: u(5)}, {RecNo: 3, Units: u(10)}, {RecNo: 4, Units: u(2)}}, ""},
		{"TooMuch", issue(u(17).Add(micro)), lots, nil, "Insufficient stock: 17.000001 units requested, 17 available."},
		{"OneUnitIsSingular", issue(u(1)), nil, nil, "Insufficient stock: 1 unit requested, 0 available."},
		{"Fractions", issue(micro), lots, []stockroom.Draw{{RecNo: 7, Units: micro, Remaining: u(5).Sub(micro)}}, ""},
		{"Nothing", issue(stockroom.Units{}), lots, nil, "Insufficient stock: 0 units requested, 17 available."},
		{"HeldLotsGiveNothing", issue(u(5)), []stockroom.Candidate{{RecNo: 1, Units: u(5), Hold: true}, {RecNo: 2, Units: u(2)}},
			nil, "Insufficient stock: 5 units requested, 2 available."},
		{"AnIssueNamingAHeldLotSaysSo", stockroom.Withdrawal{Type: stockroom.TxIssue, Units: u(1), RecNo: 1},
			[]stockroom.Candidate{{RecNo: 1, Units: u(5), Hold: true}}, nil, "Lot 1 is on hold; release it before it can be issued."},
		{"AMoveNamingAHeldLotTakesIt", stockroom.Withdrawal{Type: stockroom.TxMove, Units: u(1), RecNo: 1},
			[]stockroom.Candidate{{RecNo: 1, Units: u(5), Hold: true}}, []stockroom.Draw{{RecNo: 1, Units: u(1), Remaining: u(4)}}, ""},
		{"AllocatedUnitsStayAndAreNotAvailable", issue(u(6)), []stockroom.Candidate{{RecNo: 1, Units: u(5), Allocated: u(2)},
			{RecNo: 2, Units: u(4), Allocated: u(4)}, {RecNo: 3, Units: u(3)}},
			[]stockroom.Draw{{RecNo: 1, Units: u(3), Remaining: u(2)}, {RecNo: 3, Units: u(3)}}, ""},
		{"AllocatedUnitsAreNotCountedAvailable", issue(u(7)), []stockroom.Candidate{{RecNo: 1, Units: u(5), Allocated: u(2)},
			{RecNo: 3, Units: u(3)}}, nil, "Insufficient stock: 7 units requested, 6 available."},
		{"AMoveNotNamingAHeldLotLeavesIt", stockroom.Withdrawal{Type: stockroom.TxMove, Units: u(1)},
			[]stockroom.Candidate{{RecNo: 1, Units: u(5), Hold: true}}, nil, "Insufficient stock: 1 unit requested, 0 available."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.w.Plan(tc.cands)
			if tc.err != "" {
				if stockroom.ErrorCode(err) != stockroom.ECONFLICT || stockroom.ErrorMessage(err) != tc.err || got != nil {
					t.Fatalf("got %v, %v; want conflict %q", got, err, tc.err)
				}
				return
			}
			if err != nil || !slices.EqualFunc(got, tc.out, func(a, b stockroom.Draw) bool {
				return a.RecNo == b.RecNo && a.Units == b.Units && a.Remaining == b.Remaining && a.NewRecNo == nil && b.NewRecNo == nil
			}) {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.out)
			}
		})
	}
}

func TestCandidates(t *testing.T) {
	move := stockroom.Withdrawal{Type: stockroom.TxMove, PartNo: 1, WID: 2, ToWID: 2, ToSpot: "B"}
	if s := move.Candidates(); s.NotSpot == nil || *s.NotSpot != "B" || s.WithHeld {
		t.Fatalf("a move within a warehouse: %+v", s)
	}
	named := stockroom.Withdrawal{Type: stockroom.TxIssue, RecNo: 5}
	if s := named.Candidates(); !s.WithHeld || s.RecNo != 5 || s.NotSpot != nil {
		t.Fatalf("an issue naming a lot reads it held or not, to say why: %+v", s)
	}
}

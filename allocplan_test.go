package stockroom_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/stockroom/stockroom"
)

// steps writes steps compactly: recNo:committed/packed/shipped.
func steps(ss []stockroom.AllocStep) string {
	out := ""
	for _, s := range ss {
		out += fmt.Sprintf("%d:%s/%s/%s ", s.RecNo, s.Committed, s.Packed, s.Shipped)
	}
	return out
}

func TestPlanCommit(t *testing.T) {
	u := stockroom.Whole
	line := func(n int64) stockroom.OutboundLine { return stockroom.OutboundLine{LineNo: n} }
	cands := []stockroom.Candidate{{RecNo: 7, Units: u(5), Allocated: u(3)}, {RecNo: 3, Units: u(4)}, {RecNo: 9, Units: u(2), Allocated: u(2)}, {RecNo: 4, Units: u(6)}}
	for _, tc := range []struct {
		name  string
		wants []stockroom.CommitWant
		steps []string
		short []stockroom.Units
	}{
		{"FreeUnitsOldestFirst", []stockroom.CommitWant{{Line: line(1), Units: u(7)}}, []string{"7:2/0/0 3:4/0/0 4:1/0/0 "}, []stockroom.Units{u(0)}},
		{"LinesInOrder", []stockroom.CommitWant{{Line: line(1), Units: u(3)}, {Line: line(2), Units: u(3)}},
			[]string{"7:2/0/0 3:1/0/0 ", "3:3/0/0 "}, []stockroom.Units{u(0), u(0)}},
		{"NamedLotFirst", []stockroom.CommitWant{{Line: line(1), Units: u(4)}, {Line: line(2), Units: u(4), RecNo: 3}},
			[]string{"7:2/0/0 4:2/0/0 ", "3:4/0/0 "}, []stockroom.Units{u(0), u(0)}},
		{"NamedLotShort", []stockroom.CommitWant{{Line: line(1), Units: u(3), RecNo: 7}}, []string{"7:2/0/0 "}, []stockroom.Units{u(1)}},
		{"AllocatedLotGivesNothing", []stockroom.CommitWant{{Line: line(1), Units: u(1), RecNo: 9}}, []string{""}, []stockroom.Units{u(1)}},
		{"ShortAfterEverything", []stockroom.CommitWant{{Line: line(1), Units: u(10)}, {Line: line(2), Units: u(5)}},
			[]string{"7:2/0/0 3:4/0/0 4:4/0/0 ", "4:2/0/0 "}, []stockroom.Units{u(0), u(3)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, short := stockroom.PlanCommit(tc.wants, cands)
			for i := range tc.wants {
				if steps(got[i]) != tc.steps[i] || short[i] != tc.short[i] {
					t.Errorf("want %d: steps %q short %s, want %q short %s", i, steps(got[i]), short[i], tc.steps[i], tc.short[i])
				}
			}
		})
	}
	t.Run("HeldLotsGiveNothing", func(t *testing.T) {
		got, short := stockroom.PlanCommit([]stockroom.CommitWant{{Line: line(1), Units: u(1)}}, []stockroom.Candidate{{RecNo: 1, Units: u(5), Hold: true}})
		if len(got[0]) != 0 || short[0] != u(1) {
			t.Fatalf("steps %v short %s", got[0], short[0])
		}
	})
}

func TestCommitRefusals(t *testing.T) {
	u := stockroom.Whole
	l := stockroom.OutboundLine{LineNo: 2, Units: u(10), Committed: u(3), Packed: u(2), Shipped: u(1)}
	if got, err := l.CommitUnits(nil); err != nil || got != u(4) {
		t.Fatalf("default commit %s, %v; want what is uncommitted, 4", got, err)
	}
	five := u(5)
	if _, err := l.CommitUnits(&five); stockroom.ErrorMessage(err) != "Line 2 has 4 units left to commit; 5 units cannot be committed." {
		t.Fatalf("commit past the line: %v", err)
	}
	err := stockroom.CommitShortError([]stockroom.CommitShort{{Line: 1, Wanted: u(1), Available: u(0)}, {Line: 3, Wanted: u(4), Available: u(2)}})
	if stockroom.ErrorCode(err) != stockroom.ECONFLICT || stockroom.ErrorMessage(err) !=
		"Insufficient stock to commit line 1: 1 unit wanted, 0 available. Insufficient stock to commit line 3: 4 units wanted, 2 available." {
		t.Fatalf("short commit: %v", err)
	}
	if stockroom.CommitShortError(nil) != nil {
		t.Fatal("no shortfall refused")
	}
	if err := stockroom.OrderKindShipping.CheckOpen("SO-1", stockroom.OrderClosed, "committed"); stockroom.ErrorMessage(err) !=
		"Shipping order SO-1 is Closed; only an open order can be committed." {
		t.Fatalf("ended order: %v", err)
	}
}

func TestLineActions(t *testing.T) {
	u := stockroom.Whole
	p := func(n int64) *stockroom.Units { v := u(n); return &v }
	la := stockroom.LineAllocations{
		OutboundLine: stockroom.OutboundLine{LineNo: 1, Units: u(20), Committed: u(6), Packed: u(3)},
		Allocations:  []stockroom.Allocation{{RecNo: 1, Committed: u(2), Packed: u(1)}, {RecNo: 2, Committed: u(0), Packed: u(2)}, {RecNo: 3, Committed: u(4)}},
	}
	for _, tc := range []struct {
		name string
		plan func() ([]stockroom.AllocStep, error)
		want string
		err  string
	}{
		{"PackOldestFirst", func() ([]stockroom.AllocStep, error) { return la.Pack(u(3)) }, "1:-2/2/0 3:-1/1/0 ", ""},
		{"PackTooMuch", func() ([]stockroom.AllocStep, error) { return la.Pack(u(7)) }, "", "Line 1 has 6 units committed; 7 units cannot be packed."},
		{"UncommitNewestFirst", func() ([]stockroom.AllocStep, error) { return la.Uncommit(p(5)) }, "1:-1/0/0 3:-4/0/0 ", ""},
		{"UncommitEverything", func() ([]stockroom.AllocStep, error) { return la.Uncommit(nil) }, "1:-2/0/0 3:-4/0/0 ", ""},
		{"UncommitTooMuch", func() ([]stockroom.AllocStep, error) { return la.Uncommit(p(7)) }, "", "Line 1 has 6 units committed; 7 units cannot be released."},
		{"ShipPackedFirst", func() ([]stockroom.AllocStep, error) { return la.Ship(p(4)) }, "1:-1/-1/2 2:0/-2/2 ", ""},
		{"ShipEverything", func() ([]stockroom.AllocStep, error) { return la.Ship(nil) }, "1:-2/-1/3 2:0/-2/2 3:-4/0/4 ", ""},
		{"ShipTooMuch", func() ([]stockroom.AllocStep, error) { return la.Ship(p(10)) }, "", "Line 1 has 9 units committed or packed; 10 units cannot be shipped."},
		{"Release", func() ([]stockroom.AllocStep, error) { return la.Release(), nil }, "1:-2/-1/0 2:0/-2/0 3:-4/0/0 ", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.plan()
			if tc.err != "" {
				if stockroom.ErrorCode(err) != stockroom.ECONFLICT || stockroom.ErrorMessage(err) != tc.err {
					t.Fatalf("got %v, %v; want %q", got, err, tc.err)
				}
				return
			}
			if err != nil || steps(got) != tc.want {
				t.Fatalf("got %q, %v; want %q", steps(got), err, tc.want)
			}
			// No step but a commit's adds to what a lot has allocated.
			if slices.ContainsFunc(got, func(s stockroom.AllocStep) bool { return s.Allocated().Add(s.Shipped).Sign() > 0 }) {
				t.Fatalf("a step allocates units: %q", steps(got))
			}
		})
	}
}

func TestAllocRequestsValidate(t *testing.T) {
	zero, neg := stockroom.Units{}, stockroom.Whole(-1)
	for _, tc := range []struct {
		name string
		run  func(*stockroom.Validation)
		want map[string]string
	}{
		{"CommitNeedsNoLines", func(v *stockroom.Validation) { (&stockroom.CommitRequest{}).Validate(v) }, nil},
		{"CommitLineFields", func(v *stockroom.Validation) {
			(&stockroom.CommitRequest{Lines: []stockroom.AllocLine{{Line: 0, Units: &zero, RecNo: -3}}}).Validate(v)
		}, map[string]string{"lines[0].line": "is required", "lines[0].units": "must be greater than 0", "lines[0].recno": "must be between 1 and 2147483647"}},
		{"PackNeedsLinesWithUnits", func(v *stockroom.Validation) { (&stockroom.PackRequest{}).Validate(v) },
			map[string]string{"lines": "is required: give at least one line"}},
		{"PackLineWithoutUnits", func(v *stockroom.Validation) {
			(&stockroom.PackRequest{Lines: []stockroom.AllocLine{{Line: 1}}}).Validate(v)
		}, map[string]string{"lines[0].units": "is required"}},
		{"UncommitUnits", func(v *stockroom.Validation) {
			(&stockroom.UncommitRequest{Lines: []stockroom.AllocLine{{Line: 1, Units: &neg}}}).Validate(v)
		}, map[string]string{"lines[0].units": "must be greater than 0"}},
		{"ShipTexts", func(v *stockroom.Validation) {
			(&stockroom.ShipRequest{Remark: "a\x00b"}).Validate(v)
		}, map[string]string{"remark": "must not contain control characters"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v stockroom.Validation
			tc.run(&v)
			err := v.Err()
			if tc.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var e *stockroom.Error
			if !errors.As(err, &e) || len(e.Details) != len(tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			for f, msg := range tc.want {
				if got := e.Details[f]; len(got) != 1 || got[0] != msg {
					t.Errorf("%s: %v, want %q", f, got, msg)
				}
			}
		})
	}
}

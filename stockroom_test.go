package stockroom_test

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

func TestParsePermissions(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []stockroom.Permission
		ok   bool
	}{
		{"all", []stockroom.Permission{11, 116, 95, 15, 88, 301, 302, 303, 370}, true},
		{" ALL ", []stockroom.Permission{11, 116, 95, 15, 88, 301, 302, 303, 370}, true},
		{"11", []stockroom.Permission{11}, true},
		{"116, 11,11", []stockroom.Permission{11, 116}, true},
		{"11,116,95,15,88", []stockroom.Permission{11, 15, 88, 95, 116}, true},
		{"370,301", []stockroom.Permission{301, 370}, true},
		{"", nil, false},
		{"12", nil, false},
		{"11,", nil, false},
		{"eleven", nil, false},
	} {
		got, err := stockroom.ParsePermissions(tc.in)
		if (err == nil) != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("ParsePermissions(%q) = %v, %v; want %v ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestParseScope(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want stockroom.Scope
		ok   bool
	}{
		{"all", stockroom.Scope{All: true}, true},
		{"3,1,3", stockroom.Scope{IDs: []int64{1, 3}}, true},
		{"0", stockroom.Scope{}, false},
		{"2147483648", stockroom.Scope{}, false},
		{"1,x", stockroom.Scope{}, false},
		{"", stockroom.Scope{}, false},
	} {
		got, err := stockroom.ParseScope(tc.in)
		if (err == nil) != tc.ok || got.All != tc.want.All || !slices.Equal(got.IDs, tc.want.IDs) {
			t.Errorf("ParseScope(%q) = %v, %v; want %v ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
	s := stockroom.Scope{IDs: []int64{2, 4}}
	if !s.Contains(4) || s.Contains(3) || !(stockroom.Scope{All: true}).Contains(99) || (stockroom.Scope{}).Contains(1) {
		t.Error("Scope.Contains is wrong")
	}
}

func TestAuthorizeOrder(t *testing.T) {
	reader := &stockroom.Principal{Permissions: []stockroom.Permission{11}, ReadOnly: true}
	writer := &stockroom.Principal{Permissions: []stockroom.Permission{11, 116}}
	for _, tc := range []struct {
		name  string
		p     *stockroom.Principal
		perm  stockroom.Permission
		write bool
		want  string // message, "" for allowed
	}{
		{"ReadOnlyMayRead", reader, 11, false, ""},
		{"ReadOnlyCannotWriteEvenWithoutPermission", reader, 95, true, stockroom.MsgReadOnly},
		{"MissingPermission", writer, 95, true, stockroom.MsgNoPermission},
		{"MissingReadPermission", writer, 88, false, stockroom.MsgNoPermission},
		{"Allowed", writer, 116, true, ""},
		{"NoPermissionNeeded", reader, 0, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.p.Authorize(tc.perm, tc.write)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if stockroom.ErrorCode(err) != stockroom.EFORBIDDEN || stockroom.ErrorMessage(err) != tc.want {
				t.Fatalf("got %v, want forbidden %q", err, tc.want)
			}
		})
	}
}

// TestJudgeLines: a client sees an order's line in its warehouses and of
// its owners; an action touching lines it sees none of finds nothing, and
// one touching a line outside either scope is refused for the first such
// line, warehouse before owner.
func TestJudgeLines(t *testing.T) {
	p := &stockroom.Principal{Scope: stockroom.Scope{IDs: []int64{1, 2}}, Owners: stockroom.Scope{IDs: []int64{0, 7}}}
	type line struct{ wid, owner int64 }
	for _, tc := range []struct {
		name  string
		lines []line
		want  string // message, "" for allowed
	}{
		{"AllInScope", []line{{1, 0}, {2, 7}}, ""},
		{"NoneSeen", []line{{3, 0}, {1, 5}}, stockroom.ErrNotFound.Message},
		{"NoLines", nil, stockroom.ErrNotFound.Message},
		{"OneOutOfWarehouses", []line{{1, 0}, {3, 0}}, stockroom.MsgOutOfScope},
		{"OneOfAnotherOwner", []line{{1, 5}, {1, 0}}, stockroom.MsgOwnerOutOfScope},
		{"WarehouseBeforeOwner", []line{{1, 0}, {3, 5}}, stockroom.MsgOutOfScope},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, l := range tc.lines {
				if seen := p.SeesLine(l.wid, l.owner); seen != (l.wid <= 2 && (l.owner == 0 || l.owner == 7)) {
					t.Errorf("SeesLine(%d, %d) = %v", l.wid, l.owner, seen)
				}
			}
			err := p.JudgeLines(len(tc.lines), func(i int) (int64, int64) { return tc.lines[i].wid, tc.lines[i].owner })
			if stockroom.ErrorMessage(err) != tc.want {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

func TestParseTime(t *testing.T) {
	utc := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return v.UTC()
	}
	for in, want := range map[string]time.Time{
		"2025-01-15T09:30:00Z":        utc("2025-01-15T09:30:00Z"),
		"2025-01-15T11:30:00+02:00":   utc("2025-01-15T09:30:00Z"),
		"2025-01-15T09:30:00.123456Z": utc("2025-01-15T09:30:00.123456Z"),
		"2025-01-15T09:30:00":         utc("2025-01-15T09:30:00Z"),
		"2025-01-15T09:30":            utc("2025-01-15T09:30:00Z"),
		"2025-01-15":                  utc("2025-01-15T00:00:00Z"),
		" 2025-01-15 ":                utc("2025-01-15T00:00:00Z"),
	} {
		got, err := stockroom.ParseTime(in)
		if err != nil || !got.Equal(want) || got.Location() != time.UTC {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "yesterday", "2025-13-01", "2025-01-15T25:00:00Z", "15/01/2025", "1736933400"} {
		if _, err := stockroom.ParseTime(bad); err == nil {
			t.Errorf("ParseTime(%q) accepted", bad)
		}
	}
}

func TestPageArithmetic(t *testing.T) {
	for _, tc := range []struct {
		total, size, page, count int64
		more                     bool
	}{
		{0, 25, 1, 0, false},
		{1, 25, 1, 1, false},
		{25, 25, 1, 1, false},
		{26, 25, 1, 2, true},
		{26, 25, 2, 2, false},
		{26, 25, 3, 2, false},
	} {
		p := stockroom.Page[int]{Total: tc.total, PageSize: tc.size, Page: tc.page}
		if p.PageCount() != tc.count || p.HasMore() != tc.more {
			t.Errorf("%+v: count %d more %v, want %d %v", tc, p.PageCount(), p.HasMore(), tc.count, tc.more)
		}
	}
	if off := (stockroom.PageRequest{Page: math.MaxInt64, PageSize: 250}).Offset(); off != math.MaxInt64 {
		t.Errorf("offset of an absurd page = %d, want saturation at MaxInt64", off)
	}
	if off := (stockroom.PageRequest{Page: 3, PageSize: 25}).Offset(); off != 50 {
		t.Errorf("offset = %d, want 50", off)
	}
}

func TestValidation(t *testing.T) {
	var v stockroom.Validation
	if v.Err() != nil {
		t.Fatal("empty validation is an error")
	}
	v.Add("a", "x")
	v.Add("a", "y")
	v.Add("b", "z")
	v.Add("a", "x") // said once is enough
	err := v.Err().(*stockroom.Error)
	if err.Code != stockroom.EINVALID || err.Message != "Model validation failed." || len(err.Details["a"]) != 2 || len(err.Details["b"]) != 1 {
		t.Fatalf("%+v", err)
	}
	// A refusal names at most MaxProblemFields fields.
	var full stockroom.Validation
	for i := range stockroom.MaxProblemFields + 5 {
		full.Add(fmt.Sprint("f", i), "fails")
	}
	full.Add("f0", "fails again")
	if d := full.Err().(*stockroom.Error).Details; len(d) != stockroom.MaxProblemFields || !full.Full() || len(d["f0"]) != 2 {
		t.Fatalf("%d fields named, f0 %v", len(d), d["f0"])
	}
	// Merge leaves a field v has in any letter case (as strings.EqualFold
	// sees it: K, k and the Kelvin sign are one letter) to v's own problems.
	var m stockroom.Validation
	m.Add("Units", "first")
	m.Add("\u212aey", "first")
	m.Merge(&stockroom.Error{Code: stockroom.EINVALID, Details: map[string][]string{
		"units": {"second"}, "key": {"second"}, "wid": {"second"}, "kez": {"second"}}})
	want := map[string][]string{"Units": {"first"}, "\u212aey": {"first"}, "wid": {"second"}, "kez": {"second"}}
	if got := m.Err().(*stockroom.Error).Details; !reflect.DeepEqual(got, want) {
		t.Fatalf("merged %v, want %v", got, want)
	}
	var c stockroom.Client
	c.ID, c.Name = "bad id!", ""
	got := c.Validate().(*stockroom.Error)
	for _, field := range []string{"id", "name", "permissions", "warehouses"} {
		if len(got.Details[field]) == 0 {
			t.Errorf("client validation did not name %q: %v", field, got)
		}
	}
	for secret, ok := range map[string]bool{"0123456789abcdef": true, "short": false, "has space 0123456789": false, "plus+sign0123456789": false} {
		if (stockroom.ValidateSecret(secret) == nil) != ok {
			t.Errorf("ValidateSecret(%q) ok=%v, want %v", secret, !ok, ok)
		}
	}
}

package stockroom_test

import (
	"encoding/json"
	"testing"

	"github.com/stockroom/stockroom"
)

func TestUnits(t *testing.T) {
	for in, want := range map[string]string{
		"0": "0", "500": "500", "12.5": "12.5", "12.500000": "12.5", "0.000001": "0.000001",
		"-3.25": "-3.25", "1e3": "1000", "1.5E-3": "0.0015", "999999999999.999999": "999999999999.999999",
		"1000000000000": "1000000000000", "8000000000000": "8000000000000", "0.1": "0.1", "-0": "0",
	} {
		u, err := stockroom.ParseUnits(in)
		if err != nil || u.String() != want {
			t.Errorf("ParseUnits(%q) = %v, %v; want %s", in, u, err, want)
		}
	}
	for _, bad := range []string{"", "abc", "1.0000001", "1e-7", "8000000000000.000001", "1e400", "NaN", "Inf", "0x10", "1/2", "+1", `"5"`, "1 2", "1_000"} {
		if u, err := stockroom.ParseUnits(bad); err == nil {
			t.Errorf("ParseUnits(%q) accepted as %v", bad, u)
		}
	}
	// 0.1 + 0.2 is exactly 0.3, as it must be for stock.
	a, errA := stockroom.ParseUnits("0.1")
	b, errB := stockroom.ParseUnits("0.2")
	if errA != nil || errB != nil || a.Add(b).String() != "0.3" {
		t.Errorf("0.1 + 0.2 = %s (%v, %v)", a.Add(b), errA, errB)
	}
	var v struct{ Units stockroom.Units }
	if err := json.Unmarshal([]byte(`{"units": 2.75}`), &v); err != nil || v.Units.String() != "2.75" {
		t.Errorf("unmarshal: %v %v", v.Units, err)
	}
	if err := json.Unmarshal([]byte(`{"units": "2.75"}`), &v); err == nil {
		t.Error("a JSON string was accepted as units")
	}
	out, err := json.Marshal(struct{ U stockroom.Units }{stockroom.MustParseUnits("12.5")})
	if err != nil || string(out) != `{"U":12.5}` {
		t.Errorf("marshal = %s (%v)", out, err)
	}
}

func FuzzParseUnits(f *testing.F) {
	for _, s := range []string{"0", "12.5", "-1e3", "0.000001", "1e-7", "999999999999.999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := stockroom.ParseUnits(s)
		if err != nil {
			return
		}
		// Whatever is accepted writes back to text that reads as the same value.
		again, err := stockroom.ParseUnits(u.String())
		if err != nil || again != u {
			t.Fatalf("%q → %v → %q → %v, %v", s, u.Micros(), u.String(), again.Micros(), err)
		}
	})
}

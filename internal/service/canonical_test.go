package service

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math/big"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestCanonicalJSON: bodies that hold one JSON value, however written, have
// one canonical form; bodies that hold different values have different ones.
func TestCanonicalJSON(t *testing.T) {
	same := [][]string{
		{`{"a":1,"b":[1,2]}`, ` { "B" : [ 1.0 , 2e0 ] ,
			"A" : 10e-1 } `, `{"b":[0.1e1,20E-1],"a":1E+0}`},
		{`1`, `1.0`, `1e0`, `10e-1`, `0.1e1`, `100e-2`, `1E+0`, `1.000e00000000000000000000000`},
		{`0`, `-0`, `0.0`, `0e5`, `-0.000e-99999999999999999999`},
		{`1500`, `1.5e3`, `15e2`, `1500.000`, `0.0015e6`},
		{`0.00015`, `1.5e-4`, `15E-5`, `150e-6`},
		{`-2.5`, `-25e-1`, `-0.25E1`},
		{`1e999999`, `10e999998`, `0.1e1000000`},
		{`"A/é"`, `"\u0041\/\u00e9"`, `"\u0041/é"`},
		{`{"Units":1}`, `{"units":1}`, `{"\u0055NITS":1.0}`},
		{`{"a":1,"a":2}`, `{"a":2}`, `{"a":1,"A":2}`},
		{`[{"x":null},true,false]`, `[ { "X" : null } , true , false ]`},
		{`"\ud83d\ude00"`, `"😀"`},
		{`{}`, `{ }`}, {`[]`, ` [ ] `},
	}
	var forms []string
	for _, group := range same {
		want := string(canonicalJSON([]byte(group[0])))
		for _, body := range group[1:] {
			if got := string(canonicalJSON([]byte(body))); got != want {
				t.Errorf("%s: %q, but %s: %q", group[0], want, body, got)
			}
		}
		forms = append(forms, want)
	}
	for i, a := range forms {
		for _, b := range forms[i+1:] {
			if a == b {
				t.Errorf("two groups share the form %q", a)
			}
		}
	}
	for _, pair := range [][2]string{
		{`1`, `2`}, {`1`, `10`}, {`1.5`, `15`}, {`-1`, `1`}, {`1e999999`, `1e999998`},
		{`"a"`, `"A"`}, {`[1,2]`, `[2,1]`}, {`{"a":1}`, `{"a":"1"}`}, {`true`, `"true"`},
		{`null`, `{}`}, {`{"a":1}`, `{"a":1,"b":null}`}, {`{"a":[]}`, `{"a":{}}`},
		{`{`, `{}`}, {`1 2`, `12`}, {`1e1000000000`, `1E1000000000`},
	} {
		if a, b := canonicalJSON([]byte(pair[0])), canonicalJSON([]byte(pair[1])); bytes.Equal(a, b) {
			t.Errorf("%s and %s share the form %q", pair[0], pair[1], a)
		}
	}
	for body, want := range map[string]string{
		`{"B":[1.50,-0,"x\u0041\n"],"a":true}`: `{"a":true,"b":[15e-1,0,"xA\u000a"]}`,
		`-0.0120`:                              `-12e-3`,
		`1e999999`:                             `1e999999`,
		`1e-999999`:                            `1e-999999`,
		`1e1000000000`:                         `1e1000000000`, // kept as written
		`12E+0001000000000`:                    `12E+0001000000000`,
		`{"a":`:                                "raw\x00{\"a\":",
	} {
		if got := string(canonicalJSON([]byte(body))); got != want {
			t.Errorf("%s: %q, want %q", body, got, want)
		}
	}
}

// TestCanonicalJSONCost: the bodies that cost the old form seconds and
// hundreds of megabytes (a number's exponent applied digit by digit, a value
// decoded whole at every depth) cost a small multiple of their length now.
func TestCanonicalJSONCost(t *testing.T) {
	const size = 1 << 20
	for name, body := range map[string]string{
		"HugeExponents": "[" + strings.Repeat("1e999999,", size/9) + "1]",
		"LongDigits":    "[" + strings.Repeat("1", size-4) + "e5]",
		"DeepArrays":    strings.Repeat("[", 9999) + strings.Repeat("]", 9999),
		"DeepObjects":   strings.Repeat(`{"a":`, 9999) + "0" + strings.Repeat("}", 9999),
		"ManyKeys":      reversedKeys(100_000),
		"ManyElements":  "[" + strings.Repeat("0,", size/2-1) + "0]",
		"ManyStrings":   "[" + strings.Repeat(`"\u0041",`, size/9) + `""]`,
	} {
		t.Run(name, func(t *testing.T) {
			var out []byte
			alloc := allocated(func() { out = canonicalJSON([]byte(body)) })
			if bytes.HasPrefix(out, []byte("raw\x00")) {
				t.Fatalf("not read as JSON: %.100s", out)
			}
			if max := 3*len(body) + 8; len(out) > max {
				t.Errorf("%d bytes of form from %d of body", len(out), len(body))
			}
			if max := canonicalAllocBudget(len(body)); alloc > max {
				t.Errorf("allocated %d bytes for %d of body, more than %d", alloc, len(body), max)
			}
		})
	}
}

// canonicalAllocBudget is what the canonical form of a body of n bytes may
// allocate: json.Valid's stack of open values (up to 16n, for a body all
// brackets), the ends of objects and arrays (4n), the fields of an object
// while they are sorted (up to 48 bytes for each, for a body all short
// names: 6n), and the form itself (up to 3n, in a buffer that doubles).
// The race detector's runtime allocates more for the same work: half as
// much again is allowed under it.
func canonicalAllocBudget(n int) uint64 {
	budget := 32*uint64(n) + 64<<10
	if raceEnabled {
		budget += budget / 2
	}
	return budget
}

// reversedKeys is an object of n distinct names in descending order, every
// other one in capitals, so that the canonical form has all of them to fold
// and sort.
func reversedKeys(n int) string {
	fields := make([]string, n)
	for i := range fields {
		name := strconv.FormatInt(int64(n-i), 36)
		if i%2 == 1 {
			name = strings.ToUpper(name)
		}
		fields[i] = `"` + name + `":` + strconv.Itoa(i%10)
	}
	return "{" + strings.Join(fields, ",") + "}"
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// FuzzCanonicalJSON holds the canonical form to its budget for any body:
// at most three times the body's length, and a small multiple of it
// allocated on the way. The form of JSON is JSON, and its own form.
func FuzzCanonicalJSON(f *testing.F) {
	for _, s := range []string{`{"a":1,"B":[1.0,"x"]}`, `1e999999`, `[-0.0e-5,12E+3,"\ud800",null]`,
		`{"a":{"b":{"c":[[[]]]}},"A":true}`, "\"\xff\"", `{"a":1,"a":2}`, `[1 2]`, `1e0000000000000005`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var out []byte
		alloc := allocated(func() { out = canonicalJSON(body) })
		if len(out) > 3*len(body)+8 {
			t.Fatalf("%d bytes of form from %d of body %q", len(out), len(body), body)
		}
		if max := canonicalAllocBudget(len(body)); alloc > max {
			t.Fatalf("allocated %d bytes for %d of body %q, more than %d", alloc, len(body), body, max)
		}
		if !json.Valid(body) {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("form %q of %q is not JSON", out, body)
		}
		if again := canonicalJSON(out); !bytes.Equal(again, out) {
			t.Fatalf("form %q of %q has the form %q", out, body, again)
		}
		if !sameValue(decodeJSON(body), decodeJSON(out)) {
			t.Fatalf("form %q of %q holds another value", out, body)
		}
	})
}

// smallNumber reports whether n is short and its exponent small: a number
// big.Rat reads at once.
func smallNumber(n json.Number) bool {
	_, exp, _ := strings.Cut(strings.ToLower(string(n)), "e")
	e, err := strconv.Atoi(cmp.Or(exp, "0"))
	return len(n) <= 40 && err == nil && e > -400 && e < 400
}

// decodeJSON decodes valid JSON with its numbers as written.
func decodeJSON(b []byte) any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		panic(err)
	}
	return v
}

// sameValue reports whether the value a body holds (x) is the value its
// canonical form holds (y): the same names in lower case, numbers equal by
// value. Numbers beyond what big.Rat may be asked for quickly, and objects
// with one name in two letter cases (whose value encoding/json's map does
// not keep in order), pass unchecked.
func sameValue(x, y any) bool {
	switch x := x.(type) {
	case map[string]any:
		y, ok := y.(map[string]any)
		if !ok {
			return false
		}
		lower := make(map[string]any, len(x))
		for k, v := range x {
			lower[strings.ToLower(k)] = v
		}
		if len(lower) != len(x) {
			return true
		}
		if len(lower) != len(y) {
			return false
		}
		for k, v := range lower {
			if !sameValue(v, y[k]) {
				return false
			}
		}
		return true
	case []any:
		y, ok := y.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := y.(json.Number)
		if !ok {
			return false
		}
		if !smallNumber(x) || !smallNumber(y) {
			return true
		}
		a, _ := new(big.Rat).SetString(string(x))
		b, _ := new(big.Rat).SetString(string(y))
		return a.Cmp(b) == 0
	}
	return x == y
}

package jsontext_test

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/stockroom/stockroom/internal/jsontext"
)

// FuzzAppendString holds AppendString to encoding/json: the same text for
// every valid JSON string, read to its end, with a problem exactly when
// encoding/json would have put U+FFFD in place of something.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", `\"\\\/\b\f\n\r\t`, `\u0041\u00e9\u20ac`, `\ud83d\ude00`,
		`\ud800`, `\udc00x`, `\ude00\ud83d`, `\ud800\u0041`, "\xff", "a\xc0\xafb", "\ufffd", `\ufffd`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		data := []byte(`"` + s + `" `)
		var want string
		if json.Unmarshal(data, &want) != nil {
			return // not a JSON string
		}
		got, next, problem := jsontext.AppendString([]byte("x"), data, 0)
		if string(got) != "x"+want {
			t.Fatalf("%q: got %q, encoding/json %q", data, got[1:], want)
		}
		if next != len(data)-1 {
			t.Fatalf("%q: ends at %d, want %d", data, next, len(data)-1)
		}
		switch valid := utf8.ValidString(s); {
		case problem == jsontext.NoProblem && !valid, problem == jsontext.InvalidUTF8 && valid:
			t.Fatalf("%q: problem %d, valid UTF-8 %v", data, problem, valid)
		}
	})
}

// TestAppendStringProblems: which text is not Unicode, and which is.
func TestAppendStringProblems(t *testing.T) {
	for in, want := range map[string]jsontext.Problem{
		`"ok\u00e9"`:            jsontext.NoProblem,
		`"\ud83d\ude00"`:        jsontext.NoProblem,
		"\"\xef\xbf\xbd\"":      jsontext.NoProblem, // a U+FFFD the client sent
		`"\ufffd"`:              jsontext.NoProblem,
		`"a\ud800"`:             jsontext.LoneSurrogate,
		`"\udc00b"`:             jsontext.LoneSurrogate,
		`"\ude00\ud83d"`:        jsontext.LoneSurrogate,
		`"\ud800\u0041"`:        jsontext.LoneSurrogate,
		"\"a\xff\"":             jsontext.InvalidUTF8,
		"\"\xc0\xaf\"":          jsontext.InvalidUTF8,
		"\"\xff\\ud800\"":       jsontext.LoneSurrogate, // the last problem
		"\"\\ud800\xff\"":       jsontext.InvalidUTF8,
		`"\"quoted\" \\ \/ \t"`: jsontext.NoProblem,
	} {
		if _, _, got := jsontext.AppendString(nil, []byte(in), 0); got != want {
			t.Errorf("%s: problem %d, want %d", in, got, want)
		}
	}
}

// TestValueEnd: the end of each kind of value, however it nests and
// whatever its strings hold, followed by what comes after it.
func TestValueEnd(t *testing.T) {
	for _, value := range []string{
		`0`, `-1.5e+3`, `true`, `null`, `""`, `"a\"]}"`, `"\\"`, `[]`, `{}`,
		`[1,[2,[3]],"]"]`, `{"a":{"b":["}",{"c":null}]},"d":"\\\""}`, `[[[[[]]]]]`,
	} {
		for _, after := range []string{"", ",1", "]", "}", " x"} {
			data := []byte(value + after)
			if got := jsontext.ValueEnd(data, 0); got != len(value) {
				t.Errorf("%s: ends at %d, want %d", data, got, len(value))
			}
		}
		if s := `"` + value + `"`; json.Valid([]byte(s)) && jsontext.StringEnd([]byte(s+","), 0) != len(s) {
			t.Errorf("StringEnd(%s)", s)
		}
	}
}

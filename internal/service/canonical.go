package service

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom/internal/jsontext"
)

// The canonical form of a JSON body, which an Idempotency-Key's request hash
// is made from: two bodies holding the same JSON value have the same form,
// whatever their key order, white space, letter case of field names (which
// the API ignores), escapes in strings or spelling of numbers (1, 1.0, 1e0,
// 10e-1). Objects are written with their names lower-cased and sorted (of a
// name given twice, the last value counts, as encoding/json decodes it),
// strings with only the escapes JSON needs, and numbers as their significant
// digits and a power of ten: 15e-1, 0, -2e3.
//
// Its cost grows in step with the body's length, whatever the body holds
// (the sorting of each object's names aside): a number's exponent is read as
// text and never applied, and nested values are found through their ends,
// marked in one pass, instead of being read again at every depth. Any client
// that may make a request can have its body hashed, so this bound is the
// server's.

// canonicalSink is what the canonical form is written to: a buffer, or a
// buffered writer feeding a hash.
type canonicalSink interface {
	io.Writer
	io.ByteWriter
	io.StringWriter
}

// canonicalJSON returns body in its canonical form. A body that is not JSON
// is kept as it is, marked so that it cannot equal any canonical form.
func canonicalJSON(body []byte) []byte {
	var b bytes.Buffer
	writeCanonical(&b, body)
	return b.Bytes()
}

// writeCanonical writes body's canonical form to out.
func writeCanonical(out canonicalSink, body []byte) {
	// json.Valid checks the whole text, nested at most 10,000 deep, without
	// building anything; what follows may then read it without checks.
	if len(body) > math.MaxInt32 || !json.Valid(body) {
		out.WriteString("raw\x00")
		out.Write(body)
		return
	}
	c := canonicalizer{in: body, out: out, ends: containerEnds(body)}
	c.value(jsontext.SkipSpace(body, 0))
}

// containerEnds marks, for each object and array of valid JSON text, the
// offset just past its end, at the offset of its start.
func containerEnds(in []byte) []int32 {
	ends := make([]int32, len(in))
	var open []int32
	for i := 0; i < len(in); i++ {
		switch in[i] {
		case '"':
			i = jsontext.StringEnd(in, i) - 1
		case '{', '[':
			open = append(open, int32(i))
		case '}', ']':
			ends[open[len(open)-1]] = int32(i + 1)
			open = open[:len(open)-1]
		}
	}
	return ends
}

// canonicalizer writes the canonical form of valid JSON text.
type canonicalizer struct {
	in   []byte
	out  canonicalSink
	ends []int32
	buf  []byte
}

// member is a field of an object: its name, decoded and lower-cased, and
// where its value starts.
type member struct {
	name  string
	value int
}

// value writes the value that starts at in[i] and returns the offset just
// past it.
func (c *canonicalizer) value(i int) int {
	switch c.in[i] {
	case '{':
		c.object(i)
		return int(c.ends[i])
	case '[':
		c.array(i)
		return int(c.ends[i])
	case '"':
		var end int
		c.buf, end, _ = jsontext.AppendString(c.buf[:0], c.in, i)
		writeString(c.out, c.buf)
		return end
	case 't', 'f', 'n':
		end := jsontext.LiteralEnd(c.in, i)
		c.out.Write(c.in[i:end])
		return end
	}
	end := jsontext.LiteralEnd(c.in, i)
	c.buf = appendCanonicalNumber(c.buf[:0], c.in[i:end])
	c.out.Write(c.buf)
	return end
}

func (c *canonicalizer) array(i int) {
	c.out.WriteByte('[')
	for i = jsontext.SkipSpace(c.in, i+1); c.in[i] != ']'; {
		if c.in[i] == ',' {
			c.out.WriteByte(',')
			i = jsontext.SkipSpace(c.in, i+1)
		}
		i = jsontext.SkipSpace(c.in, c.value(i))
	}
	c.out.WriteByte(']')
}

func (c *canonicalizer) object(i int) {
	// The members are found first, each value skipped through its end,
	// then written in the order of their names.
	var members []member
	for i = jsontext.SkipSpace(c.in, i+1); c.in[i] != '}'; {
		if c.in[i] == ',' {
			i = jsontext.SkipSpace(c.in, i+1)
		}
		var end int
		c.buf, end, _ = jsontext.AppendString(c.buf[:0], c.in, i)
		name := strings.ToLower(string(c.buf))
		i = jsontext.SkipSpace(c.in, jsontext.SkipSpace(c.in, end)+1) // :
		members = append(members, member{name, i})
		i = jsontext.SkipSpace(c.in, c.skip(i))
	}
	slices.SortStableFunc(members, func(a, b member) int { return strings.Compare(a.name, b.name) })
	c.out.WriteByte('{')
	wrote := false
	for k, m := range members {
		if k+1 < len(members) && members[k+1].name == m.name {
			continue // a later value of the same name counts
		}
		if wrote {
			c.out.WriteByte(',')
		}
		wrote = true
		writeString(c.out, m.name)
		c.out.WriteByte(':')
		c.value(m.value)
	}
	c.out.WriteByte('}')
}

// skip returns the offset just past the value that starts at in[i].
func (c *canonicalizer) skip(i int) int {
	switch c.in[i] {
	case '{', '[':
		return int(c.ends[i])
	case '"':
		return jsontext.StringEnd(c.in, i)
	}
	return jsontext.LiteralEnd(c.in, i)
}

// writeString writes s as a JSON string, escaping only what JSON requires.
func writeString[T string | []byte](out canonicalSink, s T) {
	const hex = "0123456789abcdef"
	out.WriteByte('"')
	for i := range len(s) {
		switch ch := s[i]; {
		case ch == '"' || ch == '\\':
			out.WriteByte('\\')
			out.WriteByte(ch)
		case ch < 0x20:
			out.WriteString(`\u00`)
			out.WriteByte(hex[ch>>4])
			out.WriteByte(hex[ch&0xf])
		default:
			out.WriteByte(ch)
		}
	}
	out.WriteByte('"')
}

// maxExponentDigits bounds the exponent of a number that is given a
// canonical form: one of more digits (leading zeros aside) is kept as it was
// written. Such a number equals no other spelling then, which costs nothing
// real: no quantity of the API comes near it, so its request is refused
// anyway.
const maxExponentDigits = 9

// appendCanonicalNumber appends the canonical form of a JSON number: its
// significant digits, without leading or trailing zeros, and the power of
// ten they are multiplied by: 1, 1.0, 1e0 and 10e-1 are all 1e0; 0.0150 is
// 15e-3; any zero is 0. Its cost is linear in the number's length.
func appendCanonicalNumber(dst, num []byte) []byte {
	start, text := len(dst), num
	if text[0] == '-' {
		dst = append(dst, '-')
		text = text[1:]
	}
	mantissa, exponent := text, []byte(nil)
	if e := bytes.IndexAny(text, "eE"); e >= 0 {
		mantissa, exponent = text[:e], text[e+1:]
	}
	whole, frac, _ := bytes.Cut(mantissa, []byte("."))
	at := len(dst)
	dst = append(append(dst, whole...), frac...)
	digits := dst[at:]
	first := bytes.IndexFunc(digits, func(r rune) bool { return r != '0' })
	if first < 0 {
		return append(dst[:start], '0')
	}
	exp, ok := parseExponent(exponent)
	if !ok {
		return append(dst[:start], num...)
	}
	last := bytes.LastIndexFunc(digits, func(r rune) bool { return r != '0' })
	// The value is digits × 10^(exp − len(frac)); trailing zeros move into
	// the power.
	exp += int64(len(digits)-1-last) - int64(len(frac))
	dst = dst[:at+copy(digits, digits[first:last+1])]
	dst = append(dst, 'e')
	return strconv.AppendInt(dst, exp, 10)
}

// parseExponent reads a number's exponent ("", "5", "+05", "-12"), refusing
// one of more than maxExponentDigits digits once its leading zeros are gone.
func parseExponent(e []byte) (int64, bool) {
	neg := len(e) > 0 && e[0] == '-'
	if len(e) > 0 && (e[0] == '-' || e[0] == '+') {
		e = e[1:]
	}
	e = bytes.TrimLeft(e, "0")
	if len(e) > maxExponentDigits {
		return 0, false
	}
	var n int64
	for _, d := range e {
		n = n*10 + int64(d-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

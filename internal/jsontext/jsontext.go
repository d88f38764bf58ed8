// Package jsontext reads the strings of JSON text already known to be valid,
// and finds the ends of its values, without building any other value: what
// the walks over a request body (its decoding, the service's canonical form
// of it for an Idempotency-Key) need, in one place. Its cost is linear in
// the text.
package jsontext

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Problem is what is wrong with the text of a JSON string, which
// encoding/json lets pass silently, reading U+FFFD in its place.
type Problem int

// The problems of a string's text.
const (
	// NoProblem: the string is Unicode text.
	NoProblem Problem = iota
	// InvalidUTF8: the string holds bytes that are not UTF-8.
	InvalidUTF8
	// LoneSurrogate: the string holds a \u escape of half a UTF-16
	// surrogate pair without its other half.
	LoneSurrogate
)

// AppendString decodes the JSON string whose opening quote is data[i] and
// appends its text to dst. It returns dst, the offset just past the closing
// quote, and the last problem of the string's text, if any; what is not
// Unicode is decoded as U+FFFD, as encoding/json decodes it. The string must
// be valid JSON.
func AppendString(dst, data []byte, i int) ([]byte, int, Problem) {
	problem := NoProblem
	i++ // "
	for {
		ch := data[i]
		switch {
		case ch == '"':
			return dst, i + 1, problem
		case ch == '\\' && data[i+1] == 'u':
			r := hex4(data[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) {
				// Only a high half followed at once by a low half is one
				// character.
				if low, ok := escapeAt(data, i); ok && utf16.DecodeRune(r, low) != utf8.RuneError {
					r = utf16.DecodeRune(r, low)
					i += 6
				} else {
					r, problem = utf8.RuneError, LoneSurrogate
				}
			}
			dst = utf8.AppendRune(dst, r)
		case ch == '\\':
			dst = append(dst, unescape(data[i+1]))
			i += 2
		case ch < utf8.RuneSelf:
			dst = append(dst, ch)
			i++
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				problem = InvalidUTF8
			}
			dst = utf8.AppendRune(dst, r)
			i += size
		}
	}
}

// escapeAt reads the \uXXXX escape at data[i], if there is one.
func escapeAt(data []byte, i int) (rune, bool) {
	if i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
		return 0, false
	}
	return hex4(data[i+2 : i+6]), true
}

// hex4 reads the four hexadecimal digits of a \u escape.
func hex4(h []byte) rune {
	var r rune
	for _, c := range h {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// unescape gives the character of a one-letter JSON escape.
func unescape(ch byte) byte {
	switch ch {
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return ch // " \ /
}

// SkipSpace returns the offset of the first byte at or after i that is not
// JSON white space.
func SkipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n') {
		i++
	}
	return i
}

// LiteralEnd returns the offset just past the number, true, false or null
// that starts at data[i].
func LiteralEnd(data []byte, i int) int {
	for i < len(data) && strings.IndexByte(",]} \t\r\n", data[i]) < 0 {
		i++
	}
	return i
}

// StringEnd returns the offset just past the string whose opening quote is
// data[i], without decoding it.
func StringEnd(data []byte, i int) int {
	for i++; data[i] != '"'; i++ {
		if data[i] == '\\' {
			i++
		}
	}
	return i + 1
}

// ValueEnd returns the offset just past the value that starts at data[i],
// without looking into it: what a walk that passes a value over needs.
func ValueEnd(data []byte, i int) int {
	depth := 0
	for {
		switch data[i] {
		case '"':
			i = StringEnd(data, i)
		case '{', '[':
			depth++
			i++
		case '}', ']':
			depth--
			i++
		default:
			if depth == 0 {
				return LiteralEnd(data, i)
			}
			i++
		}
		if depth == 0 {
			return i
		}
	}
}

package httpapi

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stockroom/stockroom"
)

// checkJSON reports what encoding/json lets pass silently in a body it has
// parsed: a name given twice in one object (it keeps the last value), and
// text that is not Unicode, invalid UTF-8 or a UTF-16 surrogate escape
// without its pair (it stores U+FFFD instead). Each is a validation error
// under the path of the field in the body: units, lines[0].units. data must
// be valid JSON.
func checkJSON(data []byte, v *stockroom.Validation) {
	c := jsonChecker{data: data, v: v}
	c.value("")
}

const (
	msgGivenTwice     = "is given more than once"
	msgInvalidUTF8    = "is not valid UTF-8 text"
	msgLoneSurrogate  = `has a \u escape of half a UTF-16 surrogate pair without its other half`
	msgNameNotUnicode = "has a name that is not valid Unicode text"
)

// jsonChecker walks valid JSON text once, without building its values.
type jsonChecker struct {
	data []byte
	pos  int
	v    *stockroom.Validation
}

func (c *jsonChecker) space() {
	for c.pos < len(c.data) && strings.IndexByte(" \t\r\n", c.data[c.pos]) >= 0 {
		c.pos++
	}
}

func (c *jsonChecker) value(path string) {
	c.space()
	switch c.data[c.pos] {
	case '{':
		c.object(path)
	case '[':
		c.array(path)
	case '"':
		if _, problem := c.str(false); problem != "" {
			c.v.Add(path, problem)
		}
	default: // a number, true, false or null
		for c.pos < len(c.data) && strings.IndexByte(",]} \t\r\n", c.data[c.pos]) < 0 {
			c.pos++
		}
	}
}

func (c *jsonChecker) object(path string) {
	c.pos++ // {
	seen := map[string]int{}
	for {
		c.space()
		switch c.data[c.pos] {
		case '}':
			c.pos++
			return
		case ',':
			c.pos++
			continue
		}
		name, problem := c.str(true)
		field := name
		if path != "" {
			field = path + "." + name
		}
		if problem != "" {
			c.v.Add(field, msgNameNotUnicode)
		}
		if seen[name]++; seen[name] == 2 {
			c.v.Add(field, msgGivenTwice)
		}
		c.space()
		c.pos++ // :
		c.value(field)
	}
}

func (c *jsonChecker) array(path string) {
	c.pos++ // [
	for i := 0; ; {
		c.space()
		switch c.data[c.pos] {
		case ']':
			c.pos++
			return
		case ',':
			c.pos++
			continue
		}
		c.value(path + "[" + strconv.Itoa(i) + "]")
		i++
	}
}

// str reads a string and says what is wrong with its text, if anything. With
// keep, it returns the string's value (a name, which duplicates are found
// by), with U+FFFD for what is not Unicode.
func (c *jsonChecker) str(keep bool) (string, string) {
	var b strings.Builder
	problem := ""
	c.pos++ // "
	for {
		ch := c.data[c.pos]
		switch {
		case ch == '"':
			c.pos++
			return b.String(), problem
		case ch == '\\' && c.data[c.pos+1] == 'u':
			r := c.escape()
			if utf16.IsSurrogate(r) {
				// Only a high half followed at once by a low half is
				// one character.
				if next, ok := c.lowHalf(); ok && utf16.DecodeRune(r, next) != utf8.RuneError {
					r = utf16.DecodeRune(r, next)
					c.pos += 6
				} else {
					r, problem = utf8.RuneError, msgLoneSurrogate
				}
			}
			if keep {
				b.WriteRune(r)
			}
		case ch == '\\':
			if keep {
				b.WriteByte(unescape(c.data[c.pos+1]))
			}
			c.pos += 2
		default:
			r, size := utf8.DecodeRune(c.data[c.pos:])
			if r == utf8.RuneError && size == 1 {
				problem = msgInvalidUTF8
			}
			if keep {
				b.WriteRune(r)
			}
			c.pos += size
		}
	}
}

// escape reads a \uXXXX escape.
func (c *jsonChecker) escape() rune {
	n, _ := strconv.ParseUint(string(c.data[c.pos+2:c.pos+6]), 16, 32)
	c.pos += 6
	return rune(n)
}

// lowHalf peeks at a \uXXXX escape that follows.
func (c *jsonChecker) lowHalf() (rune, bool) {
	if c.pos+6 > len(c.data) || c.data[c.pos] != '\\' || c.data[c.pos+1] != 'u' {
		return 0, false
	}
	n, err := strconv.ParseUint(string(c.data[c.pos+2:c.pos+6]), 16, 32)
	return rune(n), err == nil
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

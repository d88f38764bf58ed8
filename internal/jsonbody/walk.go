package jsonbody

import (
	"strconv"
	"unicode/utf8"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/jsontext"
)

// decoder walks valid JSON text once.
type decoder struct {
	data []byte
	pos  int
	// path is where the walk is: the names and indexes from the top.
	path []segment
	// names are the names of the small objects the walk is in, each
	// object's after its parent's.
	names []string
	buf   []byte
	// types are the problems of values read into fields, text those of the
	// body's text and names (see Result.Problems).
	types, text stockroom.Validation
	unknown     []string
	unknownOf   []string
	// slots are the objects' slots (see object.slots).
	slots []slot
}

// segment is a step of a path: an object's field, or an array's element
// (index ≥ 0).
type segment struct {
	// sent is the name as the body has it; doc the field's documented
	// name, for a field of the type (else sent).
	sent, doc string
	index     int
}

// maxFieldLen bounds the path a problem is reported under, which is written
// out only for a problem: a body may nest ten thousand levels of long names,
// and thousands of problems within must not each cost the whole path. A
// longer path is cut short and ends in "…"; problems that then share a path
// are reported once.
const maxFieldLen = 128

// textProblem reports a problem of the body's text where the walk is.
func (d *decoder) textProblem(msg string) {
	if !d.text.Full() {
		d.text.Add(writePath(d.path, false), msg)
	}
}

// typeProblem reports a problem of the value of the field the walk is at.
func (d *decoder) typeProblem(msg string) {
	if !d.types.Full() {
		d.types.Add(writePath(d.path, true), msg)
	}
}

// fieldProblem reports a problem, to problems, of the field name of the
// object at path at (documented names).
func fieldProblem(problems *stockroom.Validation, at []segment, name, msg string) {
	if !problems.Full() {
		problems.Add(writePath(append(at[:len(at):len(at)], segment{sent: name, doc: name, index: -1}), true), msg)
	}
}

// addUnknown lists the field the walk is at as unknown, not a field of
// the resource of.
func (d *decoder) addUnknown(of string) {
	if len(d.unknown) < stockroom.MaxProblemFields {
		d.unknown = append(d.unknown, writePath(d.path, false))
		d.unknownOf = append(d.unknownOf, of)
	}
}

// writePath writes a path as its problems name it (note.a[1].b), by the
// documented names (doc) or as sent, at most maxFieldLen bytes of it.
func writePath(path []segment, doc bool) string {
	name := func(s segment) string {
		if doc {
			return s.doc
		}
		return s.sent
	}
	if len(path) == 1 && len(name(path[0])) <= maxFieldLen {
		return name(path[0])
	}
	b := make([]byte, 0, maxFieldLen+8)
	for i, s := range path {
		if len(b) > maxFieldLen {
			break
		}
		switch {
		case s.index >= 0:
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(s.index), 10)
			b = append(b, ']')
		case i > 0:
			b = append(b, '.')
			fallthrough
		default:
			n := name(s)
			b = append(b, n[:min(len(n), maxFieldLen+1-len(b))]...)
		}
	}
	if len(b) > maxFieldLen {
		cut := maxFieldLen
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		b = append(b[:cut], "…"...)
	}
	return string(b)
}

// check walks the value at d.pos without reading it into anything: its
// text is checked, and the names of its objects.
func (d *decoder) check() {
	d.pos = jsontext.SkipSpace(d.data, d.pos)
	switch d.data[d.pos] {
	case '{':
		first := d.enter()
		var seen map[string]int
		for _, ok := d.next(first, &seen); ok; _, ok = d.next(first, &seen) {
			d.check()
			d.pop()
		}
	case '[':
		for i := 0; d.element(i); i++ {
			d.check()
			d.pop()
		}
	case '"':
		d.checkedString()
	default: // a number, true, false or null
		d.pos = jsontext.LiteralEnd(d.data, d.pos)
	}
}

// checkedString reads the string at d.pos into d.buf, reporting what is
// wrong with its text.
func (d *decoder) checkedString() {
	if problem := d.str(); problem != "" {
		d.textProblem(problem)
	}
}

// str reads a string's value into d.buf and says what is wrong with its
// text, if anything; U+FFFD stands for what is not Unicode.
func (d *decoder) str() string {
	var problem jsontext.Problem
	d.buf, d.pos, problem = jsontext.AppendString(d.buf[:0], d.data, d.pos)
	return textProblems[problem]
}

// enter starts the walk of the object at d.pos; it returns where its
// names begin in d.names.
func (d *decoder) enter() int {
	d.pos++ // {
	return len(d.names)
}

// next moves the walk to the object's next member, entered at first (see
// given for seen): past its name, which it checks and returns, with its
// segment pushed, to its value. It returns false past the object's end.
func (d *decoder) next(first int, seen *map[string]int) (string, bool) {
	for {
		d.pos = jsontext.SkipSpace(d.data, d.pos)
		switch d.data[d.pos] {
		case '}':
			d.pos++
			d.names = d.names[:first]
			return "", false
		case ',':
			d.pos++
			continue
		}
		problem := d.str()
		name := string(d.buf)
		d.path = append(d.path, segment{sent: name, doc: name, index: -1})
		if problem != "" {
			d.textProblem(msgNameNotUnicode)
		}
		if d.given(first, seen, name) == 2 {
			d.textProblem(msgGivenTwice)
		}
		d.pos = jsontext.SkipSpace(d.data, jsontext.SkipSpace(d.data, d.pos)+1) // :
		return name, true
	}
}

// element moves the walk to element i of the array at d.pos (when i is 0)
// or it is in, with its segment pushed. It returns false past the array's
// end.
func (d *decoder) element(i int) bool {
	if i == 0 {
		d.pos++ // [
	}
	for {
		d.pos = jsontext.SkipSpace(d.data, d.pos)
		switch d.data[d.pos] {
		case ']':
			d.pos++
			return false
		case ',':
			d.pos++
			continue
		}
		d.path = append(d.path, segment{index: i})
		return true
	}
}

// pop leaves the member or element the walk is at.
func (d *decoder) pop() { d.path = d.path[:len(d.path)-1] }

// smallObject is how many names an object may have before the check for a
// name given twice looks names up in a map rather than among those before:
// most objects are small, and a map for each would cost a body of many
// small objects tens of times its length.
const smallObject = 8

// given counts name as given once more in the object whose names begin at
// d.names[first] (or, once it has more than smallObject of them, are
// counted in *seen), and returns how often it is given now.
func (d *decoder) given(first int, seen *map[string]int, name string) int {
	if *seen == nil && len(d.names)-first < smallObject {
		times := 1
		for _, n := range d.names[first:] {
			if n == name {
				times++
			}
		}
		d.names = append(d.names, name)
		return times
	}
	if *seen == nil {
		*seen = make(map[string]int, 2*smallObject)
		for _, n := range d.names[first:] {
			(*seen)[n]++
		}
	}
	(*seen)[name]++
	return (*seen)[name]
}

// countElements counts the elements of the array at d.pos, without looking
// into them.
func (d *decoder) countElements() int {
	n := 0
	for i := d.pos + 1; ; {
		i = jsontext.SkipSpace(d.data, i)
		switch d.data[i] {
		case ']':
			return n
		case ',':
			i++
		default:
			n++
			i = jsontext.ValueEnd(d.data, i)
		}
	}
}

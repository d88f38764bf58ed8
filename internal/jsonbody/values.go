package jsonbody

import (
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/jsontext"
)

// object is the reading of one JSON object into a struct.
type object struct {
	info *structInfo
	tags elemTags
	dst  reflect.Value
	// slots are what each field's names (its own at 2i, its alias at
	// 2i+1) were given: a window of the decoder's, which the objects
	// within take their own windows after.
	slots []slot
	// alts hold the values given under the fields' aliases, by field.
	alts map[int]reflect.Value
}

// slot is what one name of a field was given.
type slot struct {
	given bool // a value was read, the last time the name was given
	// spelled is the name as sent first; more its other spellings.
	spelled string
	more    []string
}

// structObject reads the object at d.pos into dst, a struct of info's type.
func (d *decoder) structObject(info *structInfo, tags elemTags, dst reflect.Value) {
	base := len(d.slots)
	// Grown and cleared in place rather than append(…, make(…)...),
	// whose temporary the compiler elides only without the race detector.
	n := 2 * len(info.fields)
	d.slots = slices.Grow(d.slots, n)[:base+n]
	clear(d.slots[base:])
	o := object{info: info, tags: tags, dst: dst, slots: d.slots[base:]}
	first := d.enter()
	var seen map[string]int
	for name, ok := d.next(first, &seen); ok; name, ok = d.next(first, &seen) {
		d.member(&o, name)
		d.pop()
	}
	d.settle(&o)
	clear(d.slots[base:])
	d.slots = d.slots[:base]
}

// member reads the value of the member name of o, at d.pos.
func (d *decoder) member(o *object, name string) {
	i, alias := o.info.find(name)
	switch {
	case i < 0 && (among(o.info.readOnly, name) || among(o.tags.readOnly, name)):
		d.check()
		return
	case i < 0 || among(o.tags.ignore, o.info.fields[i].name):
		d.addUnknown(o.info.resource)
		d.check()
		return
	}
	f := &o.info.fields[i]
	s := &o.slots[2*i+btoi(alias)]
	d.path[len(d.path)-1].doc = f.nameAs(alias)
	d.spelled(s, name)
	target := o.dst.Field(f.index)
	if alias {
		if o.alts == nil {
			o.alts = map[int]reflect.Value{}
		}
		if _, ok := o.alts[i]; !ok {
			o.alts[i] = reflect.New(f.typ).Elem()
		}
		target = o.alts[i]
	}
	s.given = d.read(f, target)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// spelled records the spelling of a name given: one given in two letter
// cases is a problem of each spelling (an exact repeat is the check of
// names given twice).
func (d *decoder) spelled(s *slot, name string) {
	if s.spelled == "" && len(s.more) == 0 {
		s.spelled = name // the first time (a name is never "": it matched a field's)
		return
	}
	if s.spelled == name || slices.Contains(s.more, name) {
		return
	}
	at := d.path[:len(d.path)-1]
	if len(s.more) == 0 {
		fieldProblem(&d.text, at, s.spelled, msgGivenInCases)
	}
	s.more = append(s.more, name)
	fieldProblem(&d.text, at, name, msgGivenInCases)
}

// settle resolves o's synonyms once every member is read. Both names given
// with different values is a problem of the alias, and leaves the field
// unset; an inverse given wins.
func (d *decoder) settle(o *object) {
	for i, alt := range o.alts {
		f, field := &o.info.fields[i], o.dst.Field(o.info.fields[i].index)
		own, other := o.slots[2*i].given, o.slots[2*i+1].given
		switch {
		case !other:
		case f.inverse:
			inv := !deref(alt).Bool()
			if own && deref(field).Bool() != inv {
				fieldProblem(&d.types, d.path, f.alias, "contradicts "+f.name+"; give one of them")
			}
			v := reflect.New(f.base).Elem()
			v.SetBool(inv)
			setValue(f, field, v)
		case !own:
			field.Set(alt)
		case !deref(field).Equal(deref(alt)):
			fieldProblem(&d.types, d.path, f.alias, "differs from "+f.name+"; give one of them")
			field.SetZero()
		}
	}
}

// deref is v, or what it points to.
func deref(v reflect.Value) reflect.Value {
	if v.Kind() == reflect.Pointer {
		return v.Elem()
	}
	return v
}

// setValue sets field, of f's type, to v, of its base type.
func setValue(f *fieldInfo, field, v reflect.Value) {
	if f.ptr {
		p := reflect.New(f.base)
		p.Elem().Set(v)
		v = p
	}
	field.Set(v)
}

// read reads the value at d.pos into target, a field of f's type, and
// reports whether it read one: null, or a value that cannot be read, leaves
// the field unset.
func (d *decoder) read(f *fieldInfo, target reflect.Value) bool {
	if f.kind == kindLines {
		return d.lines(f, target)
	}
	v := reflect.New(f.base).Elem()
	ok := d.scalar(f.kind, v)
	if ok {
		setValue(f, target, v)
	} else {
		target.SetZero()
	}
	return ok
}

// mismatch is the problem of a value of the wrong JSON type for a kind.
var mismatch = [...]string{
	kindString: msgNotString,
	kindInt:    msgNotInteger,
	kindBool:   msgNotBool,
	kindUnits:  msgNotNumber,
	kindTime:   msgNotString,
	kindRef:    msgNotInteger,
}

// scalar reads the value at d.pos into v, of a kind's base type, and
// reports whether it read one.
func (d *decoder) scalar(k kind, v reflect.Value) bool {
	switch c := d.data[d.pos]; {
	case c == 'n':
		d.pos += len("null")
		return false
	case c == '"' && (k == kindString || k == kindTime || k == kindRef):
		d.checkedString()
		return d.fromText(k, v, string(d.buf))
	case c == 't' || c == 'f':
		if k != kindBool {
			break
		}
		v.SetBool(c == 't')
		d.pos = jsontext.LiteralEnd(d.data, d.pos)
		return true
	case c == '-' || c >= '0' && c <= '9':
		end := jsontext.LiteralEnd(d.data, d.pos)
		lit := string(d.data[d.pos:end])
		d.pos = end
		return d.fromNumber(k, v, lit)
	}
	d.typeProblem(mismatch[k])
	d.check()
	return false
}

// fromText reads a string's text s into v, of a kind that a string holds.
func (d *decoder) fromText(k kind, v reflect.Value, s string) bool {
	switch k {
	case kindTime:
		t, err := stockroom.ParseTime(s)
		if err != nil {
			d.typeProblem(err.Error())
			return false
		}
		v.Set(reflect.ValueOf(t))
	case kindRef:
		if strings.TrimSpace(s) == "" {
			d.typeProblem(msgEmptyRef)
			return false
		}
		v.Set(reflect.ValueOf(stockroom.ParseOwnerRef(s)))
	default:
		v.SetString(s)
	}
	return true
}

// fromNumber reads a number's text lit into v, of a kind that a number holds.
func (d *decoder) fromNumber(k kind, v reflect.Value, lit string) bool {
	switch k {
	case kindUnits:
		u, err := stockroom.ParseUnits(lit)
		if err != nil {
			d.typeProblem(err.Error())
			return false
		}
		v.Set(reflect.ValueOf(u))
		return true
	case kindInt, kindRef:
		n, problem := integer(lit)
		if problem != "" {
			d.typeProblem(problem)
			return false
		}
		if k == kindRef {
			v.Set(reflect.ValueOf(stockroom.OwnerRef{ID: n}))
		} else {
			v.SetInt(n)
		}
		return true
	}
	d.typeProblem(mismatch[k])
	return false
}

// integer reads a JSON number that must be an integer (no fraction, no
// exponent) of 64 bits.
func integer(lit string) (int64, string) {
	digits := strings.TrimPrefix(lit, "-")
	if digits == "" || digits[0] == '0' && len(digits) > 1 || strings.ContainsFunc(digits, func(r rune) bool { return r < '0' || r > '9' }) {
		return 0, msgNotInteger
	}
	n, err := strconv.ParseInt(lit, 10, 64)
	if err != nil {
		return 0, msgOutOfRange
	}
	return n, ""
}

// lines reads the array at d.pos into target, a slice of structs, each
// element's problems named by its index (lines[2].units). An array longer
// than maxElements is refused unread; an element that is not an object is
// a problem of its own and reads as an empty one, so that the next keep
// their index.
func (d *decoder) lines(f *fieldInfo, target reflect.Value) bool {
	switch d.data[d.pos] {
	case 'n':
		d.pos += len("null")
		target.SetZero()
		return false
	case '[':
	default:
		d.typeProblem(msgNotLines)
		d.check()
		target.SetZero()
		return false
	}
	n := d.countElements()
	if n > maxElements {
		d.typeProblem(stockroom.TooManyElements(maxElements))
		d.check()
		target.SetZero()
		return false
	}
	s := reflect.Zero(f.typ)
	if n > 0 {
		s = reflect.MakeSlice(f.typ, n, n)
	}
	for i := 0; d.element(i); i++ {
		if d.data[d.pos] == '{' {
			d.structObject(f.elem, f.elemTags, s.Index(i))
		} else {
			d.typeProblem(msgNotObject)
			d.check()
		}
		d.pop()
	}
	target.Set(s)
	return true
}

package jsonbody

import (
	"cmp"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/stockroom/stockroom"
)

// kind is how a field's value is read.
type kind int

const (
	kindString kind = iota
	kindInt         // an int64
	kindBool
	kindUnits // a stockroom.Units
	kindTime  // a time.Time, from a string (stockroom.ParseTime)
	kindRef   // a stockroom.OwnerRef: an id (a number) or a ShortID (a string)
	kindLines // a slice of structs
)

var (
	unitsType = reflect.TypeFor[stockroom.Units]()
	timeType  = reflect.TypeFor[time.Time]()
	refType   = reflect.TypeFor[stockroom.OwnerRef]()
)

// structInfo is what decoding a struct type needs, read once from its tags.
type structInfo struct {
	fields []fieldInfo
	// readOnly are the read-only fields of the type's resource (the
	// readonly tag of its blank field).
	readOnly []string
	// resource is what the type is called in a refusal of a field it
	// does not have.
	resource string
}

// fieldInfo is one field of a struct type.
type fieldInfo struct {
	index int
	name  string // the json name
	alias string // another name, if any
	// inverse: the alias names the field's inverse (a bool).
	inverse bool
	kind    kind
	// typ is the field's type; base its type without the pointer, when
	// ptr.
	typ, base reflect.Type
	ptr       bool
	// elem and elemTags describe the elements of a slice (kindLines).
	elem     *structInfo
	elemTags elemTags
}

// elemTags are the tags of a slice field that speak of its elements'
// fields.
type elemTags struct {
	readOnly, ignore []string
}

// nameAs is the field's documented name as the body gave it: its own, or
// its alias.
func (f *fieldInfo) nameAs(alias bool) string {
	if alias {
		return f.alias
	}
	return f.name
}

// find returns the index of the field named name in any letter case, and
// whether name is its alias; -1 when there is none.
func (s *structInfo) find(name string) (int, bool) {
	for i := range s.fields {
		f := &s.fields[i]
		if strings.EqualFold(name, f.name) {
			return i, false
		}
		if f.alias != "" && strings.EqualFold(name, f.alias) {
			return i, true
		}
	}
	return -1, false
}

// among reports whether name is one of names, in any letter case.
func among(names []string, name string) bool {
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// structs caches structInfo by type.
var structs sync.Map // reflect.Type -> *structInfo

// structOf returns the description of struct type t.
func structOf(t reflect.Type) *structInfo {
	if s, ok := structs.Load(t); ok {
		return s.(*structInfo)
	}
	s := &structInfo{resource: resourceName(t.Name())}
	for i := range t.NumField() {
		sf := t.Field(i)
		switch {
		case sf.Name == "_":
			s.readOnly = splitTag(sf.Tag.Get("readonly"))
			s.resource = cmp.Or(sf.Tag.Get("resource"), s.resource)
		case !sf.IsExported() || sf.Tag.Get("json") == "-":
		case sf.Anonymous:
			panic("jsonbody: " + t.String() + " embeds " + sf.Name)
		default:
			s.fields = append(s.fields, fieldOf(t, sf))
		}
	}
	got, _ := structs.LoadOrStore(t, s)
	return got.(*structInfo)
}

// resourceName is the name of the resource a request type of that name
// describes: ItemChange, ReceiveRequest → Item, Receive.
func resourceName(typeName string) string {
	for _, suffix := range []string{"Request", "Change"} {
		if n, ok := strings.CutSuffix(typeName, suffix); ok && n != "" {
			return n
		}
	}
	return typeName
}

// fieldOf describes field sf of struct type t.
func fieldOf(t reflect.Type, sf reflect.StructField) fieldInfo {
	name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
	if name == "" {
		panic("jsonbody: " + t.String() + "." + sf.Name + " has no json name")
	}
	f := fieldInfo{index: sf.Index[0], name: name, alias: sf.Tag.Get("alias"), typ: sf.Type, base: sf.Type}
	if inv := sf.Tag.Get("inverse"); inv != "" {
		f.alias, f.inverse = inv, true
	}
	if f.base.Kind() == reflect.Pointer {
		f.base, f.ptr = f.base.Elem(), true
	}
	switch {
	case f.base == unitsType:
		f.kind = kindUnits
	case f.base == timeType && f.ptr:
		f.kind = kindTime
	case f.base == refType && f.ptr:
		f.kind = kindRef
	case f.base.Kind() == reflect.String:
		f.kind = kindString
	case f.base.Kind() == reflect.Int64:
		f.kind = kindInt
	case f.base.Kind() == reflect.Bool:
		f.kind = kindBool
	case !f.ptr && f.base.Kind() == reflect.Slice && f.base.Elem().Kind() == reflect.Struct:
		f.kind, f.elem = kindLines, structOf(f.base.Elem())
		f.elemTags = elemTags{readOnly: splitTag(sf.Tag.Get("readonly")), ignore: splitTag(sf.Tag.Get("ignore"))}
	default:
		panic("jsonbody: " + t.String() + "." + sf.Name + " is a " + sf.Type.String() + ", which a body does not hold")
	}
	if f.inverse && f.kind != kindBool {
		panic("jsonbody: " + t.String() + "." + sf.Name + " has an inverse but is no bool")
	}
	return f
}

// splitTag splits a tag's comma-separated list of names.
func splitTag(tag string) []string {
	if tag == "" {
		return nil
	}
	return strings.Split(tag, ",")
}

package csvexport

import (
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
)

// Columns is how records of type T (a struct) become CSV rows. The rule,
// one for every list and report (contract §13, documented in the OpenAPI
// description):
//
//   - one column per field of the record's JSON form, named and ordered as
//     the JSON names them; the fields of an embedded struct are the
//     record's own, as in JSON;
//   - a nested object (a struct field) becomes its fields' columns, named
//     "parent.child";
//   - an array or a map (a transaction's lines or details, an order's
//     lines) is one cell holding its JSON text, so that a record is always
//     one row;
//   - null (a nil pointer, slice or map) is an empty cell;
//   - quantities (stockroom.Units) are their exact decimal text (12.5),
//     never a float; times are RFC 3339 in UTC, fractional seconds only
//     where non-zero; booleans true/false.
type Columns[T any] struct {
	names []string
	cells []func(reflect.Value) string
}

// ColumnsOf returns the columns of T, a struct type. It panics on another
// type: which record an export writes is the server's code, not input.
func ColumnsOf[T any]() Columns[T] {
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Struct {
		panic("csvexport.ColumnsOf: " + t.String() + " is not a struct")
	}
	var c Columns[T]
	c.addStruct(t, "", func(v reflect.Value) (reflect.Value, bool) { return v, true })
	return c
}

// Header returns the header row: the columns' names.
func (c Columns[T]) Header() []string { return c.names }

// Row appends the cells of v's row to dst[:0] and returns it, so that an
// export reuses one slice for every row.
func (c Columns[T]) Row(dst []string, v T) []string {
	rv := reflect.ValueOf(&v).Elem()
	dst = dst[:0]
	for _, cell := range c.cells {
		dst = append(dst, cell(rv))
	}
	return dst
}

// getter reaches a nested value from the record; false when a nil pointer
// on the way leaves nothing to reach.
type getter func(reflect.Value) (reflect.Value, bool)

var (
	unitsType = reflect.TypeFor[stockroom.Units]()
	timeType  = reflect.TypeFor[time.Time]()
)

// addStruct adds the columns of the fields of t, reached by get, with names
// after prefix.
func (c *Columns[T]) addStruct(t reflect.Type, prefix string, get getter) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, embedded := jsonName(f)
		if name == "" && !embedded {
			continue
		}
		field := fieldGetter(get, i)
		if embedded {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			c.addStruct(ft, prefix, field)
			continue
		}
		c.addValue(f.Type, prefix+name, field)
	}
}

// addValue adds the column or columns of one field of type t.
func (c *Columns[T]) addValue(t reflect.Type, name string, get getter) {
	elem := t
	if t.Kind() == reflect.Pointer {
		elem = t.Elem()
		get = derefGetter(get)
	}
	if elem.Kind() == reflect.Struct && elem != unitsType && elem != timeType {
		c.addStruct(elem, name+".", get)
		return
	}
	format := formatter(elem)
	c.names = append(c.names, name)
	c.cells = append(c.cells, func(v reflect.Value) string {
		fv, ok := get(v)
		if !ok {
			return ""
		}
		return format(fv)
	})
}

// jsonName is the JSON name of field f ("" when JSON leaves it out), and
// whether it is an embedded struct whose fields JSON shows as its parent's.
func jsonName(f reflect.StructField) (string, bool) {
	tag := f.Tag.Get("json")
	name, _, _ := strings.Cut(tag, ",")
	if name == "-" && tag == "-" {
		return "", false
	}
	if f.Anonymous && name == "" {
		t := f.Type
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		return "", t.Kind() == reflect.Struct
	}
	if !f.IsExported() {
		return "", false
	}
	if name == "" {
		name = f.Name
	}
	return name, false
}

func fieldGetter(get getter, i int) getter {
	return func(v reflect.Value) (reflect.Value, bool) {
		pv, ok := get(v)
		if !ok {
			return pv, false
		}
		if pv.Kind() == reflect.Pointer {
			if pv.IsNil() {
				return pv, false
			}
			pv = pv.Elem()
		}
		return pv.Field(i), true
	}
}

func derefGetter(get getter) getter {
	return func(v reflect.Value) (reflect.Value, bool) {
		pv, ok := get(v)
		if !ok || pv.IsNil() {
			return pv, false
		}
		return pv.Elem(), true
	}
}

// formatter returns how a value of type t is written in its cell.
func formatter(t reflect.Type) func(reflect.Value) string {
	switch {
	case t == unitsType:
		return func(v reflect.Value) string { return v.Interface().(stockroom.Units).String() }
	case t == timeType:
		return func(v reflect.Value) string { return v.Interface().(time.Time).UTC().Format(time.RFC3339Nano) }
	}
	switch t.Kind() {
	case reflect.String:
		return reflect.Value.String
	case reflect.Bool:
		return func(v reflect.Value) string { return strconv.FormatBool(v.Bool()) }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(v reflect.Value) string { return strconv.FormatInt(v.Int(), 10) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return func(v reflect.Value) string { return strconv.FormatUint(v.Uint(), 10) }
	}
	// Arrays, maps, interfaces and anything else: its JSON text.
	return jsonCell
}

// jsonCell writes a value as its JSON text; nil is an empty cell.
func jsonCell(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Slice, reflect.Map, reflect.Interface:
		if v.IsNil() {
			return ""
		}
	}
	b, err := stockroom.MarshalAnswer(v.Interface())
	if err != nil {
		panic(err.Error()) // a record that does not encode is a bug of the server
	}
	return strings.TrimSuffix(string(b), "\n")
}

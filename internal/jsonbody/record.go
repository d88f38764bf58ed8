package jsonbody

import (
	"encoding/json"
	"reflect"
	"strings"
)

// Record reads one row of a table into the struct dst points to, exactly
// as Decode reads a body (contract §15, `stockroom import`): names are the
// table's columns, the API's field names in any letter case, with their
// synonyms, and values the row's cells. Each cell is given to the decoder
// as its field's type reads it: a number's text as a number, true or false
// (any case) as a bool, an owner's id as an id and anything else as text,
// so a cell that is not of its field's type is that field's problem
// ("must be a number"), worded as for a body. An empty cell is a field
// left out. Columns beyond the row's cells are empty.
func Record(names, values []string, dst any) (Result, error) {
	info := structOf(reflect.TypeOf(dst).Elem())
	var b strings.Builder
	b.WriteByte('{')
	for i, name := range names {
		if i >= len(values) || values[i] == "" {
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.Write(quoted(strings.TrimSpace(name)))
		b.WriteByte(':')
		k := kindString
		if at, _ := info.find(strings.TrimSpace(name)); at >= 0 {
			k = info.fields[at].kind
		}
		b.Write(cell(k, values[i]))
	}
	b.WriteByte('}')
	return Decode([]byte(b.String()), dst)
}

// Unknown returns the names among names that are not fields of the struct
// dst points to, in any letter case, nor read-only fields of its resource:
// the columns of a table that Record would list as unknown in every row.
func Unknown(names []string, dst any) []string {
	info := structOf(reflect.TypeOf(dst).Elem())
	var out []string
	for _, name := range names {
		name = strings.TrimSpace(name)
		if at, _ := info.find(name); at < 0 && !among(info.readOnly, name) {
			out = append(out, name)
		}
	}
	return out
}

// cell is the JSON text of a cell s for a field of kind k: the literal its
// type reads when s is one, else s as a string, which the decoder refuses
// for a number or a bool with the field's own problem.
func cell(k kind, s string) []byte {
	t := strings.TrimSpace(s)
	switch k {
	case kindInt, kindUnits, kindRef:
		if t != "" && (t[0] == '-' || t[0] >= '0' && t[0] <= '9') && json.Valid([]byte(t)) {
			return []byte(t)
		}
	case kindBool:
		if strings.EqualFold(t, "true") || strings.EqualFold(t, "false") {
			return []byte(strings.ToLower(t))
		}
	}
	return quoted(s)
}

// quoted is s as a JSON string.
func quoted(s string) []byte {
	b, _ := json.Marshal(s) // a string always marshals
	return b
}

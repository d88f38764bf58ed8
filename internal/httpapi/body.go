package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
)

func isTooLarge(err error) bool {
	var mbe *http.MaxBytesError
	return errors.As(err, &mbe)
}

// bodyError is the refusal of a body that could not be read.
func bodyError(err error) error {
	if isTooLarge(err) {
		return tooLarge()
	}
	return stockroom.Errorf(stockroom.EBADREQUEST, "The request body could not be read.")
}

func tooLarge() error {
	return stockroom.Errorf(stockroom.ETOOLARGE, "The request body is larger than 1 MiB.")
}

// A refused body is read to its end before the answer, within these bounds:
// a client that sends its whole request before it reads, as many do, then
// finds the 413 instead of a connection reset under its feet, and an endless
// upload still cannot hold the server.
const (
	discardMaxBytes = 16 << 20
	discardMaxTime  = 5 * time.Second
)

// discardBody reads what is left of r's body and drops it. A client that
// asked whether to send a body (Expect: 100-continue) and has not been told
// to is not asked now: it sends nothing.
func discardBody(r *http.Request) {
	info := infoFrom(r.Context())
	if info.body == nil || info.conn == nil {
		return
	}
	if r.ContentLength > MaxBodyBytes && strings.EqualFold(r.Header.Get("Expect"), "100-continue") {
		return
	}
	_ = info.conn.SetReadDeadline(time.Now().Add(discardMaxTime))
	_, _ = io.CopyN(io.Discard, info.body, discardMaxBytes)
}

// object is a JSON request body whose field names are matched without regard
// to letter case, as the original product binds them. Unknown fields are
// ignored. Each accessor returns nil for an absent or null field and records
// a validation error, under the field's documented name, for a value of the
// wrong JSON type.
type object map[string]json.RawMessage

// decodeObject reads a JSON object body. A body that is not JSON, or not an
// object, is bad_request. One that names a field twice (in any letter case at
// the top, with one spelling at any depth) or holds text that is not Unicode
// is a validation error (see checkJSON).
func decodeObject(r *http.Request) (object, error) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
		return nil, stockroom.Errorf(stockroom.EBADREQUEST, "The request body must be JSON (Content-Type: application/json).")
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, bodyError(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil || raw == nil {
		return nil, stockroom.Errorf(stockroom.EBADREQUEST, "The request body is not a JSON object.")
	}
	var v stockroom.Validation
	checkJSON(body, &v)
	return newObject(raw, &v, ""), v.Err()
}

// newObject matches the fields of a decoded JSON object without regard to
// letter case. A name given in two letter cases is a problem of each
// spelling, named with the prefix (the object's path in the body).
func newObject(raw map[string]json.RawMessage, v *stockroom.Validation, prefix string) object {
	o := make(object, len(raw))
	spellings := make(map[string][]string, len(raw))
	for k, val := range raw {
		lk := strings.ToLower(k)
		o[lk] = val
		spellings[lk] = append(spellings[lk], k)
	}
	for _, names := range spellings {
		if len(names) > 1 {
			for _, k := range names {
				v.Add(prefix+k, "is given more than once, in different letter cases")
			}
		}
	}
	return o
}

func (o object) raw(name string) (json.RawMessage, bool) {
	b, ok := o[strings.ToLower(name)]
	if !ok || string(b) == "null" {
		return nil, false
	}
	return b, true
}

func (o object) str(v *stockroom.Validation, name string) *string {
	b, ok := o.raw(name)
	if !ok {
		return nil
	}
	var s string
	if json.Unmarshal(b, &s) != nil {
		v.Add(name, "must be a string")
		return nil
	}
	return &s
}

var jsonInteger = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

func (o object) int(v *stockroom.Validation, name string) *int64 {
	b, ok := o.raw(name)
	if !ok {
		return nil
	}
	if !jsonInteger.Match(b) {
		v.Add(name, "must be an integer")
		return nil
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		v.Add(name, "is out of range")
		return nil
	}
	return &n
}

func (o object) units(v *stockroom.Validation, name string) *stockroom.Units {
	b, ok := o.raw(name)
	if !ok {
		return nil
	}
	u, err := stockroom.ParseUnits(string(b))
	if err != nil {
		if len(b) > 0 && (b[0] == '"' || b[0] == '{' || b[0] == '[' || b[0] == 't' || b[0] == 'f') {
			v.Add(name, "must be a number")
		} else {
			v.Add(name, err.Error())
		}
		return nil
	}
	return &u
}

func (o object) bool(v *stockroom.Validation, name string) *bool {
	b, ok := o.raw(name)
	if !ok {
		return nil
	}
	var x bool
	if json.Unmarshal(b, &x) != nil {
		v.Add(name, "must be true or false")
		return nil
	}
	return &x
}

// each reads a field holding an array of objects, passing each element to
// read with a validation of its own, whose problems are reported as the
// element's (name[i].field). A value that is not such an array, or an
// element that is not an object, is a validation error.
func (o object) each(v *stockroom.Validation, name string, read func(el object, ev *stockroom.Validation)) {
	b, ok := o.raw(name)
	if !ok {
		return
	}
	var elems []json.RawMessage
	if json.Unmarshal(b, &elems) != nil {
		v.Add(name, "must be an array")
		return
	}
	for i, raw := range elems {
		prefix := name + "[" + strconv.Itoa(i) + "]"
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil || m == nil {
			// Read as empty, so that later elements keep their index.
			v.Add(prefix, "must be an object")
			read(object{}, &stockroom.Validation{})
			continue
		}
		el := make(object, len(m))
		for k, val := range m {
			el[strings.ToLower(k)] = val
		}
		var ev stockroom.Validation
		read(el, &ev)
		if e, ok := ev.Err().(*stockroom.Error); ok {
			for field, msgs := range e.Details {
				for _, msg := range msgs {
					v.Add(prefix+"."+field, msg)
				}
			}
		}
	}
}

// synonym reads a field that clients may send under either of two names
// (category or categoryID, uOM or unit). Both with different values is a
// validation error.
func synonym[T comparable](o object, v *stockroom.Validation, name, alt string, get func(object, *stockroom.Validation, string) *T) *T {
	a, b := get(o, v, name), get(o, v, alt)
	switch {
	case a != nil && b != nil && *a != *b:
		v.Add(alt, "differs from "+name+"; give one of them")
		return nil
	case a != nil:
		return a
	}
	return b
}

// time reads a datetime string as the contract accepts it.
func (o object) time(v *stockroom.Validation, name string) *time.Time {
	s := o.str(v, name)
	if s == nil {
		return nil
	}
	t, err := stockroom.ParseTime(*s)
	if err != nil {
		v.Add(name, err.Error())
		return nil
	}
	return &t
}

// The zero-value forms of the accessors, for optional fields whose zero means
// "not given".

func (o object) strOr(v *stockroom.Validation, name string) string {
	if s := o.str(v, name); s != nil {
		return *s
	}
	return ""
}

func (o object) intOr(v *stockroom.Validation, name string) int64 {
	if n := o.int(v, name); n != nil {
		return *n
	}
	return 0
}

func (o object) unitsOr(v *stockroom.Validation, name string) stockroom.Units {
	if u := o.units(v, name); u != nil {
		return *u
	}
	return stockroom.Units{}
}

// owner reads an owner: a customerID (an integer, 0 for the house's own
// stock) or a customer ShortID (a string).
func (o object) owner(v *stockroom.Validation, name string) *stockroom.OwnerRef {
	b, ok := o.raw(name)
	if !ok {
		return nil
	}
	if b[0] == '"' {
		if s := o.str(v, name); s != nil {
			return ownerFromText(v, name, *s)
		}
		return nil
	}
	if n := o.int(v, name); n != nil {
		return ownerFromID(v, name, *n)
	}
	return nil
}

// ownerFromText reads an owner given as text (a query parameter, a JSON
// string): digits are a customerID, anything else a ShortID.
func ownerFromText(v *stockroom.Validation, name, s string) *stockroom.OwnerRef {
	if strings.TrimSpace(s) == "" {
		v.Add(name, "is empty: give a customerID, 0 or a customer ShortID")
		return nil
	}
	ref := stockroom.ParseOwnerRef(s)
	if ref.ShortID == "" {
		return ownerFromID(v, name, ref.ID)
	}
	return &ref
}

// ownerFromID reads an owner given as a customerID (0: the house).
func ownerFromID(v *stockroom.Validation, name string, id int64) *stockroom.OwnerRef {
	if id < 0 {
		v.Add(name, "must be a customerID, 0 or a customer ShortID")
		return nil
	}
	return &stockroom.OwnerRef{ID: id}
}

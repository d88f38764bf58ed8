// Package jsonbody reads the JSON body of a request into the Go type that
// describes it, as the contract asks (§1): leniently, field names in any
// letter case, with the synonyms a field declares, every field whose value
// cannot be read named at once, and the fields the type does not have
// ignored and listed for the caller. The type's tags are the one
// description of the body, for the server as for the SDK, which sends the
// same types:
//
//	json:"category,omitempty"  the field's name (as encoding/json has it)
//	alias:"categoryID"         another name of the field; both given with
//	                           different values is a problem of the alias
//	inverse:"active"           (a bool) another name of the field's inverse;
//	                           both given and contradicting is a problem of it
//	readonly:"partNo,created"  fields of the resource that the server writes
//	                           and a client may send back as it read them:
//	                           neither read nor unknown. On a blank field
//	                           (_ struct{}) for the type's own, on a slice
//	                           field for its elements'.
//	ignore:"unitPrice"         on a slice field: fields of its elements'
//	                           type that mean nothing there, ignored and
//	                           listed as unknown
//	resource:"Item"            on the blank field: what the type is called
//	                           where a field is said not to be one of it
//	                           (by default the type's name less a Request
//	                           or Change suffix)
//
// encoding/json checks the body's syntax (json.Valid); then one walk over
// its text reads it, in time and memory linear in its length however it
// nests (contract §14): an array of lines is counted before it is read, and
// one longer than an order may be is not read. The walk checks what
// encoding/json lets pass silently: a name given twice in an object (it
// keeps the last value), and text that is not Unicode (it reads U+FFFD
// instead). Quantities (stockroom.Units) are read exactly from the number's
// text, never through a float. Building on json.Decoder's tokens instead
// would lose both checks (a token's text is already decoded) and box every
// token; the walk over valid text is the one the HTTP layer used for those
// checks since issue 38.
package jsonbody

import (
	"encoding/json"
	"reflect"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/jsontext"
)

// Result is what Decode found in a body besides the values it read.
type Result struct {
	// Problems are the body's faults, each under the path of its field.
	// A value that is not of the field's type, synonyms that disagree and
	// an array of more than stockroom.MaxOrderLines elements are named by
	// the fields' documented names ("lines[2].units", "categoryID"); a
	// name given twice and text that is not Unicode by the path as sent.
	// A field whose value cannot be read has that problem only.
	Problems stockroom.Validation
	// Unknown are the paths, as sent, of the fields the type does not have
	// ("descripton", "lines[0].colour"), nor among the read-only fields of
	// its resource: at most stockroom.MaxProblemFields of them, each cut
	// short as the paths of problems are.
	Unknown []string
	// UnknownOf names, for each of Unknown, the resource whose field it is
	// not ("Item", "PurchaseLine"): a strict request (contract §1) is
	// refused with "is not a field of" it.
	UnknownOf []string
}

// Strict adds to v, for each unknown field of r, the problem of a strict
// request (contract §1): "is not a field of Item".
func (r Result) Strict(v *stockroom.Validation) {
	for i, path := range r.Unknown {
		v.Add(path, "is not a field of "+r.UnknownOf[i])
	}
}

// Decode reads data, which must be a JSON object, into the struct dst
// points to. A body that is not JSON, or not an object, is a bad_request
// error; whatever else is wrong with it is in the Result. It panics when
// dst's type has a field of a kind it does not read: the request types are
// the program's own.
func Decode(data []byte, dst any) (Result, error) {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		panic("jsonbody: Decode needs a pointer to a struct, not " + rv.Type().String())
	}
	info := structOf(rv.Elem().Type())
	start := jsontext.SkipSpace(data, 0)
	if !json.Valid(data) || data[start] != '{' {
		return Result{}, stockroom.Errorf(stockroom.EBADREQUEST, "The request body is not a JSON object.")
	}
	d := decoder{data: data, pos: start}
	d.structObject(info, elemTags{}, rv.Elem())
	// A field's type speaks for it: its text's problems, and those of its
	// spellings, are left out (as they are when the two come from
	// different checks: Validation.Merge).
	d.types.Merge(d.text.Err())
	return Result{Problems: d.types, Unknown: d.unknown, UnknownOf: d.unknownOf}, nil
}

// maxElements bounds the arrays of a body: every array a request holds is a
// list of lines or of components, which validation holds to
// stockroom.MaxOrderLines. A longer one is refused as it is, its elements
// unread: whatever they hold, they could only lengthen the refusal.
const maxElements = stockroom.MaxOrderLines

// The problems of a body's text and names, and of its values' types.
const (
	msgGivenTwice     = "is given more than once"
	msgGivenInCases   = "is given more than once, in different letter cases"
	msgInvalidUTF8    = "is not valid UTF-8 text"
	msgLoneSurrogate  = `has a \u escape of half a UTF-16 surrogate pair without its other half`
	msgNameNotUnicode = "has a name that is not valid Unicode text"
	msgNotString      = "must be a string"
	msgNotInteger     = "must be an integer"
	msgNotNumber      = "must be a number"
	msgNotBool        = "must be true or false"
	msgNotLines       = "must be an array of objects"
	msgNotObject      = "must be an object"
	msgOutOfRange     = "is out of range"
	msgEmptyRef       = "is empty: give an id or a ShortID"
)

// textProblems are the messages of the problems of a string's text.
var textProblems = [...]string{
	jsontext.NoProblem:     "",
	jsontext.InvalidUTF8:   msgInvalidUTF8,
	jsontext.LoneSurrogate: msgLoneSurrogate,
}

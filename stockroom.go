// Package stockroom holds the domain of the Stockroom inventory service: its
// types, its error codes and the pure rules that do not depend on a database
// or a transport. It imports nothing else of the project, so every other
// package can depend on it.
package stockroom

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// Error codes are the machine-readable values of the error object's "error"
// field. They are part of the public contract; the HTTP layer maps each to one
// status code.
const (
	EBADREQUEST     = "bad_request"
	EINVALID        = "validation_error"
	EUNAUTHORIZED   = "unauthorized"
	EFORBIDDEN      = "forbidden"
	ENOTFOUND       = "not_found"
	EMETHOD         = "method_not_allowed"
	ECONFLICT       = "conflict"
	ETOOLARGE       = "payload_too_large"
	EUNSUPPORTED    = "unsupported_media_type"
	EIDEMPOTENCY    = "idempotency_mismatch"
	ERATELIMITED    = "rate_limited"
	EINTERNAL       = "internal_error"
	ENOTIMPLEMENTED = "not_implemented"
	EUNAVAILABLE    = "unavailable"
)

// The exact 403 messages of the specification. Clients match on them, so they
// must never be reworded.
const (
	MsgReadOnly        = "Account is read-only."
	MsgOutOfScope      = "Warehouse is outside the client's authorized scope."
	MsgOwnerOutOfScope = "Owner is outside the client's authorized scope."
	MsgNoPermission    = "Insufficient permissions."
	MsgReportDenied    = "Report access denied."
	MsgValidation      = "Model validation failed."
	MsgInternal        = "Internal error."
	MsgInvalidClient   = "Invalid client credentials."
	MsgInvalidToken    = "The access token is missing, invalid or expired."
	MsgDatabaseOffline = "The service is temporarily unavailable; try again shortly."
)

// Error is the one error type that crosses package boundaries when the cause
// is meant for the caller. Any other error reaching the HTTP layer is treated
// as internal: logged for the operator, shown to the user as "Internal error.".
type Error struct {
	// Code is one of the E* constants.
	Code string
	// Message is a human-readable sentence safe to show to the client.
	Message string
	// Details maps field names to their validation messages for EINVALID;
	// for any code, the refusal of an atomic batch names there the
	// operation refused ("operations[3]").
	Details map[string][]string
}

// Error implements the error interface.
func (e *Error) Error() string {
	if len(e.Details) == 0 {
		return fmt.Sprintf("stockroom error: code=%s message=%s", e.Code, e.Message)
	}
	keys := make([]string, 0, len(e.Details))
	for k := range e.Details {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%q", k, e.Details[k])
	}
	return fmt.Sprintf("stockroom error: code=%s message=%s details:%s", e.Code, e.Message, b.String())
}

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code string, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, EINTERNAL for
// any other non-nil error and "" for nil.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the client-safe message of err: the message of an
// *Error, or "Internal error." for anything else.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Message
	}
	return MsgInternal
}

// Validation collects field errors so that every failing field of a request is
// reported at once. The zero value is ready to use.
type Validation struct {
	details map[string][]string
}

// MaxProblemFields bounds the fields one refusal names. A request meant to
// succeed never fails in more (an order of a thousand lines with every field
// wrong comes to fewer); a body made to fail everywhere would otherwise make
// its answer, and the work of building it, many times its own size. The
// problems of further fields are left out; the request is refused all the
// same.
const MaxProblemFields = 10_000

// Add records msg against field. A message the field has already is not
// repeated: a body can hold the same fault many times over, and its answer
// should not grow with each. Past MaxProblemFields fields, a new field is
// not recorded.
func (v *Validation) Add(field, msg string) {
	if v.details == nil {
		v.details = make(map[string][]string)
	}
	msgs, known := v.details[field]
	if !known && v.Full() {
		return
	}
	if !slices.Contains(msgs, msg) {
		v.details[field] = append(msgs, msg)
	}
}

// Full reports whether v names MaxProblemFields fields, all a refusal may:
// a search for more problems may stop.
func (v *Validation) Full() bool { return len(v.details) >= MaxProblemFields }

// Has reports whether field already has an error, so later checks on the same
// field can be skipped.
func (v *Validation) Has(field string) bool {
	_, ok := v.details[field]
	return ok
}

// Merge adds the field problems of err to v, if err is a validation error,
// and reports whether it was one. Fields v already has problems with, in
// any letter case, keep only those: the first check to refuse a field
// speaks for it.
func (v *Validation) Merge(err error) bool {
	var e *Error
	if !errors.As(err, &e) || e.Code != EINVALID {
		return false
	}
	// Looked up by a folded key, not compared pairwise: a request can bring
	// thousands of problems to each side.
	had := make(map[string]bool, len(v.details))
	for f := range v.details {
		had[foldField(f)] = true
	}
	for field, msgs := range e.Details {
		if had[foldField(field)] {
			continue
		}
		for _, m := range msgs {
			v.Add(field, m)
		}
	}
	return true
}

// foldField is the key under which a field is found in any letter case:
// each character replaced by the least of its simple case-folding orbit, so
// that two names have one key exactly when strings.EqualFold holds.
func foldField(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}

// Err returns the collected failures as an EINVALID *Error, or nil if there
// are none.
func (v *Validation) Err() error {
	if len(v.details) == 0 {
		return nil
	}
	return &Error{Code: EINVALID, Message: MsgValidation, Details: v.details}
}

// Invalid is a shorthand for a validation error on a single field.
func Invalid(field, msg string) *Error {
	return &Error{Code: EINVALID, Message: MsgValidation, Details: map[string][]string{field: {msg}}}
}

// What stores return for the two refusals that only the database can see;
// the service says which record was missing or taken. Unmapped, they still
// reach clients as a plain 404 or 409.
var (
	// ErrNotFound: the record does not exist.
	ErrNotFound = &Error{Code: ENOTFOUND, Message: "Not found."}
	// ErrDuplicate: a record with the same unique key exists.
	ErrDuplicate = &Error{Code: ECONFLICT, Message: "Already exists."}
)

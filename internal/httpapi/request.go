package httpapi

import (
	"cmp"
	"net/http"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// readRequest gathers what a handler read of a request for the service to
// judge in the contract's order: the input, the fields that could not be
// decoded (v), and what went wrong reading the request: in order, the
// refusal of the checks every route shares (endpoint), an unusable
// Idempotency-Key, and readErr, the handler's own. Validation errors among
// them join the fields' problems, the shared checks' first; a path that names
// nothing (404) is reported when existence is; anything else makes the
// request unreadable.
func readRequest[T any](r *http.Request, in T, v stockroom.Validation, readErr error) service.Request[T] {
	info := infoFrom(r.Context())
	req := service.Request[T]{In: in}
	for _, err := range []error{info.inputErr, info.keyErr} {
		if !req.Problems.Merge(err) {
			req.Unreadable = cmp.Or(req.Unreadable, err)
		}
	}
	req.Problems.Merge(v.Err())
	switch {
	case req.Problems.Merge(readErr):
	case stockroom.ErrorCode(readErr) == stockroom.ENOTFOUND:
		req.Missing = readErr
	default:
		req.Unreadable = cmp.Or(req.Unreadable, readErr)
	}
	return req
}

// jsonRequest is the request of a handler whose input is its JSON body.
func jsonRequest[T any](r *http.Request) service.Request[T] {
	var in T
	return bodyRequest(r, in, nil, func(in *T) any { return in }, false)
}

// bodyRequest is readRequest for a request whose input holds its JSON
// body: in as the path gave it (pathErr: why the path names nothing), and
// the body (when optional, an empty one is an empty object), read now
// within its bound and decoded into the part of in that part points to
// once the service has checked the caller's permission (Request.Decode).
func bodyRequest[T any](r *http.Request, in T, pathErr error, part func(*T) any, optional bool) service.Request[T] {
	body, readErr := readJSON(r, optional)
	req := readRequest(r, in, stockroom.Validation{}, pathErr)
	req.Decode = func(in *T) error { return decodeBody(r, body, readErr, part(in)) }
	return req
}

// answer is how a write answers its success: with status, and, for a 2xx
// answer of it, first or replayed, the Location that location reads from
// its body (nil: none).
type answer struct {
	status   int
	location locator
}

// answerOK is the answer of most writes: 200 with the result.
var answerOK = answer{status: http.StatusOK}

// withKey is req, a write's request, with its Idempotency-Key, if any, set
// to record a success with a's status.
func withKey[T any](r *http.Request, req service.Request[T], a answer) service.Request[T] {
	info := infoFrom(r.Context())
	info.locate = a.location
	if info.key != nil {
		info.key.Status = a.status
		req.Key = info.key
	}
	return req
}

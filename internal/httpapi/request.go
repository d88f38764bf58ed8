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

// newRequest is readRequest for a write: the request's key, if any, is set
// to record answers of the given status (and Location).
func newRequest[T any](r *http.Request, in T, v stockroom.Validation, readErr error, status int, location func(any) string) service.Request[T] {
	req := readRequest(r, in, v, readErr)
	info := infoFrom(r.Context())
	if info.key != nil {
		info.key.Answer = answerer(status, location)
		req.Key = info.key
	}
	return req
}

package httpapi

import (
	"cmp"
	"errors"
	"net/http"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// readRequest gathers what a handler read of a request for the service to
// judge in the contract's order: the input, the fields that could not be
// decoded, and readErr, the decoding's error, which makes the request
// unreadable unless it is a validation error (that joins the fields'
// problems).
func readRequest[T any](in T, v stockroom.Validation, readErr error) service.Request[T] {
	var se *stockroom.Error
	if errors.As(readErr, &se) && se.Code == stockroom.EINVALID {
		for field, msgs := range se.Details {
			for _, m := range msgs {
				v.Add(field, m)
			}
		}
		readErr = nil
	}
	return service.Request[T]{In: in, Problems: v, Unreadable: readErr}
}

// newRequest is readRequest for a write: an unusable Idempotency-Key makes
// the request unreadable before its body does, and the request's key, if
// any, is set to record answers of the given status (and Location).
func newRequest[T any](r *http.Request, in T, v stockroom.Validation, readErr error, status int, location func(any) string) service.Request[T] {
	req := readRequest(in, v, readErr)
	info := infoFrom(r.Context())
	req.Unreadable = cmp.Or(info.keyErr, req.Unreadable)
	if info.key != nil {
		info.key.Answer = answerer(status, location)
		req.Key = info.key
	}
	return req
}

package client

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
)

// Error is a failure the server explained: the contract's error object
// ({statusCode, error, message, details}) plus what the response headers
// add. Every non-2xx answer becomes an *Error, so callers branch on Code
// with errors.As instead of parsing text:
//
//	var apiErr *client.Error
//	if errors.As(err, &apiErr) && apiErr.Code == stockroom.ECONFLICT { ... }
//
// Transport failures (no answer at all) and context errors are not *Error.
type Error struct {
	// ErrorBody is the error object as the server sent it: StatusCode, the
	// machine-readable Code (one of the stockroom.E* constants such as
	// "validation_error", "forbidden" or "conflict"; a 429, whose body
	// carries only a message, has "rate_limited"), the Message (the 403
	// messages are fixed strings, stockroom.MsgReadOnly, MsgOutOfScope and
	// MsgNoPermission, that tell apart a read-only account, a warehouse
	// outside the client's scope and a missing permission) and, for
	// "validation_error", the Details of each failing field.
	stockroom.ErrorBody
	// RequestID is the server's X-Request-ID for the failed request, the key
	// to its log line when asking the operator about it.
	RequestID string `json:"-"`
	// RetryAfter is the server's Retry-After, when it sent one (429).
	RetryAfter time.Duration `json:"-"`
}

// Error formats the status, code, message and any field details on one line.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "stockroom: %d %s: %s", e.StatusCode, e.Code, e.Message)
	fields := make([]string, 0, len(e.Details))
	for f := range e.Details {
		fields = append(fields, f)
	}
	slices.Sort(fields)
	for _, f := range fields {
		fmt.Fprintf(&b, " [%s: %s]", f, strings.Join(e.Details[f], "; "))
	}
	return b.String()
}

// codeByStatus names the codes of answers whose body is not the error object
// (a proxy's HTML page, say), so that Code is always set: each status the
// API answers with, by the code it stands for (400 for bad_request, not
// validation_error, which always comes with its object), and a gateway's
// failures as unavailable. The server's table from code to status is the
// HTTP layer's own; this is how the SDK reads a status without one.
var codeByStatus = map[int]string{
	http.StatusBadRequest:            stockroom.EBADREQUEST,
	http.StatusUnauthorized:          stockroom.EUNAUTHORIZED,
	http.StatusForbidden:             stockroom.EFORBIDDEN,
	http.StatusNotFound:              stockroom.ENOTFOUND,
	http.StatusMethodNotAllowed:      stockroom.EMETHOD,
	http.StatusConflict:              stockroom.ECONFLICT,
	http.StatusRequestEntityTooLarge: stockroom.ETOOLARGE,
	http.StatusUnsupportedMediaType:  stockroom.EUNSUPPORTED,
	http.StatusUnprocessableEntity:   stockroom.EIDEMPOTENCY,
	http.StatusTooManyRequests:       stockroom.ERATELIMITED,
	http.StatusInternalServerError:   stockroom.EINTERNAL,
	http.StatusNotImplemented:        stockroom.ENOTIMPLEMENTED,
	http.StatusServiceUnavailable:    stockroom.EUNAVAILABLE,
	http.StatusBadGateway:            stockroom.EUNAVAILABLE,
	http.StatusGatewayTimeout:        stockroom.EUNAVAILABLE,
}

// errorFrom builds the *Error of a non-2xx response from its status, headers
// and body.
func errorFrom(status int, h http.Header, body []byte) *Error {
	e := &Error{}
	if json.Unmarshal(body, e) != nil || e.Message == "" && e.Code == "" {
		// Not the error object: keep a short, printable part of the body.
		e = &Error{ErrorBody: stockroom.ErrorBody{Message: strings.TrimSpace(string(body))}}
		if len(e.Message) > 200 || !strings.HasPrefix(h.Get("Content-Type"), "application/json") && !strings.HasPrefix(h.Get("Content-Type"), "text/plain") {
			e.Message = http.StatusText(status)
		}
	}
	e.StatusCode = status
	if e.Code == "" {
		e.Code = codeByStatus[status]
		if e.Code == "" {
			e.Code = stockroom.EINTERNAL
		}
	}
	e.RequestID = h.Get("X-Request-ID")
	e.RetryAfter = retryAfter(h, time.Now())
	return e
}

// retryAfter reads a Retry-After header, in seconds or as an HTTP date; 0
// when absent or unreadable.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(v, 10, 32); err == nil {
		return time.Duration(max(secs, 0)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

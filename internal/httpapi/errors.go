package httpapi

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/stockroom/stockroom"
)

// statusClientClosed is what the log and the metrics record for a request
// that failed because its client hung up (nginx's 499): it is not a 5xx, so
// it does not count against the server's error rate. The client, gone, is
// sent nothing it could read.
const statusClientClosed = 499

// clientHungUp reports whether r's client has gone away. The server cancels a
// request's context when its connection closes; the server's own request
// timeout ends it with DeadlineExceeded instead.
func clientHungUp(r *http.Request) bool {
	return errors.Is(r.Context().Err(), context.Canceled)
}

// statusByCode is the one table from error code to HTTP status.
var statusByCode = map[string]int{
	stockroom.EBADREQUEST:     http.StatusBadRequest,
	stockroom.EINVALID:        http.StatusBadRequest,
	stockroom.EUNAUTHORIZED:   http.StatusUnauthorized,
	stockroom.EFORBIDDEN:      http.StatusForbidden,
	stockroom.ENOTFOUND:       http.StatusNotFound,
	stockroom.EMETHOD:         http.StatusMethodNotAllowed,
	stockroom.ECONFLICT:       http.StatusConflict,
	stockroom.ETOOLARGE:       http.StatusRequestEntityTooLarge,
	stockroom.EUNSUPPORTED:    http.StatusUnsupportedMediaType,
	stockroom.EIDEMPOTENCY:    http.StatusUnprocessableEntity,
	stockroom.ERATELIMITED:    http.StatusTooManyRequests,
	stockroom.EINTERNAL:       http.StatusInternalServerError,
	stockroom.ENOTIMPLEMENTED: http.StatusNotImplemented,
	stockroom.EUNAVAILABLE:    http.StatusServiceUnavailable,
	stockroom.ECURSOREXPIRED:  http.StatusGone,
}

// writeError is the one place that turns an error into a response. Errors
// that are not *stockroom.Error become "Internal error." for the client, and
// their text goes to the log with the request id. 5xx causes are always logged.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	if rl, ok := errors.AsType[*rateLimited](err); ok {
		writeRateLimited(w, rl)
		return
	}
	status, body := s.errorObject(r, err)
	if status == http.StatusRequestEntityTooLarge {
		// The client may be sending the rest before it reads: take it, so
		// it gets this answer instead of a broken connection.
		discardBody(r)
		w.Header().Set("Connection", "close")
	}
	if status == http.StatusUnauthorized && w.Header().Get("WWW-Authenticate") == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="stockroom"`)
	}
	if errors.Is(err, stockroom.ErrKeyInProgress) || errors.Is(err, stockroom.ErrTokenBusy) {
		// Retry-After tells this 409 from a refusal that waiting cannot
		// change (short stock, a duplicate): the first request's answer is
		// usually there within the second. A token request refused for
		// want of a slot to check its secret in finds one as soon.
		w.Header().Set("Retry-After", "1")
	}
	writeJSON(w, status, body)
}

// errorObject returns the status and the error object of err, and logs the
// cause of a 5xx.
func (s *Server) errorObject(r *http.Request, err error) (int, stockroom.ErrorBody) {
	code := stockroom.ErrorCode(err)
	status, ok := statusByCode[code]
	if !ok {
		code, status = stockroom.EINTERNAL, http.StatusInternalServerError
	}
	body := stockroom.ErrorBody{StatusCode: status, Code: code, Message: stockroom.ErrorMessage(err)}
	var se *stockroom.Error
	if errors.As(err, &se) && code != stockroom.EINTERNAL {
		// A validation error's fields; any other refusal's place in a
		// batch (contract §15).
		body.Details = se.Details
	}
	if code == stockroom.EINTERNAL {
		body.Message = stockroom.MsgInternal
	}
	switch {
	case status >= 500 && clientHungUp(r):
		// Whatever the error says ("context canceled", a transaction
		// already rolled back), it follows from the client's leaving, not
		// from a fault of the server. Its text still helps the operator.
		info := infoFrom(r.Context())
		info.clientGone = true
		s.logger.LogAttrs(r.Context(), slog.LevelWarn, "client closed request",
			slog.String("request_id", info.id),
			slog.String("error", err.Error()))
	case status >= 500:
		s.logger.LogAttrs(r.Context(), slog.LevelError, "request failed",
			slog.String("request_id", infoFrom(r.Context()).id),
			slog.String("error", err.Error()))
	}
	return status, body
}

package httpapi

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/stockroom/stockroom"
)

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
}

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

// errorBody is the contract's error object.
type errorBody struct {
	StatusCode int                 `json:"statusCode"`
	Error      string              `json:"error"`
	Message    string              `json:"message"`
	Details    map[string][]string `json:"details"`
}

// writeError is the one place that turns an error into a response. Errors
// that are not *stockroom.Error become "Internal error." for the client, and
// their text goes to the log with the request id. 5xx causes are always logged.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	if rl, ok := errors.AsType[*rateLimited](err); ok {
		writeRateLimited(w, rl)
		return
	}
	code := stockroom.ErrorCode(err)
	status, ok := statusByCode[code]
	if !ok {
		code, status = stockroom.EINTERNAL, http.StatusInternalServerError
	}
	body := errorBody{StatusCode: status, Error: code, Message: stockroom.ErrorMessage(err)}
	var se *stockroom.Error
	if errors.As(err, &se) && code == stockroom.EINVALID {
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
	if status == http.StatusRequestEntityTooLarge {
		discardBody(r)
		w.Header().Set("Connection", "close")
	}
	if status == http.StatusUnauthorized && w.Header().Get("WWW-Authenticate") == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="stockroom"`)
	}
	writeJSON(w, status, body)
}

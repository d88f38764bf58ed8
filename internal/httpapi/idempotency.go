package httpapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// idempotent runs a POST that carries an Idempotency-Key: the first request
// with a key runs and its response is kept; a repeat with the same body gets
// that response again with Idempotent-Replayed: true; a repeat with another
// body is 422; a repeat while the first still runs is 409.
func (s *Server) idempotent(w http.ResponseWriter, r *http.Request, key string, handle handlerFunc) error {
	p := principalFrom(r.Context())
	if !service.ValidIdempotencyKey(key) {
		return stockroom.Errorf(stockroom.EBADREQUEST, "Idempotency-Key must be 1 to 255 printable ASCII characters.")
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		if isTooLarge(err) {
			return tooLarge()
		}
		return stockroom.Errorf(stockroom.EBADREQUEST, "The request body could not be read.")
	}
	sum := sha256.Sum256(append([]byte(r.Method+" "+r.URL.Path+"\n"), body...))
	outcome, rec, err := s.svc.ClaimIdempotencyKey(r.Context(), p, key, hex.EncodeToString(sum[:]))
	if err != nil {
		return err
	}
	switch outcome {
	case stockroom.ClaimReplay:
		w.Header().Set("Idempotent-Replayed", "true")
		if rec.Location != "" {
			w.Header().Set("Location", rec.Location)
		}
		w.Header().Set("Content-Type", rec.ContentType)
		w.WriteHeader(rec.Status)
		_, _ = w.Write(rec.Body)
		return nil
	case stockroom.ClaimMismatch:
		return stockroom.Errorf(stockroom.EIDEMPOTENCY, "This Idempotency-Key was used with a different request.")
	case stockroom.ClaimRunning:
		// Retry-After tells this 409 from a refusal that waiting cannot
		// change (short stock, a duplicate): the first request's answer
		// is usually there within the second.
		w.Header().Set("Retry-After", "1")
		return stockroom.Errorf(stockroom.ECONFLICT, "A request with this Idempotency-Key is still in progress; retry later.")
	case stockroom.ClaimLost:
		return stockroom.Errorf(stockroom.ECONFLICT, "A request with this Idempotency-Key was applied, but its response was lost; see GET /Inventory/Transactions.")
	}

	// Run the request, recording what it writes.
	base := r.Context()
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec2 := &responseRecorder{ResponseWriter: w}
	r = r.WithContext(s.svc.ApplyingContext(base, p, key))
	if err := handle(rec2, r); err != nil {
		s.writeError(rec2, r, err)
	}
	// The outcome is stored even if the client has gone: a retry must see it.
	// (Not under the applying context: storing it changes no stock.)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(base), 10*time.Second)
	defer cancel()
	if rec2.status >= 500 {
		err = s.svc.ReleaseIdempotencyKey(ctx, p, key)
	} else {
		err = s.svc.CompleteIdempotencyKey(ctx, p, key, rec2.status, rec2.Header().Get("Content-Type"), rec2.Header().Get("Location"), rec2.body.Bytes())
	}
	if err != nil {
		s.logger.LogAttrs(ctx, slog.LevelError, "idempotency key not recorded",
			slog.String("request_id", infoFrom(ctx).id), slog.String("error", err.Error()))
	}
	return nil
}

// responseRecorder passes a response through and keeps a copy.
type responseRecorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (r *responseRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *responseRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	r.body.Write(b)
	return r.ResponseWriter.Write(b)
}

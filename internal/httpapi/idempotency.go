package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// Idempotency-Key, as contract §7 has it. The key travels to the service with
// the request, and the transaction that carries the request out claims it
// and records its answer together with its change. Here: reading the key,
// answering replays, and recording refusals, which change nothing and so are
// recorded on their own.

// readKey reads the body of a POST carrying an Idempotency-Key, which the
// key's request hash needs, and keeps the key (or why it is unusable) for
// the handler. The body stays readable for the handler. Nothing is hashed
// here: the service hashes the request once the caller's permission is
// checked.
func (s *Server) readKey(r *http.Request, info *reqInfo) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		info.keyErr = bodyError(err)
		r.Body = io.NopCloser(errReader{info.keyErr})
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	info.key, info.keyErr = service.NewIdempotencyKey(info.principal, r.Header.Get("Idempotency-Key"), r.Method, r.URL.Path, body)
}

// errReader fails every read with err.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// locator reads the Location of a created resource from the body of the
// answer that created it: what an answer is recorded as (a status and a
// body) is all a replay has, so the first answer's Location is read the same
// way, and the two cannot differ.
type locator func(body []byte) string

// locatorOf is the locator of resources answered as a T, whose Location is
// path of it.
func locatorOf[T any](path func(T) string) locator {
	return func(body []byte) string {
		var v T
		if json.Unmarshal(body, &v) != nil {
			return ""
		}
		return path(v)
	}
}

// respond writes a handler's success, of the form a: the answer recorded
// with the change when the request had a key (the very bytes a repeat will
// get), else the result as JSON; with the Location a reads from it.
func (s *Server) respond(w http.ResponseWriter, r *http.Request, key *stockroom.IdempotencyKey, a answer, result any) {
	if key != nil && key.Recorded != nil {
		writeAnswer(w, *key.Recorded, a.location, false)
		return
	}
	ans := stockroom.RecordedAnswer{Status: a.status, Body: encodeJSON(result)}
	if key != nil {
		// A write that did not record its answer: record it now.
		if err := s.svc.RecordRefusal(r.Context(), key, ans); err != nil {
			s.answerError(w, r, err)
			return
		}
	}
	writeAnswer(w, ans, a.location, false)
}

// answerError writes the answer to a request that failed. A replay gets the
// answer given before. A refusal of a keyed request is recorded first as the
// key's answer; if a repeat answered the key meanwhile, that answer is given
// instead, so that every repeat of a request gets one answer.
func (s *Server) answerError(w http.ResponseWriter, r *http.Request, err error) {
	info := infoFrom(r.Context())
	if rep, ok := service.IsReplay(err); ok {
		writeAnswer(w, rep.Answer, info.locate, true)
		return
	}
	key := info.key
	if key == nil || !isRefusal(err) {
		s.writeError(w, r, err)
		return
	}
	status, body := s.errorObject(r, err)
	ans := stockroom.RecordedAnswer{Status: status, Body: encodeJSON(body)}
	if rerr := s.svc.RecordRefusal(r.Context(), key, ans); rerr != nil {
		if again, ok := service.IsReplay(rerr); ok {
			writeAnswer(w, again.Answer, info.locate, true)
			return
		}
		// Unrecorded, the refusal could be answered differently on a
		// repeat: answer why it could not be recorded instead.
		s.writeError(w, r, rerr)
		return
	}
	writeAnswer(w, ans, nil, false)
}

// isRefusal reports whether err is an answer to the request itself (a 4xx),
// to be recorded for its key; not a refusal of the key (still in progress,
// used with another request), not a failure (5xx), after which a repeat
// runs afresh, and not a refusal of the caller's rights (401, 403): a
// request refused so stores nothing (contract §14), and its repeat, once
// the client may make it, runs.
func isRefusal(err error) bool {
	if errors.Is(err, stockroom.ErrKeyInProgress) || errors.Is(err, stockroom.ErrKeyMismatch) {
		return false
	}
	switch status, ok := statusByCode[stockroom.ErrorCode(err)]; {
	case !ok, status == http.StatusUnauthorized, status == http.StatusForbidden:
		return false
	default:
		return status >= 400 && status < 500
	}
}

// writeAnswer writes an answer as recorded, JSON, with the Location that
// location reads from the body of a success (2xx); replayed marks it as the
// repeat of an answer given before.
func writeAnswer(w http.ResponseWriter, ans stockroom.RecordedAnswer, location locator, replayed bool) {
	if replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	if location != nil && ans.Status >= 200 && ans.Status < 300 {
		if l := location(ans.Body); l != "" {
			w.Header().Set("Location", l)
		}
	}
	setJSONHeaders(w.Header(), jsonType)
	w.WriteHeader(ans.Status)
	_, _ = w.Write(ans.Body)
}

package httpapi

import (
	"bytes"
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
// the handler. The body stays readable for the handler.
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

// answerer makes the answer a keyed request records when it succeeds: the
// result as JSON with the given status, and its Location when location is
// not nil.
func answerer(status int, location func(result any) string) func(any) stockroom.Reply {
	return func(result any) stockroom.Reply {
		rep := stockroom.Reply{Status: status, ContentType: jsonType, Body: encodeJSON(result)}
		if location != nil {
			rep.Location = location(result)
		}
		return rep
	}
}

// respond writes a handler's success: the answer recorded with the change
// when the request had a key (the very bytes a repeat will get), else the
// result as JSON.
func (s *Server) respond(w http.ResponseWriter, r *http.Request, key *stockroom.IdempotencyKey, status int, result any, location func(any) string) {
	if key != nil && key.Recorded != nil {
		writeReply(w, *key.Recorded, false)
		return
	}
	rep := answerer(status, location)(result)
	if key != nil {
		// A write that did not record its answer: record it now.
		if err := s.svc.RecordRefusal(r.Context(), key, rep); err != nil {
			s.answerError(w, r, err)
			return
		}
	}
	writeReply(w, rep, false)
}

// answerError writes the answer to a request that failed. A replay gets the
// answer given before. A refusal of a keyed request is recorded first as the
// key's answer; if a repeat answered the key meanwhile, that answer is given
// instead, so that every repeat of a request gets one answer.
func (s *Server) answerError(w http.ResponseWriter, r *http.Request, err error) {
	if rep, ok := service.IsReplay(err); ok {
		writeReply(w, rep.Reply, true)
		return
	}
	key := infoFrom(r.Context()).key
	if key == nil || !isRefusal(err) {
		s.writeError(w, r, err)
		return
	}
	status, body := s.errorObject(r, err)
	rep := stockroom.Reply{Status: status, ContentType: jsonType, Body: encodeJSON(body)}
	if rerr := s.svc.RecordRefusal(r.Context(), key, rep); rerr != nil {
		if again, ok := service.IsReplay(rerr); ok {
			writeReply(w, again.Reply, true)
			return
		}
		// Unrecorded, the refusal could be answered differently on a
		// repeat: answer why it could not be recorded instead.
		s.writeError(w, r, rerr)
		return
	}
	writeReply(w, rep, false)
}

// isRefusal reports whether err is an answer to the request itself (a 4xx),
// to be recorded for its key; not a refusal of the key (still in progress,
// used with another request) and not a failure (5xx), after which a repeat
// runs afresh.
func isRefusal(err error) bool {
	if errors.Is(err, stockroom.ErrKeyInProgress) || errors.Is(err, stockroom.ErrKeyMismatch) {
		return false
	}
	status, ok := stockroom.StatusByCode[stockroom.ErrorCode(err)]
	return ok && status >= 400 && status < 500
}

// writeReply writes a recorded answer; replayed marks it as the repeat of an
// answer given before.
func writeReply(w http.ResponseWriter, rep stockroom.Reply, replayed bool) {
	if replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	if rep.Location != "" {
		w.Header().Set("Location", rep.Location)
	}
	w.Header().Set("Content-Type", rep.ContentType)
	w.WriteHeader(rep.Status)
	_, _ = w.Write(rep.Body)
}

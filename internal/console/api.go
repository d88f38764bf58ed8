package console

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/stockroom/stockroom"
)

// answer is what the API answered one of the console's requests.
type answer struct {
	Status int
	Header http.Header
	Body   []byte
	// Err is the API's error object when the status is 4xx or 5xx.
	Err *stockroom.ErrorBody
}

// ok reports a 2xx answer.
func (a answer) ok() bool { return a.Status >= 200 && a.Status < 300 }

// message is the API's sentence for a refusal.
func (a answer) message() string {
	if a.Err != nil && a.Err.Message != "" {
		return a.Err.Message
	}
	if a.ok() {
		return ""
	}
	return http.StatusText(a.Status)
}

// fieldErrors are the API's messages per field of a refusal, joined.
func (a answer) fieldErrors() map[string]string {
	out := map[string]string{}
	if a.Err == nil {
		return out
	}
	for k, msgs := range a.Err.Details {
		out[k] = strings.Join(msgs, "; ")
	}
	return out
}

// call sends one request to the API in process, as the signed-in client
// (token; none for POST /Token), from the browser's address. body is a
// url.Values (a form), raw JSON bytes, nil, or a value encoded as JSON.
func (h *Handler) call(r *http.Request, token, method, path string, body any) answer {
	req, err := h.apiRequest(r, token, method, path, body)
	if err != nil {
		return answer{Status: http.StatusInternalServerError, Err: &stockroom.ErrorBody{Message: stockroom.MsgInternal}}
	}
	rec := &recorder{header: http.Header{}}
	h.api.ServeHTTP(rec, req)
	return rec.answer()
}

// apiRequest is the API request of call.
func (h *Handler) apiRequest(r *http.Request, token, method, path string, body any) (*http.Request, error) {
	var rd io.Reader = http.NoBody
	ctype := ""
	switch b := body.(type) {
	case nil:
	case url.Values:
		rd, ctype = strings.NewReader(b.Encode()), "application/x-www-form-urlencoded"
	case json.RawMessage:
		rd, ctype = bytes.NewReader(b), "application/json"
	default:
		j, err := json.Marshal(b)
		if err != nil {
			return nil, err
		}
		rd, ctype = bytes.NewReader(j), "application/json"
	}
	req, err := http.NewRequestWithContext(r.Context(), method, path, rd)
	if err != nil {
		return nil, err
	}
	req.RemoteAddr, req.Host = r.RemoteAddr, r.Host
	if h.realIPHeader != "" {
		req.Header[h.realIPHeader] = r.Header[h.realIPHeader]
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if id := r.Header.Get("X-Request-ID"); id != "" {
		req.Header.Set("X-Request-ID", id)
	}
	return req, nil
}

// get reads a JSON answer into out; a refusal is returned as the answer.
func (h *Handler) get(r *http.Request, s *session, path string, query url.Values, out any) answer {
	if len(query) > 0 {
		path += "?" + query.Encode()
	}
	a := h.call(r, s.token, http.MethodGet, path, nil)
	if a.ok() && out != nil {
		dec := json.NewDecoder(bytes.NewReader(a.Body))
		dec.UseNumber()
		if err := dec.Decode(out); err != nil {
			h.logger.Error("console: unreadable API answer", "path", path, "error", err)
			return answer{Status: http.StatusInternalServerError, Err: &stockroom.ErrorBody{Message: stockroom.MsgInternal}}
		}
	}
	return a
}

// recorder keeps the API's answer to a console request.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

// answer is what the recorder kept, a refusal's error object read.
func (w *recorder) answer() answer {
	a := answer{Status: w.status, Header: w.header, Body: w.body.Bytes()}
	if a.Status == 0 {
		a.Status = http.StatusOK
	}
	if !a.ok() {
		var e stockroom.ErrorBody
		if json.Unmarshal(a.Body, &e) == nil {
			a.Err = &e
		}
	}
	return a
}

func (w *recorder) Header() http.Header { return w.header }
func (w *recorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}
func (w *recorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.body.Write(b)
}

// Flush is a no-op: the whole answer is kept.
func (w *recorder) Flush() {}

// sortedKeys is a record's field names in order, for generic tables.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

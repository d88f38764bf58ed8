package httpapi

import (
	"net/http"
	"strconv"

	"github.com/stockroom/stockroom"
)

// jsonType is the Content-Type of every JSON answer.
const jsonType = "application/json; charset=utf-8"

// writeJSON writes v as the JSON body with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	setJSONHeaders(w.Header(), jsonType)
	w.WriteHeader(status)
	_, _ = w.Write(encodeJSON(v))
}

// setJSONHeaders gives an answer of the API its Content-Type and the headers
// every JSON answer carries (contract §14), whichever writer writes it
// (writeJSON, or writeReply for a recorded one): nosniff, so that a browser
// never takes it for a page or a script, and no-store, so that no cache on
// the way keeps what was one client's data.
func setJSONHeaders(h http.Header, contentType string) {
	h.Set("Content-Type", contentType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
}

// encodeJSON is the one encoding of JSON answers (stockroom.MarshalAnswer,
// which the store records a keyed request's result with). A type that does
// not encode is a bug of the server.
func encodeJSON(v any) []byte {
	b, err := stockroom.MarshalAnswer(v)
	if err != nil {
		panic(err.Error())
	}
	return b
}

// writePage writes one page of a list with its envelope and paging headers.
// Every paged list goes through it.
func writePage[T any](w http.ResponseWriter, p stockroom.Page[T]) {
	h := w.Header()
	h.Set("X-Total-Count", strconv.FormatInt(p.Total, 10))
	h.Set("X-Page", strconv.FormatInt(p.Page, 10))
	h.Set("X-Page-Size", strconv.FormatInt(p.PageSize, 10))
	writeJSON(w, http.StatusOK, p.Envelope())
}

package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/stockroom/stockroom"
)

// jsonType is the Content-Type of every JSON answer.
const jsonType = "application/json; charset=utf-8"

// writeJSON writes v as the JSON body with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", jsonType)
	w.WriteHeader(status)
	_, _ = w.Write(encodeJSON(v))
}

// encodeJSON is the one encoding of JSON answers: HTML characters as they
// are, and a final newline.
func encodeJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("encoding a %T answer: %v", v, err))
	}
	return b.Bytes()
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

package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/stockroom/stockroom"
)

// writeJSON writes v as the JSON body with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// envelope is the paging envelope of the specification.
type envelope[T any] struct {
	Value      []T   `json:"value"`
	TotalCount int64 `json:"totalCount"`
	Page       int64 `json:"page"`
	PageSize   int64 `json:"pageSize"`
	PageCount  int64 `json:"pageCount"`
	HasMore    bool  `json:"hasMore"`
}

// writePage writes one page of a list with its envelope and paging headers.
// Every paged list goes through it.
func writePage[T any](w http.ResponseWriter, p stockroom.Page[T]) {
	h := w.Header()
	h.Set("X-Total-Count", strconv.FormatInt(p.Total, 10))
	h.Set("X-Page", strconv.FormatInt(p.Page, 10))
	h.Set("X-Page-Size", strconv.FormatInt(p.PageSize, 10))
	items := p.Items
	if items == nil {
		items = []T{}
	}
	writeJSON(w, http.StatusOK, envelope[T]{
		Value:      items,
		TotalCount: p.Total,
		Page:       p.Page,
		PageSize:   p.PageSize,
		PageCount:  p.PageCount(),
		HasMore:    p.HasMore(),
	})
}

// mapPage converts the records of a page for output.
func mapPage[T, U any](p stockroom.Page[T], f func(T) U) stockroom.Page[U] {
	out := stockroom.Page[U]{Items: make([]U, len(p.Items)), Total: p.Total, Page: p.Page, PageSize: p.PageSize}
	for i, v := range p.Items {
		out.Items[i] = f(v)
	}
	return out
}

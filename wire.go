package stockroom

// The wire forms the API and the SDK share, defined once for both sides.

// Envelope is the paging envelope of the specification, one page of a list
// as the API sends it.
type Envelope[T any] struct {
	// Value holds the records of this page.
	Value []T `json:"value"`
	// TotalCount is the number of records the whole list holds, before
	// paging.
	TotalCount int64 `json:"totalCount"`
	// Page is this page's number, from 1.
	Page int64 `json:"page"`
	// PageSize is the page size applied: the request's, capped at the
	// list's maximum.
	PageSize int64 `json:"pageSize"`
	// PageCount is the number of pages, 0 for an empty list.
	PageCount int64 `json:"pageCount"`
	// HasMore reports whether pages follow this one.
	HasMore bool `json:"hasMore"`
}

// Envelope returns the page as the API sends it.
func (p Page[T]) Envelope() Envelope[T] {
	items := p.Items
	if items == nil {
		items = []T{}
	}
	return Envelope[T]{Value: items, TotalCount: p.Total, Page: p.Page, PageSize: p.PageSize, PageCount: p.PageCount(), HasMore: p.HasMore()}
}

// ErrorBody is the error object of the specification, the body of every
// failure but a 429.
type ErrorBody struct {
	// StatusCode mirrors the HTTP status.
	StatusCode int `json:"statusCode"`
	// Code is the machine-readable "error" field: one of the E* constants.
	Code string `json:"error"`
	// Message is the human-readable sentence.
	Message string `json:"message"`
	// Details maps each failing field to its messages (EINVALID), or,
	// for any code, names the operation of a batch that was refused.
	Details map[string][]string `json:"details"`
}

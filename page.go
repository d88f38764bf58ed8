package stockroom

import (
	"math"
	"time"
)

// Paging limits of the specification for standard resources.
const (
	DefaultPageSize = 25
	MaxPageSize     = 250
)

// PageRequest is a validated request for one page of a list. The HTTP layer
// builds it from query parameters; stores turn it into ORDER BY, LIMIT and
// OFFSET.
type PageRequest struct {
	Page     int64 // 1-based
	PageSize int64 // 1..MaxPageSize, already capped
	// Sort is the requested field name as the client wrote it; stores resolve
	// it case-insensitively against their whitelist and ignore unknown names.
	Sort string
	// Direction is DirectionAsc, DirectionDesc, or "" when the client gave
	// none and the list's natural order applies.
	Direction string
	// ModifiedSince, when non-zero, keeps records modified at or after it.
	ModifiedSince time.Time
}

// Offset is the number of records before the page, saturating instead of
// overflowing for absurd page numbers (which are simply past the end).
func (r PageRequest) Offset() int64 {
	if r.Page <= 1 {
		return 0
	}
	if r.Page-1 > math.MaxInt64/r.PageSize {
		return math.MaxInt64
	}
	return (r.Page - 1) * r.PageSize
}

// Sort directions of a PageRequest.
const (
	DirectionAsc  = "ASC"
	DirectionDesc = "DESC"
)

// Page is one page of a list together with the size of the whole list.
type Page[T any] struct {
	Items    []T
	Total    int64
	Page     int64
	PageSize int64
}

// PageCount is ceil(Total / PageSize), 0 for an empty list.
func (p Page[T]) PageCount() int64 {
	if p.Total == 0 || p.PageSize == 0 {
		return 0
	}
	return (p.Total + p.PageSize - 1) / p.PageSize
}

// HasMore reports whether pages follow this one.
func (p Page[T]) HasMore() bool { return p.Page < p.PageCount() }

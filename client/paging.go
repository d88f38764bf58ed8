package client

import (
	"context"
	"iter"
	"net/url"
	"strconv"
	"time"

	"github.com/stockroom/stockroom"
)

// Page is one page of a list: the specification's paging envelope,
// stockroom.Envelope, as the server writes it.
type Page[T any] = stockroom.Envelope[T]

// ListOptions are the paging, sorting and modifiedSince parameters every
// list takes. The zero value asks for the first page in the list's natural
// order with the server's default page size.
type ListOptions struct {
	// Page is the 1-based page number; 0 means 1.
	Page int64
	// PageSize is the number of records per page; 0 means the server's
	// default (25). Values above stockroom.MaxPageSize (250) are capped by the
	// server. The iterators use 250 when it is 0, to need fewer requests.
	PageSize int64
	// Sort names a field of the listed record ("modified", "shortID", ...),
	// in any letter case. An unknown field is ignored by the server.
	Sort string
	// Direction is stockroom.DirectionAsc or stockroom.DirectionDesc; empty
	// means the list's natural direction.
	Direction string
	// ModifiedSince keeps the records modified at or after it; the zero time
	// keeps all. For a complete incremental sync use the Changes methods,
	// which also cope with records changing while the pages are read.
	ModifiedSince time.Time
}

// values encodes the options as query parameters, leaving out zero values so
// that the server's defaults apply.
func (o ListOptions) values() url.Values {
	q := url.Values{}
	if o.Page > 0 {
		q.Set("page", strconv.FormatInt(o.Page, 10))
	}
	if o.PageSize > 0 {
		q.Set("pageSize", strconv.FormatInt(o.PageSize, 10))
	}
	setIf(q, "sort", o.Sort)
	setIf(q, "direction", o.Direction)
	if !o.ModifiedSince.IsZero() {
		q.Set("modifiedSince", o.ModifiedSince.UTC().Format(time.RFC3339Nano))
	}
	return q
}

// Walk yields every record of a paged list, reading page after page with
// list, starting at first.Page, until the server reports no more pages. It
// stops at the first error, which it yields, and when the loop body breaks.
// Any list works, including ones this package does not wrap:
//
//	for lot, err := range client.Walk(ctx, client.ListOptions{}, func(ctx context.Context, o client.ListOptions) (*client.Page[stockroom.Lot], error) {
//		return c.ListLots(ctx, client.LotListOptions{ListOptions: o, Spot: new("A-01")})
//	}) { ... }
//
// Pages are read by number, so records inserted or deleted in front of the
// current page while the walk runs shift the pages: a record may then be
// seen twice or not at all. To follow a changing data set use the Changes
// methods instead.
func Walk[T any](ctx context.Context, first ListOptions, list func(context.Context, ListOptions) (*Page[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		opts := first
		opts.Page = max(opts.Page, 1)
		if opts.PageSize <= 0 {
			opts.PageSize = stockroom.MaxPageSize
		}
		for {
			page, err := list(ctx, opts)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, rec := range page.Value {
				if !yield(rec, nil) {
					return
				}
			}
			// An empty page ends the walk even if the server claimed more,
			// so that a changing list cannot keep it going for ever.
			if !page.HasMore || len(page.Value) == 0 {
				return
			}
			opts.Page++
		}
	}
}

// getPage fetches one page of the list at path.
func getPage[T any](ctx context.Context, c *Client, path string, q url.Values) (*Page[T], error) {
	var p Page[T]
	if _, err := c.do(ctx, call{method: "GET", path: path, query: q}, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// setIf sets a query parameter when its value is not empty.
func setIf(q url.Values, name, value string) {
	if value != "" {
		q.Set(name, value)
	}
}

package httpapi

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// query gives case-insensitive access to query parameters, as the original
// product's server binds them (pageSize, pagesize and PageSize are one name).
type query map[string]string

// parseQuery lower-cases the parameter names of a raw query string. When a
// name repeats, its first value wins.
func parseQuery(raw string) (query, error) {
	vals, err := url.ParseQuery(raw)
	q := make(query, len(vals))
	for k, v := range vals {
		lk := strings.ToLower(k)
		if _, dup := q[lk]; !dup || k == lk {
			q[lk] = v[0]
		}
	}
	return q, err
}

// get returns the value of the parameter named name, in any letter case.
func (q query) get(name string) (string, bool) {
	v, ok := q[strings.ToLower(name)]
	return v, ok
}

// parsePageRequest reads page, pageSize, sort, direction and modifiedSince.
// Every list uses it. Bad page, pageSize and modifiedSince values are reported
// together as one validation error naming each parameter; a pageSize above the
// maximum is capped silently.
func parsePageRequest(q query) (stockroom.PageRequest, error) {
	return parsePageUpTo(q, stockroom.MaxPageSize)
}

// parsePageUpTo is parsePageRequest for a list whose pages hold up to most
// records (reports: stockroom.MaxReportPageSize).
func parsePageUpTo(q query, most int64) (stockroom.PageRequest, error) {
	req := stockroom.PageRequest{Page: 1, PageSize: stockroom.DefaultPageSize}
	var v stockroom.Validation
	if s, ok := q.get("page"); ok {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		switch {
		case err != nil && isDigits(strings.TrimSpace(s)):
			v.Add("page", "is too large")
		case err != nil:
			v.Add("page", "must be an integer")
		case n < 1:
			v.Add("page", "must be 1 or greater")
		default:
			req.Page = n
		}
	}
	if s, ok := q.get("pageSize"); ok {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		switch {
		case err != nil && isDigits(strings.TrimSpace(s)):
			req.PageSize = most // an enormous page size is still only "too big"
		case err != nil:
			v.Add("pageSize", "must be an integer")
		case n < 1:
			v.Add("pageSize", "must be 1 or greater")
		default:
			req.PageSize = min(n, most)
		}
	}
	req.Sort, _ = q.get("sort")
	req.Sort = strings.TrimSpace(req.Sort)
	if s, ok := q.get("direction"); ok {
		req.Direction = stockroom.DirectionAsc
		if strings.EqualFold(strings.TrimSpace(s), stockroom.DirectionDesc) {
			req.Direction = stockroom.DirectionDesc
		}
	}
	if s, ok := q.get("modifiedSince"); ok {
		t, err := stockroom.ParseTime(s)
		if err != nil {
			v.Add("modifiedSince", err.Error())
		} else {
			req.ModifiedSince = t
		}
	}
	return req, v.Err()
}

func isDigits(s string) bool {
	s = strings.TrimPrefix(s, "+")
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// queryOf parses the query parameters of a request.
func queryOf(r *http.Request) (query, error) {
	q, err := parseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, stockroom.Errorf(stockroom.EBADREQUEST, "The query string is malformed.")
	}
	return q, nil
}

// pageOnly reads the request of a list that takes only paging parameters.
func pageOnly(r *http.Request) service.Request[stockroom.PageRequest] {
	q, readErr := queryOf(r)
	page, err := parsePageRequest(q)
	return readRequest(r, page, validationOf(err), readErr)
}

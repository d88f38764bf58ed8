package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store/txn"
)

// args collects positional parameters while a query is assembled.
type args []any

// add appends v and returns its placeholder.
func (a *args) add(v any) string {
	*a = append(*a, v)
	return "$" + strconv.Itoa(len(*a))
}

// scopeCond returns the condition restricting column col to scope s, or ""
// when the scope covers every warehouse.
func scopeCond(col string, s stockroom.Scope, a *args) string {
	if s.All {
		return ""
	}
	if len(s.IDs) == 0 {
		return "1 = 0"
	}
	ph := make([]string, len(s.IDs))
	for i, id := range s.IDs {
		ph[i] = a.add(id)
	}
	return col + " IN (" + strings.Join(ph, ", ") + ")"
}

// sortSpec is a list's sort whitelist: the record fields a client may sort by,
// the default order, and the unique key that ends every order so pages never
// overlap or skip.
type sortSpec struct {
	// fields maps a lower-cased JSON field name to its SQL expression.
	fields map[string]string
	// defField is the JSON field of the default order, defDesc its natural
	// direction (used when the client gives no direction).
	defField string
	defDesc  bool
	// key is the SQL expression of the record's unique key.
	key string
	// unique lists other sortable expressions whose values never repeat, so
	// they need no tie-breaker (which would also keep an index from serving
	// the order).
	unique []string
	// modified is the SQL column compared with modifiedSince; "" when the
	// records carry no modified time and the parameter does not apply.
	modified string
}

// orderBy resolves req's sort against the whitelist: an unknown field falls
// back to the default order. An explicit direction applies to whichever field
// is used; without one a requested field sorts ascending and the default
// field in its natural direction. reverse flips the whole order.
func (s sortSpec) orderBy(req stockroom.PageRequest, reverse bool) string {
	col, ok := s.fields[strings.ToLower(req.Sort)]
	desc := req.Direction == stockroom.DirectionDesc
	if !ok || req.Sort == "" {
		col = s.fields[s.defField]
		if req.Direction == "" {
			desc = s.defDesc
		}
	}
	dir := " ASC"
	if desc != reverse {
		dir = " DESC"
	}
	if col == s.key || slices.Contains(s.unique, col) {
		return col + dir
	}
	return col + dir + ", " + s.key + dir
}

// pageQuery describes one paged list: the FROM clause, the filters and the
// columns to select.
type pageQuery struct {
	from    string
	where   []string
	args    args
	columns string
	sort    sortSpec
	// counters name kept counts (see addCounts) whose sum is the number of
	// rows the query matches when no modifiedSince applies; none means
	// COUNT(*).
	counters []string
	// branches, when set, are conditions one of which each row meets: one
	// per value of a column an index leads with (items of one catalogue,
	// say). A page is then read as the union of one query per branch, each
	// in the list's order and cut at the page's end, so that the index
	// gives each branch its rows in order and a page costs what its place
	// in the list does, however many rows the values left out have. from
	// is then one table, whose columns the sort names unqualified.
	branches []string
}

// queryOne runs a query for one record; no row is stockroom.ErrNotFound.
func queryOne[T any](ctx context.Context, db *DB, scan func(scanner) (T, error), query string, a ...any) (T, error) {
	v, err := scan(db.read.QueryRowContext(ctx, query, a...))
	if errors.Is(err, sql.ErrNoRows) {
		return v, stockroom.ErrNotFound
	}
	if err != nil {
		return v, db.classify(fmt.Errorf("%s: %w", txn.FirstLine(query), err))
	}
	return v, nil
}

// queryPage runs the count and the page of a list in one snapshot. It is the
// one place where LIMIT and OFFSET are written.
//
// Large lists stay cheap at both ends: the total comes from a kept counter
// where there is one, and a page in the back half of a long list is read by
// walking the index from the other end and reversing the result, so the
// database never skips more than half the rows. A page near the front (the
// common case) is one statement carrying the total as a column, which is its
// own snapshot and costs one round trip.
func queryPage[T any](ctx context.Context, db *DB, q pageQuery, req stockroom.PageRequest, scan func(scanner) (T, error)) (stockroom.Page[T], error) {
	page := stockroom.Page[T]{Items: []T{}, Page: req.Page, PageSize: req.PageSize}
	if q.sort.modified != "" && !req.ModifiedSince.IsZero() {
		q.where = append(q.where, q.sort.modified+" >= "+q.args.add(micros(req.ModifiedSince)))
	}
	countSQL, countArgs := q.count(req)
	read := func(qr querier, w pageWindow) error {
		return q.read(ctx, qr, req, w, func(row scanner) error {
			item, err := scan(row)
			page.Items = append(page.Items, item)
			return err
		})
	}
	offset, limit := req.Offset(), req.PageSize
	if offset < db.directOffset {
		if err := read(db.read, pageWindow{offset: offset, limit: limit, total: &page.Total}); err != nil {
			return page, db.classify(err)
		}
		if len(page.Items) > 0 {
			return page, nil
		}
		// Past the end: the statement had no row to carry the total.
		err := db.read.QueryRowContext(ctx, countSQL, countArgs...).Scan(&page.Total)
		return page, db.classify(err)
	}
	err := db.inReadTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, countSQL, countArgs...).Scan(&page.Total); err != nil {
			return err
		}
		if offset >= page.Total {
			return nil
		}
		reverse := offset > page.Total/2
		if reverse {
			offset = page.Total - offset - limit
			if offset < 0 {
				limit, offset = limit+offset, 0
			}
		}
		err := read(tx, pageWindow{offset: offset, limit: limit, reverse: reverse})
		if reverse {
			slices.Reverse(page.Items)
		}
		return err
	})
	return page, err
}

// whereClause is the query's WHERE clause, "" when nothing filters.
func (q pageQuery) whereClause() string {
	if len(q.branches) > 0 {
		return whereOf(append(slices.Clone(q.where), "("+strings.Join(q.branches, " OR ")+")"))
	}
	return whereOf(q.where)
}

// whereOf is the WHERE clause of conditions, "" when none filters.
func whereOf(where []string) string {
	var conds []string
	for _, c := range where {
		if c != "" {
			conds = append(conds, c)
		}
	}
	if len(conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(conds, " AND ")
}

// source is what a page ending at row end is read from, in the order
// given: the query's table and its conditions, or, with branches, the union
// of each branch's first end rows in that order, named as the table is.
func (q pageQuery) source(order string, end int64, a *args) string {
	if len(q.branches) == 0 {
		return q.from + q.whereClause()
	}
	last := a.add(end)
	parts := make([]string, len(q.branches))
	for i, b := range q.branches {
		// Each branch in a subquery of its own: SQLite takes no ORDER BY
		// or LIMIT on a member of a compound SELECT.
		parts[i] = "SELECT * FROM (SELECT * FROM " + q.from + whereOf(append(slices.Clone(q.where), b)) +
			" ORDER BY " + order + " LIMIT " + last + ") b" + strconv.Itoa(i)
	}
	return "(" + strings.Join(parts, " UNION ALL ") + ") " + q.from
}

// count is the statement that counts the query's rows: a sum of kept
// counters where they answer it, else COUNT(*).
func (q pageQuery) count(req stockroom.PageRequest) (string, []any) {
	if len(q.counters) > 0 && req.ModifiedSince.IsZero() {
		// Counter names are made by this package from constants and integers,
		// never from input: literals keep the parameter list the same with or
		// without the count.
		return "SELECT CAST(COALESCE(SUM(value), 0) AS BIGINT) FROM counters WHERE name IN ('" +
			strings.Join(q.counters, "', '") + "')", nil
	}
	return "SELECT COUNT(*) FROM " + q.from + q.whereClause(), q.args
}

// pageWindow is which rows of a list one statement reads: limit rows from
// offset, in the requested order or its reverse; with total, the statement
// also carries the count, read into total.
type pageWindow struct {
	offset, limit int64
	reverse       bool
	total         *int64
}

// read selects the rows of window w and passes each to add.
func (q pageQuery) read(ctx context.Context, qr querier, req stockroom.PageRequest, w pageWindow, add func(scanner) error) error {
	countSQL, _ := q.count(req)
	a := q.args
	text := "SELECT " + q.columns
	if w.total != nil {
		text += ", (" + countSQL + ")"
	}
	order := q.sort.orderBy(req, w.reverse)
	text += " FROM " + q.source(order, w.offset+w.limit, &a) +
		" ORDER BY " + order +
		" LIMIT " + a.add(w.limit) + " OFFSET " + a.add(w.offset)
	rows, err := qr.QueryContext(ctx, text, a...)
	if err != nil {
		return err
	}
	defer rows.Close()
	row := scanner(rows)
	if w.total != nil {
		row = withExtra{rows, w.total}
	}
	for rows.Next() {
		if err := add(row); err != nil {
			return err
		}
	}
	return rows.Err()
}

// DefaultDirectOffset is the offset below which a page is read forwards in
// one statement: skipping this many index entries costs less than the round
// trips of a transaction.
const DefaultDirectOffset = 5000

// SetDirectOffset changes the offset below which pages are read in one
// statement (DefaultDirectOffset). 0 sends every page through the counted,
// possibly reversed path; the behaviour suite runs both ways.
func (db *DB) SetDirectOffset(n int64) { db.directOffset = n }

// withExtra scans a row whose last column is not the record's.
type withExtra struct {
	row   scanner
	extra any
}

func (w withExtra) Scan(dest ...any) error { return w.row.Scan(append(dest, w.extra)...) }

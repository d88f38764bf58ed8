package store

import (
	"context"
	"database/sql"
	"slices"
	"strings"

	"github.com/stockroom/stockroom"
)

// Orders as read, of every kind (purchase orders here, shipping orders in
// shipping.go): a header (orders) with its vendor's or customer's name, and
// its lines (order_lines) with their items' and warehouses' names. A kind
// differs from another only in which of a line's figures it shows and how
// it sums its lines; orderKind says that, the rest is shared.

// orderOf is a kind's order type (*stockroom.PurchaseOrder, ...), read and
// written through its header and lines.
type orderOf[O any] interface {
	*O
	stockroom.AnyOrder
}

// orderKind is what the shared order code needs of a kind beyond what its
// root type says.
type orderKind[O any, P orderOf[O]] struct {
	kind stockroom.OrderKind
	// addLine appends the line a row of order_lines holds to an order.
	addLine func(o *O, r lineRow)
	// row is line i of an order as order_lines keeps it.
	row func(o *O, i int) lineRow
	// total sets a list entry's totals from its lines in scope, rows,
	// leaving it without lines.
	total func(o *O, rows []lineRow)
	// clone is o with lines of its own, to change without changing o's.
	clone func(o O) O
}

// purchaseOrders is the purchase order kind: its lines show what arrived,
// what is on its way and their price.
var purchaseOrders = orderKind[stockroom.PurchaseOrder, *stockroom.PurchaseOrder]{
	kind: stockroom.OrderKindPurchase,
	addLine: func(o *stockroom.PurchaseOrder, r lineRow) {
		o.Lines = append(o.Lines, stockroom.PurchaseLine{OrderLine: r.OrderLine, UnitsReceived: r.received,
			UnitsInTransit: r.inTransit, UnitsRejected: r.rejected, UnitPrice: r.unitPrice})
	},
	row: func(o *stockroom.PurchaseOrder, i int) lineRow {
		return lineRow{OrderLine: o.Lines[i].OrderLine, unitPrice: o.Lines[i].UnitPrice}
	},
	total: func(o *stockroom.PurchaseOrder, rows []lineRow) {
		for _, r := range rows {
			o.Lines = append(o.Lines, stockroom.PurchaseLine{OrderLine: r.OrderLine, UnitPrice: r.unitPrice})
		}
		o.Summarize()
		o.Lines = nil
	},
	clone: func(o stockroom.PurchaseOrder) stockroom.PurchaseOrder { o.Lines = slices.Clone(o.Lines); return o },
}

// orderHeadColumns are the columns of a header, in headRow's order.
const orderHeadColumns = `
	o.id,
	o.order_no,
	COALESCE(p.name, ''),
	o.party,
	o.order_date,
	o.due_date,
	o.status,
	o.reference,
	o.remark,
	o.created,
	o.modified`

// orderFrom joins a header with its vendor or customer (a work order has
// none: party 0).
const orderFrom = `orders o LEFT JOIN parties p ON p.id = o.party`

// headRow holds what a header's columns keep otherwise than its root type.
type headRow struct {
	date, created, modified int64
	due                     sql.NullInt64
}

// dest is where the columns of orderHeadColumns go: into h, and into r
// what set converts.
func (r *headRow) dest(h stockroom.OrderHeader) []any {
	return []any{&h.ID, h.No, h.Party, h.PartyID, &r.date, &r.due, &h.Status, &h.Reference, &h.Remark, &r.created, &r.modified}
}

// set sets h's dates and times from r.
func (r *headRow) set(h stockroom.OrderHeader) {
	h.OrderDate, *h.DueDate = fromMicros(r.date), optTime(r.due)
	h.Created, h.Modified = fromMicros(r.created), fromMicros(r.modified)
}

// orderQuery reads one order of a kind ($1), named by its folded number
// ($2), with every line: one statement, so one snapshot.
const orderQuery = orderLinesSelect + `
	WHERE o.kind = $1 AND o.order_no_key = $2
	ORDER BY l.line_no`

// orderLineQuery reads one line ($3) of an order with its header.
const orderLineQuery = orderLinesSelect + `
	WHERE o.kind = $1 AND o.order_no_key = $2 AND l.line_no = $3`

// orderLinesSelect reads headers with their lines: every column of a line,
// whatever its kind shows of them.
const orderLinesSelect = `
	SELECT ` + orderHeadColumns + `,
		l.line_no,
		l.part_no,
		i.short_id,
		i.description,
		l.units,
		l.wid,
		w.name,
		l.owner,
		l.received,
		l.in_transit,
		l.rejected,
		l.unit_price,
		l.committed,
		l.packed,
		l.shipped,
		COALESCE(l.per_unit, 0)
	FROM ` + orderFrom + `
	JOIN order_lines l ON l.order_id = o.id
	JOIN items i ON i.part_no = l.part_no
	JOIN warehouses w ON w.wid = l.wid`

// lineRow is a row of order_lines with its item's and warehouse's names.
type lineRow struct {
	stockroom.OrderLine
	received, inTransit, rejected, unitPrice stockroom.Units // purchase lines
	committed, packed, shipped               stockroom.Units // shipping lines, components
	perUnit                                  stockroom.Units // components
}

// orderRead collects an order from the rows of orderQuery.
type orderRead[O any, P orderOf[O]] struct {
	k     orderKind[O, P]
	head  headRow
	o     O
	found bool // every order has a line
}

func (r *orderRead[O, P]) read(rs rows) error {
	for rs.Next() {
		var l lineRow
		dest := append(r.head.dest(P(&r.o).Header()), &l.LineNo, &l.PartNo, &l.ShortID, &l.Description, &l.Units, &l.Warehouse,
			&l.WarehouseName, &l.Owner, &l.received, &l.inTransit, &l.rejected, &l.unitPrice, &l.committed, &l.packed, &l.shipped, &l.perUnit)
		if err := rs.Scan(dest...); err != nil {
			return err
		}
		r.k.addLine(&r.o, l)
		r.found = true
	}
	return rs.Err()
}

// value is the order read, summarized.
func (r *orderRead[O, P]) value() O {
	o := r.o
	r.head.set(P(&o).Header())
	P(&o).Summarize()
	return o
}

// read queues the reading of the order numbered no (in any letter case)
// with its lines, in r after the next flush.
func (k orderKind[O, P]) read(t *Tx, no string, r *orderRead[O, P]) {
	r.k = k
	t.Query(r.read, orderQuery, string(k.kind), stockroom.FoldKey(no))
}

// FindPurchaseOrder returns the purchase order numbered no, in any letter
// case, with all its lines, or stockroom.ErrNotFound.
func (db *DB) FindPurchaseOrder(ctx context.Context, no string) (stockroom.PurchaseOrder, error) {
	return purchaseOrders.find(ctx, db, orderQuery, no)
}

// FindPurchaseLine returns the purchase order numbered no, in any letter
// case, with only its line lineNo, or stockroom.ErrNotFound when either is
// missing: what a receipt against the line needs, in one indexed read.
func (db *DB) FindPurchaseLine(ctx context.Context, no string, lineNo int64) (stockroom.PurchaseOrder, error) {
	return purchaseOrders.find(ctx, db, orderLineQuery, no, lineNo)
}

// find reads one order with the lines query (orderQuery, orderLineQuery)
// selects, or stockroom.ErrNotFound.
func (k orderKind[O, P]) find(ctx context.Context, db *DB, query, no string, more ...any) (O, error) {
	r := orderRead[O, P]{k: k}
	rs, err := db.read.QueryContext(ctx, query, append([]any{string(k.kind), stockroom.FoldKey(no)}, more...)...)
	if err != nil {
		return r.o, db.classify(err)
	}
	defer rs.Close()
	if err := r.read(rs); err != nil {
		return r.o, db.classify(err)
	}
	if !r.found {
		return r.o, stockroom.ErrNotFound
	}
	return r.value(), nil
}

// orderSort lets order lists sort by the fields of an order of a kind.
// Orders without a date due sort after every date, on both engines.
func orderSort(kind stockroom.OrderKind) sortSpec {
	fields := map[string]string{
		strings.ToLower(kind.NoField()):  "o.order_no_key",
		"orderdate":                      "o.order_date",
		strings.ToLower(kind.DueField()): "COALESCE(o.due_date, 9223372036854775807)",
		"status":                         "o.status",
		"reference":                      "o.reference",
		"remark":                         "o.remark",
		"created":                        "o.created",
		"modified":                       "o.modified",
	}
	if party := kind.Party(); party != "" { // a work order has none
		fields[string(party)], fields[strings.ToLower(party.IDField())] = "p.name", "o.party"
	}
	return sortSpec{
		fields:   fields,
		defField: "orderdate",
		key:      "o.id",
		unique:   []string{"o.order_no_key"},
		modified: "o.modified",
	}
}

// lineScope returns the conditions on an order line (alias l) of being in a
// warehouse of scope and of an owner of owners (nil: any).
func lineScope(scope stockroom.Scope, owners *stockroom.Scope, a *args) []string {
	var conds []string
	if c := scopeCond("l.wid", scope, a); c != "" {
		conds = append(conds, c)
	}
	if owners != nil {
		if c := scopeCond("l.owner", *owners, a); c != "" {
			conds = append(conds, c)
		}
	}
	return conds
}

// ListPurchaseOrders returns a page of the purchase orders with a line in
// scope and of f.Owners (nil: any owner) (orderKind.list).
func (db *DB) ListPurchaseOrders(ctx context.Context, scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.PurchaseOrder], error) {
	return purchaseOrders.list(ctx, db, scope, f, req)
}

// list returns a page of the orders of the kind with a line in scope and
// of f.Owners (nil: any owner), in order date order by default. Entries
// carry no lines; their totals count the lines in scope and of f.Owners
// only. The filters keep orders with such a line of the item, warehouse or
// owner asked for.
func (k orderKind[O, P]) list(ctx context.Context, db *DB, scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest) (stockroom.Page[O], error) {
	page, err := queryPage(ctx, db, k.listQuery(scope, f), req, k.scanHead)
	if err != nil {
		return page, err
	}
	return page, db.classify(k.sumLines(ctx, db.read, scope, f.Owners, page.Items))
}

// scanHead scans an order's header, as the list reads it.
func (k orderKind[O, P]) scanHead(row scanner) (O, error) {
	var (
		o O
		r headRow
	)
	err := row.Scan(r.dest(P(&o).Header())...)
	r.set(P(&o).Header())
	return o, err
}

// listQuery is the query of list (and of an export of it).
func (k orderKind[O, P]) listQuery(scope stockroom.Scope, f stockroom.OrderFilter) pageQuery {
	q := pageQuery{from: orderFrom, columns: orderHeadColumns, sort: orderSort(k.kind)}
	q.where = append(q.where, "o.kind = "+q.args.add(string(k.kind)))
	if f.OpenOnly {
		q.where = append(q.where, openOrder)
	}
	if f.Status != "" {
		q.where = append(q.where, "o.status = "+q.args.add(string(f.Status)))
	}
	if f.StartDate != nil {
		q.where = append(q.where, "o.order_date >= "+q.args.add(micros(*f.StartDate)))
	}
	if f.EndDate != nil {
		q.where = append(q.where, endColumn(k.kind)+" <= "+q.args.add(micros(*f.EndDate)))
	}
	conds := lineScope(scope, f.Owners, &q.args)
	if f.WID != 0 {
		conds = append(conds, "l.wid = "+q.args.add(f.WID))
	}
	if f.ItemShortID != "" && k.kind == stockroom.OrderKindWork {
		q.where = append(q.where, workItemCond(&q.args, f.ItemShortID))
	} else if f.ItemShortID != "" {
		conds = append(conds, "l.part_no IN (SELECT part_no FROM items WHERE short_id_key = "+
			q.args.add(stockroom.FoldKey(f.ItemShortID))+")")
	}
	if len(conds) > 0 {
		q.where = append(q.where, "EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = o.id AND "+strings.Join(conds, " AND ")+")")
	}
	return q
}

// sumLines sets the totals of the orders from their lines in scope and of
// owners, read with one query.
func (k orderKind[O, P]) sumLines(ctx context.Context, qr querier, scope stockroom.Scope, owners *stockroom.Scope, orders []O) error {
	if len(orders) == 0 {
		return nil
	}
	var a args
	byID := make(map[int64][]lineRow, len(orders))
	ph := make([]string, len(orders))
	for i := range orders {
		ph[i] = a.add(P(&orders[i]).Header().ID)
	}
	conds := append([]string{"l.order_id IN (" + strings.Join(ph, ", ") + ")"}, lineScope(scope, owners, &a)...)
	rs, err := qr.QueryContext(ctx, `
		SELECT l.order_id, l.units, l.unit_price
		FROM order_lines l
		WHERE `+strings.Join(conds, " AND "), a...)
	if err != nil {
		return err
	}
	defer rs.Close()
	for rs.Next() {
		var (
			id int64
			l  lineRow
		)
		if err := rs.Scan(&id, &l.Units, &l.unitPrice); err != nil {
			return err
		}
		byID[id] = append(byID[id], l)
	}
	if err := rs.Err(); err != nil {
		return err
	}
	for i := range orders {
		k.total(&orders[i], byID[P(&orders[i]).Header().ID])
	}
	return nil
}

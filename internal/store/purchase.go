package store

import (
	"context"
	"database/sql"
	"strings"

	"github.com/stockroom/stockroom"
)

// Purchase orders as read: an order's header (orders, kind 'purchase') with
// its vendor's name, and its lines with their items' and warehouses' names.

// purchaseHeadColumns are the columns of a header, in headRow's order.
const purchaseHeadColumns = `
	o.id,
	o.order_no,
	v.name,
	o.party,
	o.order_date,
	o.due_date,
	o.status,
	o.reference,
	o.remark,
	o.created,
	o.modified`

// purchaseFrom joins a header with its vendor.
const purchaseFrom = `orders o JOIN parties v ON v.id = o.party`

// headRow receives a header as purchaseHeadColumns lists it.
type headRow struct {
	o                       stockroom.PurchaseOrder
	date, created, modified int64
	expected                sql.NullInt64
}

func (r *headRow) dest() []any {
	o := &r.o
	return []any{&o.ID, &o.PONo, &o.Vendor, &o.VendorID, &r.date, &r.expected, &o.Status, &o.Reference, &o.Remark,
		&r.created, &r.modified}
}

func (r *headRow) value() stockroom.PurchaseOrder {
	o := r.o
	o.OrderDate, o.ExpectedDate = fromMicros(r.date), optTime(r.expected)
	o.Created, o.Modified = fromMicros(r.created), fromMicros(r.modified)
	return o
}

// purchaseOrderQuery reads one order, named by its folded number, with every
// line: one statement, so one snapshot.
const purchaseOrderQuery = purchaseLinesSelect + `
	WHERE o.kind = 'purchase' AND o.order_no_key = $1
	ORDER BY l.line_no`

// purchaseLineQuery reads one line ($2) of an order with its header.
const purchaseLineQuery = purchaseLinesSelect + `
	WHERE o.kind = 'purchase' AND o.order_no_key = $1 AND l.line_no = $2`

// purchaseLinesSelect reads headers with their lines.
const purchaseLinesSelect = `
	SELECT ` + purchaseHeadColumns + `,
		l.line_no,
		l.part_no,
		i.short_id,
		i.description,
		l.units,
		l.received,
		l.in_transit,
		l.rejected,
		l.unit_price,
		l.wid,
		w.name,
		l.owner
	FROM ` + purchaseFrom + `
	JOIN order_lines l ON l.order_id = o.id
	JOIN items i ON i.part_no = l.part_no
	JOIN warehouses w ON w.wid = l.wid`

// orderRead collects an order from the rows of purchaseOrderQuery.
type orderRead struct {
	head  headRow
	lines []stockroom.PurchaseLine
}

func (r *orderRead) read(rs rows) error {
	for rs.Next() {
		var l stockroom.PurchaseLine
		dest := append(r.head.dest(), &l.LineNo, &l.PartNo, &l.ShortID, &l.Description, &l.Units, &l.UnitsReceived,
			&l.UnitsInTransit, &l.UnitsRejected, &l.UnitPrice, &l.Warehouse, &l.WarehouseName, &l.Owner)
		if err := rs.Scan(dest...); err != nil {
			return err
		}
		r.lines = append(r.lines, l)
	}
	return rs.Err()
}

// found reports whether the order was there (every order has a line).
func (r *orderRead) found() bool { return len(r.lines) > 0 }

// value is the order read, summarized.
func (r *orderRead) value() stockroom.PurchaseOrder {
	o := r.head.value()
	o.Lines = r.lines
	o.Summarize()
	return o
}

// readPurchaseOrder queues the reading of the order numbered no (in any
// letter case) with its lines, in r after the next flush.
func (t *Tx) readPurchaseOrder(no string, r *orderRead) {
	t.query(r.read, purchaseOrderQuery, stockroom.FoldKey(no))
}

// FindPurchaseOrder returns the purchase order numbered no, in any letter
// case, with all its lines, or stockroom.ErrNotFound.
func (db *DB) FindPurchaseOrder(ctx context.Context, no string) (stockroom.PurchaseOrder, error) {
	return db.findPurchase(ctx, purchaseOrderQuery, stockroom.FoldKey(no))
}

// FindPurchaseLine returns the purchase order numbered no, in any letter
// case, with only its line lineNo, or stockroom.ErrNotFound when either is
// missing: what a receipt against the line needs, in one indexed read.
func (db *DB) FindPurchaseLine(ctx context.Context, no string, lineNo int64) (stockroom.PurchaseOrder, error) {
	return db.findPurchase(ctx, purchaseLineQuery, stockroom.FoldKey(no), lineNo)
}

func (db *DB) findPurchase(ctx context.Context, query string, args ...any) (stockroom.PurchaseOrder, error) {
	var r orderRead
	rs, err := db.read.QueryContext(ctx, query, args...)
	if err != nil {
		return stockroom.PurchaseOrder{}, db.classify(err)
	}
	defer rs.Close()
	if err := r.read(rs); err != nil {
		return stockroom.PurchaseOrder{}, db.classify(err)
	}
	if !r.found() {
		return stockroom.PurchaseOrder{}, stockroom.ErrNotFound
	}
	return r.value(), nil
}

// purchaseSort lets order lists sort by the fields of an order. Orders
// without an expected date sort after every date, on both engines.
var purchaseSort = sortSpec{
	fields: map[string]string{
		"pono":         "o.order_no_key",
		"vendor":       "v.name",
		"vendorid":     "o.party",
		"orderdate":    "o.order_date",
		"expecteddate": "COALESCE(o.due_date, 9223372036854775807)",
		"status":       "o.status",
		"reference":    "o.reference",
		"remark":       "o.remark",
		"created":      "o.created",
		"modified":     "o.modified",
	},
	defField: "orderdate",
	key:      "o.id",
	unique:   []string{"o.order_no_key"},
	modified: "o.modified",
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
// scope and of f.Owners (nil: any owner), in order date order by default.
// Entries carry no lines; their totals count the lines in scope and of
// f.Owners only. The filters keep orders with such a line of the item,
// warehouse or owner asked for.
func (db *DB) ListPurchaseOrders(ctx context.Context, scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.PurchaseOrder], error) {
	q := pageQuery{from: purchaseFrom, columns: purchaseHeadColumns, sort: purchaseSort}
	q.where = append(q.where, "o.kind = 'purchase'")
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
		q.where = append(q.where, "o.order_date <= "+q.args.add(micros(*f.EndDate)))
	}
	conds := lineScope(scope, f.Owners, &q.args)
	if f.WID != 0 {
		conds = append(conds, "l.wid = "+q.args.add(f.WID))
	}
	if f.ItemShortID != "" {
		conds = append(conds, "l.part_no IN (SELECT part_no FROM items WHERE short_id_key = "+
			q.args.add(stockroom.FoldKey(f.ItemShortID))+")")
	}
	if len(conds) > 0 {
		q.where = append(q.where, "EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = o.id AND "+strings.Join(conds, " AND ")+")")
	}
	page, err := queryPage(ctx, db, q, req, func(row scanner) (stockroom.PurchaseOrder, error) {
		var r headRow
		err := row.Scan(r.dest()...)
		return r.value(), err
	})
	if err != nil {
		return page, err
	}
	return page, db.classify(db.sumLines(ctx, scope, f.Owners, page.Items))
}

// sumLines sets the totals of the orders from their lines in scope and of
// owners, read with one query.
func (db *DB) sumLines(ctx context.Context, scope stockroom.Scope, owners *stockroom.Scope, orders []stockroom.PurchaseOrder) error {
	if len(orders) == 0 {
		return nil
	}
	var a args
	byID := make(map[int64]*stockroom.PurchaseOrder, len(orders))
	ph := make([]string, len(orders))
	for i := range orders {
		byID[orders[i].ID] = &orders[i]
		ph[i] = a.add(orders[i].ID)
	}
	conds := append([]string{"l.order_id IN (" + strings.Join(ph, ", ") + ")"}, lineScope(scope, owners, &a)...)
	rs, err := db.read.QueryContext(ctx, `
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
			l  stockroom.PurchaseLine
		)
		if err := rs.Scan(&id, &l.Units, &l.UnitPrice); err != nil {
			return err
		}
		byID[id].Lines = append(byID[id].Lines, l)
	}
	if err := rs.Err(); err != nil {
		return err
	}
	for i := range orders {
		orders[i].Summarize()
		orders[i].Lines = nil
	}
	return nil
}

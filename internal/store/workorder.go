package store

import (
	"context"
	"database/sql"
	"slices"
	"strings"

	"github.com/stockroom/stockroom"
)

// Work orders: orders of kind 'work' (party 0: they are with nobody), whose
// lines are the components of a product that work_orders keeps with the
// header: its item, units, units completed, warehouse, spot and owner, and
// the order's start date, assignee and description. Placing one moves no
// figure and writes no ledger entry; components are committed as shipping
// lines are (alloc*.go) and consumed by a completion (workcomplete.go).

// workOrders is the work order kind of the shared order code.
var workOrders = orderKind[stockroom.WorkOrder, *stockroom.WorkOrder]{
	kind: stockroom.OrderKindWork,
	addLine: func(o *stockroom.WorkOrder, r lineRow) {
		o.Lines = append(o.Lines, stockroom.WorkLine{OrderLine: r.OrderLine, PerUnit: r.perUnit, UnitsCommitted: r.committed,
			UnitsCompleted: r.shipped})
	},
	row: func(o *stockroom.WorkOrder, i int) lineRow {
		return lineRow{OrderLine: o.Lines[i].OrderLine, perUnit: o.Lines[i].PerUnit}
	},
	total: func(o *stockroom.WorkOrder, rows []lineRow) { o.TotalLines = int64(len(rows)) },
	clone: func(o stockroom.WorkOrder) stockroom.WorkOrder { o.Lines = slices.Clone(o.Lines); return o },
}

// optPerUnit is a line's per_unit: a component's, NULL for other lines.
func optPerUnit(u stockroom.Units) any {
	if u.IsZero() {
		return nil
	}
	return u
}

// endColumn is what an order list's endDate bounds: the order date, a
// work order's due date.
func endColumn(kind stockroom.OrderKind) string {
	if kind == stockroom.OrderKindWork {
		return "o.due_date"
	}
	return "o.order_date"
}

// workItemCond keeps the work orders whose product or a component is the
// item shortID names.
func workItemCond(a *args, shortID string) string {
	item := "(SELECT part_no FROM items WHERE short_id_key = " + a.add(stockroom.FoldKey(shortID)) + ")"
	return "(o.id IN (SELECT order_id FROM work_orders WHERE part_no IN " + item + ") OR EXISTS (" +
		"SELECT 1 FROM order_lines c WHERE c.order_id = o.id AND c.part_no IN " + item + "))"
}

// selectWork reads the product and what else work_orders keeps of orders.
const selectWork = `
	SELECT w.order_id, w.part_no, i.short_id, w.units, w.completed, w.wid, w.spot, w.owner, w.start_date, w.assignee, w.description
	FROM work_orders w
	JOIN items i ON i.part_no = w.part_no
	WHERE w.order_id IN `

// workRead sets the orders' own fields from the rows of selectWork.
type workRead map[int64]*stockroom.WorkOrder

func (m workRead) read(rs rows) error {
	for rs.Next() {
		var (
			id    int64
			w     stockroom.WorkOrder
			start sql.NullInt64
		)
		if err := rs.Scan(&id, &w.PartNo, &w.ItemID, &w.Units, &w.UnitsCompleted, &w.WID, &w.Spot, &w.Owner, &start, &w.Assignee,
			&w.Description); err != nil {
			return err
		}
		if o := m[id]; o != nil {
			o.PartNo, o.ItemID, o.Units, o.UnitsCompleted, o.WID, o.Spot, o.Owner = w.PartNo, w.ItemID, w.Units, w.UnitsCompleted, w.WID, w.Spot, w.Owner
			o.StartDate, o.Assignee, o.Description = optTime(start), w.Assignee, w.Description
		}
	}
	return rs.Err()
}

// query is selectWork for the orders and its arguments.
func (m workRead) query() (string, []any) {
	var a args
	ph := make([]string, 0, len(m))
	for id := range m {
		ph = append(ph, a.add(id))
	}
	return selectWork + "(" + strings.Join(ph, ", ") + ")", a
}

func workReadOf(orders ...*stockroom.WorkOrder) workRead {
	m := workRead{}
	for _, o := range orders {
		m[o.ID] = o
	}
	return m
}

// FindWorkOrder returns the work order numbered no, in any letter case,
// with its product and all its components, read in one snapshot, or
// stockroom.ErrNotFound.
func (db *DB) FindWorkOrder(ctx context.Context, no string) (stockroom.WorkOrder, error) {
	r := orderRead[stockroom.WorkOrder, *stockroom.WorkOrder]{k: workOrders}
	var o stockroom.WorkOrder
	err := db.inReadTx(ctx, func(tx *sql.Tx) error {
		rs, err := tx.QueryContext(ctx, orderQuery, string(stockroom.OrderKindWork), stockroom.FoldKey(no))
		if err != nil {
			return err
		}
		err = r.read(rs)
		if cerr := rs.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		if !r.found {
			return stockroom.ErrNotFound
		}
		o = r.value()
		q, a := workReadOf(&o).query()
		if rs, err = tx.QueryContext(ctx, q, a...); err != nil {
			return err
		}
		defer rs.Close()
		return workReadOf(&o).read(rs)
	})
	return o, db.classify(err)
}

// ListWorkOrders returns a page of the work orders with a component in
// scope and of f.Owners (nil: any owner), as ListPurchaseOrders does; the
// item filter keeps orders with that product or component, and EndDate
// bounds the due date.
func (db *DB) ListWorkOrders(ctx context.Context, scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.WorkOrder], error) {
	page, err := workOrders.list(ctx, db, scope, f, req)
	if err != nil {
		return page, err
	}
	return page, db.classify(readWorkOrders(ctx, db.read, page.Items))
}

// readWorkOrders fills in the product, place and dates of listed work
// orders with one query.
func readWorkOrders(ctx context.Context, qr querier, orders []stockroom.WorkOrder) error {
	if len(orders) == 0 {
		return nil
	}
	m := workRead{}
	for i := range orders {
		m[orders[i].ID] = &orders[i]
	}
	q, a := m.query()
	rs, err := qr.QueryContext(ctx, q, a...)
	if err != nil {
		return err
	}
	defer rs.Close()
	return m.read(rs)
}

// CreateWorkOrder stores a new work order o (its product, units, place,
// owner, dates, texts, and components with their item, per-unit and total
// units, at the order's warehouse for its owner) as Open at e.Time and
// returns it as stored, recording key's answer in the same transaction.
// Without a number it takes the next free one (WO-000001, ...); a number
// taken already is stockroom.ErrDuplicate. A discontinued product or
// component, an inactive warehouse or owner is an
// *stockroom.OrderLineRefusal (Line 0: the product).
func (db *DB) CreateWorkOrder(ctx context.Context, key *stockroom.IdempotencyKey, o stockroom.WorkOrder, e stockroom.LedgerEntry) (stockroom.WorkOrder, error) {
	write := func(t *Tx, old, o *stockroom.WorkOrder) (stockroom.WorkOrder, error) {
		lines := workOrders.writeLines(t, old, o, e.Time)
		product := lineRow{OrderLine: stockroom.OrderLine{PartNo: o.PartNo, Warehouse: o.WID, Owner: o.Owner}}
		refusal := t.checkOrderLines(append([]lineRow{product}, lines...))
		t.Exec(`
			INSERT INTO work_orders (order_id, part_no, units, completed, wid, spot, owner, start_date, assignee, description)
			VALUES ($1, $2, $3, 0, $4, $5, $6, $7, $8, $9)`,
			o.ID, o.PartNo, o.Units, o.WID, o.Spot, o.Owner, optMicros(o.StartDate), o.Assignee, o.Description)
		back, err := t.readWork(o.WONo)
		if err != nil {
			return back, err
		}
		if err := refusal.err(); err != nil {
			return back, err
		}
		return back, orderEvents(t, e, back, changeActions(old.Status, back.Status)...)
	}
	return workOrders.create(ctx, newOrderWriter(db, key, write), o, e.Time)
}

// readWork reads work order no back within the transaction, flushing.
func (t *Tx) readWork(no string) (stockroom.WorkOrder, error) {
	back, err := workOrders.readBack(t, &stockroom.WorkOrder{WONo: no})
	if err != nil {
		return back, err
	}
	q, a := workReadOf(&back).query()
	t.Query(workReadOf(&back).read, q, a...)
	return back, t.Flush()
}

package store

import (
	"context"

	"github.com/stockroom/stockroom"
)

// The CSV exports of the order lists (contract §13): every order the list
// would show, in its order, each completed as the list completes its page
// (totals of the lines in scope; a work order's product; a transit's
// lines), a batch at a time in the export's snapshot.

// export is the export of list; load completes a batch further (nil:
// nothing more).
func (k orderKind[O, P]) export(scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest, load func(ctx context.Context, qr querier, batch []O) error) export[O] {
	return export[O]{q: k.listQuery(scope, f), req: req, scan: k.scanHead,
		load: func(ctx context.Context, qr querier, batch []O) error {
			if err := k.sumLines(ctx, qr, scope, f.Owners, batch); err != nil || load == nil {
				return err
			}
			return load(ctx, qr, batch)
		}}
}

// EachPurchaseOrder passes every purchase order ListPurchaseOrders lists,
// in its order, to fn (an export: no paging), read in one snapshot from
// the reports' reader.
func (db *DB) EachPurchaseOrder(ctx context.Context, scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest, fn func(stockroom.PurchaseOrder) error) error {
	return each(ctx, db, purchaseOrders.export(scope, f, req, nil), fn)
}

// EachShippingOrder passes every shipping order ListShippingOrders lists to
// fn, as EachPurchaseOrder does.
func (db *DB) EachShippingOrder(ctx context.Context, scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest, fn func(stockroom.ShippingOrder) error) error {
	return each(ctx, db, shippingOrders.export(scope, f, req, nil), fn)
}

// EachWorkOrder passes every work order ListWorkOrders lists to fn, as
// EachPurchaseOrder does.
func (db *DB) EachWorkOrder(ctx context.Context, scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest, fn func(stockroom.WorkOrder) error) error {
	return each(ctx, db, workOrders.export(scope, f, req, readWorkOrders), fn)
}

// EachTransit passes every transit ListTransits lists, with the lines of
// f.Owners, to fn, as EachPurchaseOrder does.
func (db *DB) EachTransit(ctx context.Context, scope stockroom.Scope, f stockroom.TransitFilter, req stockroom.PageRequest, fn func(stockroom.Transit) error) error {
	e := export[stockroom.Transit]{q: transitQuery(scope, f), req: req, scan: scanTransit,
		load: func(ctx context.Context, qr querier, batch []stockroom.Transit) error {
			return transitLines(ctx, qr, batch, f.Owners)
		}}
	return each(ctx, db, e, fn)
}

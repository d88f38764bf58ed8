package store

import (
	"context"
	"slices"

	"github.com/stockroom/stockroom"
)

// Shipping orders: orders of kind 'shipping' (order.go), whose lines show
// what of them is committed, packed and shipped. Placing or changing one
// moves no figure and writes no ledger entry: committed and packed change
// with the allocations of the order's lines (alloc*.go), in transactions
// of their own that lock the order's header first (lockOutbound), as a
// change does (orderKind.lock).

// shippingOrders is the shipping order kind of the shared order code.
var shippingOrders = orderKind[stockroom.ShippingOrder, *stockroom.ShippingOrder]{
	kind: stockroom.OrderKindShipping,
	addLine: func(o *stockroom.ShippingOrder, r lineRow) {
		o.Lines = append(o.Lines, stockroom.ShippingLine{OrderLine: r.OrderLine, UnitsCommitted: r.committed, UnitsPacked: r.packed,
			UnitsShipped: r.shipped})
	},
	row:   func(o *stockroom.ShippingOrder, i int) lineRow { return lineRow{OrderLine: o.Lines[i].OrderLine} },
	total: func(o *stockroom.ShippingOrder, rows []lineRow) { o.TotalLines = int64(len(rows)) },
	clone: func(o stockroom.ShippingOrder) stockroom.ShippingOrder { o.Lines = slices.Clone(o.Lines); return o },
}

// FindShippingOrder returns the shipping order numbered no, in any letter
// case, with all its lines, or stockroom.ErrNotFound. Its ID is the
// order's key (order_lines.order_id, allocations.order_id).
func (db *DB) FindShippingOrder(ctx context.Context, no string) (stockroom.ShippingOrder, error) {
	return shippingOrders.find(ctx, db, orderQuery, no)
}

// ListShippingOrders returns a page of the shipping orders with a line in
// scope and of f.Owners (nil: any owner), as ListPurchaseOrders does.
func (db *DB) ListShippingOrders(ctx context.Context, scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.ShippingOrder], error) {
	return shippingOrders.list(ctx, db, scope, f, req)
}

// CreateShippingOrder stores a new shipping order o (its customer, dates,
// texts, and lines with their item, warehouse, owner and units) as Open at
// e.Time and returns it as stored, recording key's answer in the same
// transaction. Without a number it takes the next free one (SO-000001,
// ...); a number taken already, in any letter case, is
// stockroom.ErrDuplicate.
func (db *DB) CreateShippingOrder(ctx context.Context, key *stockroom.IdempotencyKey, o stockroom.ShippingOrder, e stockroom.LedgerEntry) (stockroom.ShippingOrder, error) {
	return shippingOrders.create(ctx, newOrderWriter(db, key, shippingWrite(e)), o, e.Time)
}

// ChangeShippingOrder locks the shipping order numbered no (any letter
// case), lets fn change it, and stores what fn changed: header, lines'
// units, new lines (numbered by fn), at e.Time. It returns the order as
// stored (unchanged when fn reports no change), or stockroom.ErrNotFound;
// an error of fn changes nothing. fn sees the lines' committed, packed and
// shipped units as they are while the order is locked.
func (db *DB) ChangeShippingOrder(ctx context.Context, key *stockroom.IdempotencyKey, no string, e stockroom.LedgerEntry, fn func(*stockroom.ShippingOrder) (bool, error)) (stockroom.ShippingOrder, error) {
	return shippingOrders.change(ctx, newOrderWriter(db, key, shippingWrite(e)), no, fn)
}

// shippingWrite writes a shipping order's header and lines at e.Time.
func shippingWrite(e stockroom.LedgerEntry) orderWrite[stockroom.ShippingOrder] {
	return func(t *Tx, old, o *stockroom.ShippingOrder) (stockroom.ShippingOrder, error) {
		shippingOrders.writeLines(t, old, o, e.Time)
		back, err := shippingOrders.readBack(t, o)
		if err != nil {
			return back, err
		}
		return back, orderEvents(t, e, back, changeActions(old.Status, back.Status)...)
	}
}

package client

import (
	"context"
	"iter"

	"github.com/stockroom/stockroom"
)

// Shipping orders are the root package's types. A ShippingOrderRequest
// places an order (lines without LineNo, each of an item, units and the
// warehouse they ship from) or changes the one its SONo names.
type (
	ShippingOrder            = stockroom.ShippingOrder
	ShippingLine             = stockroom.ShippingLine
	ShippingOrderRequest     = stockroom.ShippingOrderRequest
	ShippingLineRequest      = stockroom.ShippingLineRequest
	ShippingOrderListOptions = OrderListOptions
)

// CreateShippingOrder places a shipping order to in.CustomerID and returns
// it as stored: numbered SO-000001 and so on when in.SONo is empty, each
// line of the stock of its owner (default in.Owner, then the client's own
// owner when it is limited to exactly one, then the item's dfltOwner). Nothing is committed yet: commit it to reserve lots. A retry
// places it once.
func (c *Client) CreateShippingOrder(ctx context.Context, in ShippingOrderRequest) (*ShippingOrder, error) {
	return orderCall[ShippingOrder](ctx, c, "POST", "ShippingOrder", in)
}

// UpdateShippingOrder changes the open shipping order in.SONo. A line's
// units may not go below what of it is committed, packed or shipped (an
// *Error with code "conflict").
func (c *Client) UpdateShippingOrder(ctx context.Context, in ShippingOrderRequest) (*ShippingOrder, error) {
	return orderCall[ShippingOrder](ctx, c, "PUT", "ShippingOrder", in)
}

// GetShippingOrder reads shipping order soNo, in any letter case, with
// the lines the client sees and what of each is committed, packed and
// shipped.
func (c *Client) GetShippingOrder(ctx context.Context, soNo string) (*ShippingOrder, error) {
	return orderCall[ShippingOrder](ctx, c, "GET", "ShippingOrder/"+pathSegment(soNo), nil)
}

// ListShippingOrders returns the page of shipping orders opts asks for (the
// open ones unless opts.All); entries have totals but no lines.
func (c *Client) ListShippingOrders(ctx context.Context, opts ShippingOrderListOptions) (*Page[ShippingOrder], error) {
	return listOrders[ShippingOrder](ctx, c, stockroom.OrderKindShipping, opts)
}

// ShippingOrders iterates over the shipping orders opts selects, reading
// a page at a time.
func (c *Client) ShippingOrders(ctx context.Context, opts ShippingOrderListOptions) iter.Seq2[ShippingOrder, error] {
	return walkOrders[ShippingOrder](ctx, c, stockroom.OrderKindShipping, opts)
}

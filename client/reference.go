package client

import (
	"context"
	"iter"

	"github.com/stockroom/stockroom"
)

// ListWarehouses returns one page of the warehouses in the client's scope,
// the ids that stock calls take as WID.
func (c *Client) ListWarehouses(ctx context.Context, opts ListOptions) (*Page[stockroom.Warehouse], error) {
	return getPage[stockroom.Warehouse](ctx, c, "Warehouse", opts.values())
}

// Warehouses yields every warehouse in the client's scope.
func (c *Client) Warehouses(ctx context.Context, opts ListOptions) iter.Seq2[stockroom.Warehouse, error] {
	return Walk(ctx, opts, c.ListWarehouses)
}

// ListReasonCodes returns one page of the reason codes that receipts and
// issues must name. A code's Direction says which of the two it fits
// (stockroom.DirectionReceive, DirectionIssue or DirectionAny).
func (c *Client) ListReasonCodes(ctx context.Context, opts ListOptions) (*Page[stockroom.ReasonCode], error) {
	return getPage[stockroom.ReasonCode](ctx, c, "ReasonCode", opts.values())
}

// ReasonCodes yields every reason code.
func (c *Client) ReasonCodes(ctx context.Context, opts ListOptions) iter.Seq2[stockroom.ReasonCode, error] {
	return Walk(ctx, opts, c.ListReasonCodes)
}

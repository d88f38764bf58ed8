package client

import (
	"context"

	"github.com/stockroom/stockroom"
)

// The actions on a shipping order's lines (contract §11) take and return
// the root package's types. Each answers an AllocationResult: the order's
// status afterwards and, per line changed, its ledger entry, the units,
// what is short (a commit with AllowPartial), the line's committed, packed
// and shipped units afterwards, and the lots taken. Each is one
// transaction, applied once even when the call has to be retried.
type (
	AllocLine        = stockroom.AllocLine
	CommitRequest    = stockroom.CommitRequest
	UncommitRequest  = stockroom.UncommitRequest
	PackRequest      = stockroom.PackRequest
	ShipRequest      = stockroom.ShipRequest
	AllocationResult = stockroom.AllocationResult
	LineAllocation   = stockroom.LineAllocation
	LotUnits         = stockroom.LotUnits
)

// CommitShippingOrder reserves lots for lines of order soNo (every line's
// uncommitted units when req names none), oldest received first. All or
// nothing: a line that cannot be covered is an *Error with code "conflict"
// naming it, and nothing is committed, unless req.AllowPartial, when what
// can be is committed and each line's Short says what is not.
func (c *Client) CommitShippingOrder(ctx context.Context, soNo string, req CommitRequest) (*AllocationResult, error) {
	return shippingAction(ctx, c, soNo, "Commit", req)
}

// UncommitShippingOrder releases committed (not packed) units of lines:
// every committed unit of each line named, or of every line.
func (c *Client) UncommitShippingOrder(ctx context.Context, soNo string, req UncommitRequest) (*AllocationResult, error) {
	return shippingAction(ctx, c, soNo, "Uncommit", req)
}

// PackShippingOrder turns committed units of the lines named into packed
// ones.
func (c *Client) PackShippingOrder(ctx context.Context, soNo string, req PackRequest) (*AllocationResult, error) {
	return shippingAction(ctx, c, soNo, "Pack", req)
}

// ShipShippingOrder ships lines' packed units, then committed ones, out
// of their lots (every such unit of each line named, or of every line).
// The order is Closed once every line has shipped in full.
func (c *Client) ShipShippingOrder(ctx context.Context, soNo string, req ShipRequest) (*AllocationResult, error) {
	return shippingAction(ctx, c, soNo, "Ship", req)
}

// CancelShippingOrder cancels an order of which nothing has shipped (else
// an *Error with code "conflict"), releasing every allocation.
func (c *Client) CancelShippingOrder(ctx context.Context, soNo string) (*AllocationResult, error) {
	return shippingAction(ctx, c, soNo, "Cancel", nil)
}

// CloseShippingOrder ends an order, releasing what is still committed or
// packed; what has shipped stays shipped.
func (c *Client) CloseShippingOrder(ctx context.Context, soNo string) (*AllocationResult, error) {
	return shippingAction(ctx, c, soNo, "Close", nil)
}

// CommitAndShip commits everything order soNo has uncommitted (all or
// nothing: a short line is an *Error with code "conflict" and nothing
// changes), packs nothing, and ships every committed and packed unit. It
// returns the ship's answer. Calling it again after a failure between the
// two steps ships what the first committed. Under WithIdempotencyKey(key)
// the two calls send key+"/commit" and key+"/ship".
func (c *Client) CommitAndShip(ctx context.Context, soNo string) (*AllocationResult, error) {
	if _, err := c.CommitShippingOrder(stepKey(ctx, "commit"), soNo, CommitRequest{}); err != nil {
		return nil, err
	}
	return c.ShipWholeOrder(stepKey(ctx, "ship"), soNo, "", "")
}

// stepKey is ctx for one step of a call of several requests: the caller's
// Idempotency-Key, if any, with "/"+step added, so that each request has a
// key of its own.
func stepKey(ctx context.Context, step string) context.Context {
	if key, ok := ctx.Value(idempotencyKeyCtx{}).(string); ok && key != "" {
		return WithIdempotencyKey(ctx, key+"/"+step)
	}
	return ctx
}

// ShipWholeOrder ships every unit of order soNo that is committed or
// packed, on every line, under reference (default: the order's number)
// and remark.
func (c *Client) ShipWholeOrder(ctx context.Context, soNo, reference, remark string) (*AllocationResult, error) {
	return c.ShipShippingOrder(ctx, soNo, ShipRequest{Reference: reference, Remark: remark})
}

// shippingAction posts body to action of shipping order soNo.
func shippingAction(ctx context.Context, c *Client, soNo, action string, body any) (*AllocationResult, error) {
	return orderCall[AllocationResult](ctx, c, "POST", "ShippingOrder/"+pathSegment(soNo)+"/"+action, body)
}

package client

import (
	"context"
	"fmt"
	"iter"

	"github.com/stockroom/stockroom"
)

// Work orders are the root package's types. A WorkOrderRequest places an
// order to build Units of a product (ItemID) at warehouse WID from
// Components, each of Units per unit of product. In a WorkOrderListOptions
// EndDate bounds the due date and ItemID matches the product or a
// component.
type (
	WorkOrder            = stockroom.WorkOrder
	WorkLine             = stockroom.WorkLine
	WorkOrderRequest     = stockroom.WorkOrderRequest
	ComponentRequest     = stockroom.ComponentRequest
	CompleteResult       = stockroom.CompleteResult
	WorkOrderListOptions = OrderListOptions
)

// CreateWorkOrder places a work order and returns it as stored: numbered
// WO-000001 and so on when in.WONo is empty, its components at its
// warehouse, of its owner (default the client's own owner when it is
// limited to exactly one, else the product's dfltOwner). A retry places
// it once.
func (c *Client) CreateWorkOrder(ctx context.Context, in WorkOrderRequest) (*WorkOrder, error) {
	return orderCall[WorkOrder](ctx, c, "POST", "WorkOrder", in)
}

// GetWorkOrder reads work order woNo, in any letter case, with its
// components and what of each is committed and consumed.
func (c *Client) GetWorkOrder(ctx context.Context, woNo string) (*WorkOrder, error) {
	return orderCall[WorkOrder](ctx, c, "GET", "WorkOrder/"+pathSegment(woNo), nil)
}

// ListWorkOrders returns the page of work orders opts asks for (the open
// ones unless opts.All); entries have totals but no components.
func (c *Client) ListWorkOrders(ctx context.Context, opts WorkOrderListOptions) (*Page[WorkOrder], error) {
	return listOrders[WorkOrder](ctx, c, stockroom.OrderKindWork, opts)
}

// WorkOrders iterates over the work orders opts selects, reading a page
// at a time.
func (c *Client) WorkOrders(ctx context.Context, opts WorkOrderListOptions) iter.Seq2[WorkOrder, error] {
	return walkOrders[WorkOrder](ctx, c, stockroom.OrderKindWork, opts)
}

// CommitWorkOrder reserves lots for components of order woNo (every
// component's uncommitted units when req names none), as a shipping
// order's commit does: all or nothing unless req.AllowPartial.
func (c *Client) CommitWorkOrder(ctx context.Context, woNo string, req stockroom.CommitRequest) (*stockroom.AllocationResult, error) {
	return orderCall[stockroom.AllocationResult](ctx, c, "POST", "WorkOrder/"+pathSegment(woNo)+"/Commit", req)
}

// CompleteWorkOrder builds units products of order woNo in one
// transaction: it consumes their components (allocated lots first, then
// the oldest free ones) and receives the products as one lot priced at
// what the components cost. A component short is an *Error with code
// "conflict" naming it, and nothing changes. A retry completes once.
func (c *Client) CompleteWorkOrder(ctx context.Context, woNo string, units stockroom.Units) (*CompleteResult, error) {
	return orderCall[CompleteResult](ctx, c, "POST", "WorkOrder/"+pathSegment(woNo)+"/Complete", stockroom.CompleteRequest{Units: &units})
}

// CompleteAll completes whatever order woNo has left to build. It reads
// the order first: a completion by another client in between makes the
// server refuse (code "conflict") rather than build more than ordered.
func (c *Client) CompleteAll(ctx context.Context, woNo string) (*CompleteResult, error) {
	o, err := c.GetWorkOrder(ctx, woNo)
	if err != nil {
		return nil, err
	}
	left := o.Units.Sub(o.UnitsCompleted)
	if left.Sign() <= 0 || !o.Status.IsOpen() {
		return nil, fmt.Errorf("work order %s is %s with nothing left to complete", o.WONo, o.Status)
	}
	return c.CompleteWorkOrder(ctx, o.WONo, left)
}

// CancelWorkOrder cancels order woNo, of which nothing is completed yet,
// releasing its components' allocations.
func (c *Client) CancelWorkOrder(ctx context.Context, woNo string) (*stockroom.AllocationResult, error) {
	return orderCall[stockroom.AllocationResult](ctx, c, "POST", "WorkOrder/"+pathSegment(woNo)+"/Cancel", nil)
}

// CloseWorkOrder ends order woNo, whatever is completed, releasing its
// components' allocations.
func (c *Client) CloseWorkOrder(ctx context.Context, woNo string) (*stockroom.AllocationResult, error) {
	return orderCall[stockroom.AllocationResult](ctx, c, "POST", "WorkOrder/"+pathSegment(woNo)+"/Close", nil)
}

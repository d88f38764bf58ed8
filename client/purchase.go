package client

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/stockroom/stockroom"
)

// Purchase orders are the root package's types, the very ones the server
// writes and reads. A PurchaseOrderRequest places an order (Lines without
// LineNo) or changes one (named by PONo; a line with LineNo changes that
// line, one without is added).
type (
	PurchaseOrder        = stockroom.PurchaseOrder
	PurchaseLine         = stockroom.PurchaseLine
	PurchaseOrderRequest = stockroom.PurchaseOrderRequest
	PurchaseLineRequest  = stockroom.PurchaseLineRequest
)

// OrderListOptions selects a list of purchase or shipping orders. Order
// lists hold at most stockroom.MaxOrderPerPage (50) orders a page; larger
// page sizes are capped by the server.
type OrderListOptions struct {
	ListOptions
	// All lists every order (GET /PurchaseOrder/All, /ShippingOrder/All)
	// instead of the open ones.
	All bool
	// Status keeps the orders in this state.
	Status stockroom.OrderStatus
	// ItemID, WID and Owner keep the orders with a line of this item (a
	// ShortID), for this warehouse, of this owner (a customerID or ShortID,
	// &stockroom.OwnerRef{} for the house; the totals then count that
	// owner's lines only).
	ItemID string
	WID    int64
	Owner  *stockroom.OwnerRef
	// StartDate and EndDate bound the order date, both inclusive; the zero
	// time leaves a bound out.
	StartDate, EndDate time.Time
}

// PurchaseOrderListOptions selects a list of purchase orders.
type PurchaseOrderListOptions = OrderListOptions

func (o OrderListOptions) path(kind stockroom.OrderKind) string {
	if o.All {
		return kind.Path() + "/All"
	}
	return kind.Path()
}

func (o OrderListOptions) values() url.Values {
	q := o.ListOptions.values()
	setIf(q, "status", string(o.Status))
	setIf(q, "itemID", o.ItemID)
	if o.WID != 0 {
		q.Set("wid", strconv.FormatInt(o.WID, 10))
	}
	setOwner(q, o.Owner)
	for name, t := range map[string]time.Time{"startDate": o.StartDate, "endDate": o.EndDate} {
		if !t.IsZero() {
			q.Set(name, t.UTC().Format(time.RFC3339Nano))
		}
	}
	return q
}

// listOrders returns one page of the orders of a kind that opts selects.
func listOrders[O any](ctx context.Context, c *Client, kind stockroom.OrderKind, opts OrderListOptions) (*Page[O], error) {
	return getPage[O](ctx, c, opts.path(kind), opts.values())
}

// walkOrders yields every order of a kind that opts selects, page by page
// (50 a page unless opts ask for fewer).
func walkOrders[O any](ctx context.Context, c *Client, kind stockroom.OrderKind, opts OrderListOptions) iter.Seq2[O, error] {
	first := opts.ListOptions
	if first.PageSize <= 0 {
		first.PageSize = stockroom.MaxOrderPerPage
	}
	return Walk(ctx, first, func(ctx context.Context, lo ListOptions) (*Page[O], error) {
		opts.ListOptions = lo
		return listOrders[O](ctx, c, kind, opts)
	})
}

// orderCall sends a request about an order and reads the order answered.
func orderCall[O any](ctx context.Context, c *Client, method, path string, body any) (*O, error) {
	var o O
	if _, err := c.do(ctx, call{method: method, path: path, body: body}, &o); err != nil {
		return nil, err
	}
	return &o, nil
}

// ListPurchaseOrders returns one page of the purchase orders the client
// sees, in order date order unless sorted otherwise. Entries carry no
// lines; their totals count the lines in the client's scope.
func (c *Client) ListPurchaseOrders(ctx context.Context, opts PurchaseOrderListOptions) (*Page[PurchaseOrder], error) {
	return listOrders[PurchaseOrder](ctx, c, stockroom.OrderKindPurchase, opts)
}

// PurchaseOrders yields every purchase order of the list opts selects, page
// by page (50 a page unless opts ask for fewer).
func (c *Client) PurchaseOrders(ctx context.Context, opts PurchaseOrderListOptions) iter.Seq2[PurchaseOrder, error] {
	return walkOrders[PurchaseOrder](ctx, c, stockroom.OrderKindPurchase, opts)
}

// GetPurchaseOrder returns the purchase order numbered poNo (any letter
// case) with the lines the client sees. One it does not see is an *Error
// with code "not_found".
func (c *Client) GetPurchaseOrder(ctx context.Context, poNo string) (*PurchaseOrder, error) {
	return orderCall[PurchaseOrder](ctx, c, "GET", "PurchaseOrder/"+pathSegment(poNo), nil)
}

// CreatePurchaseOrder places an order and returns it as stored, with its
// number (assigned, PO-000001 and so on, when in.PONo is empty). A number
// taken already is an *Error with code "conflict". The call is applied once
// even when it has to be retried.
func (c *Client) CreatePurchaseOrder(ctx context.Context, in PurchaseOrderRequest) (*PurchaseOrder, error) {
	return orderCall[PurchaseOrder](ctx, c, "POST", "PurchaseOrder", in)
}

// UpdatePurchaseOrder changes the open order in.PONo: the non-nil fields,
// the lines named by LineNo, and new lines. Cutting a line's units below
// what has arrived is an *Error with code "conflict".
func (c *Client) UpdatePurchaseOrder(ctx context.Context, in PurchaseOrderRequest) (*PurchaseOrder, error) {
	return orderCall[PurchaseOrder](ctx, c, "PUT", "PurchaseOrder", in)
}

// ClosePurchaseOrder ends an open order: what is still due stops counting
// in onOrder.
func (c *Client) ClosePurchaseOrder(ctx context.Context, poNo string) (*PurchaseOrder, error) {
	return orderCall[PurchaseOrder](ctx, c, "POST", "PurchaseOrder/"+pathSegment(poNo)+"/Close", nil)
}

// CancelPurchaseOrder cancels an open order of which nothing has arrived
// or is on its way (else an *Error with code "conflict").
func (c *Client) CancelPurchaseOrder(ctx context.Context, poNo string) (*PurchaseOrder, error) {
	return orderCall[PurchaseOrder](ctx, c, "POST", "PurchaseOrder/"+pathSegment(poNo)+"/Cancel", nil)
}

// ReceiveAgainstLine receives req against line `line` of order poNo: the
// line's item and warehouse must be req's; without an Owner the stock is
// the line's owner's, without a Price it costs the line's unit price, and
// without a Supplier or Reference they are the order's vendor and number.
// The line, the order's status and onOrder change with the receipt.
func (c *Client) ReceiveAgainstLine(ctx context.Context, poNo string, line int64, req ReceiveRequest) (*ReceiveResult, error) {
	req.PONo, req.Line = poNo, line
	return c.Receive(ctx, req)
}

// ReceivePurchaseLine's answers for a line with nothing left due (or of an
// ended order), and for a line the order lacks or the client does not see.
var (
	ErrNothingDue = errors.New("client: nothing is due on the purchase order line")
	ErrNoLine     = errors.New("client: the purchase order has no such line")
)

// ReceivePurchaseLine receives what line `line` of order poNo has due, as
// the order is read just before, into the line's warehouse (and bin spot,
// when given), under reason code 1, "Purchase order receipt". A line with
// nothing due is ErrNothingDue, one the order lacks or the client does not
// see ErrNoLine, and an order it does not see an *Error with code
// "not_found". Units that another receipt brings meanwhile are
// received again: to make a retry safe, run it under WithIdempotencyKey.
func (c *Client) ReceivePurchaseLine(ctx context.Context, poNo string, line int64, spot ...string) (*ReceiveResult, error) {
	o, err := c.GetPurchaseOrder(ctx, poNo)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(o.Lines, func(l PurchaseLine) bool { return l.LineNo == line })
	if i < 0 {
		return nil, fmt.Errorf("purchase order %s line %d: %w", o.PONo, line, ErrNoLine)
	}
	l := o.Lines[i]
	if l.UnitsDue.Sign() <= 0 {
		return nil, ErrNothingDue
	}
	req := ReceiveRequest{ItemID: l.ShortID, Units: l.UnitsDue, WID: l.Warehouse, ReasonCode: purchaseReceipt}
	if len(spot) > 0 {
		req.Spot = spot[0]
	}
	return c.ReceiveAgainstLine(ctx, o.PONo, line, req)
}

// purchaseReceipt is the default reason code "Purchase order receipt".
const purchaseReceipt = 1

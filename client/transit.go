package client

import (
	"context"
	"errors"
	"iter"
	"net/url"
	"strconv"

	"github.com/stockroom/stockroom"
)

// Transits are the root package's types, the very ones the server writes
// and reads: stock on its way to a warehouse, a transfer from another
// warehouse or a vendor's advance ship notice.
type (
	Transit               = stockroom.Transit
	TransitLine           = stockroom.TransitLine
	ShipNoticeRequest     = stockroom.ShipNoticeRequest
	ShipNoticeLine        = stockroom.ShipNoticeLine
	TransitReceiveRequest = stockroom.TransitReceiveRequest
	TransitReceiveLine    = stockroom.TransitReceiveLine
	TransitReceiveResult  = stockroom.TransitReceiveResult
)

// ErrNotATransfer is returned by Transfer, without a call, for a move that
// names no other warehouse (ShipToWID) or no TransitSlip: it would not ship
// a transit.
var ErrNotATransfer = errors.New("stockroom: a transfer needs ShipToWID and TransitSlip")

// Transfer ships units from warehouse req.WID to req.ShipToWID in transit
// under req.TransitSlip (a move): they leave the source at once and wait in
// the destination's aSN until ReceiveTransit or CancelTransit. The answer's
// TransitID names the transit. Only the source need be in the client's
// scope. Too few units is an *Error with code "conflict", as for Issue.
func (c *Client) Transfer(ctx context.Context, req MoveRequest) (*DrawResult, error) {
	if !req.IsTransfer() {
		return nil, ErrNotATransfer
	}
	return c.Move(ctx, req)
}

// ShipPurchaseOrder records a vendor's advance ship notice against purchase
// order poNo: the lines' units leave onOrder for the aSN of their warehouse
// as a transit, which it returns.
func (c *Client) ShipPurchaseOrder(ctx context.Context, poNo string, req ShipNoticeRequest) (*Transit, error) {
	var tr Transit
	if _, err := c.do(ctx, call{method: "POST", path: "PurchaseOrder/" + pathSegment(poNo) + "/Ship", body: req}, &tr); err != nil {
		return nil, err
	}
	return &tr, nil
}

// TransitListOptions selects a list of transits.
type TransitListOptions struct {
	ListOptions
	// IncludeEnded lists every transit (GET /Transit/All) instead of those
	// still on their way (GET /Transit).
	IncludeEnded bool
	// WID keeps the transits from or to this warehouse.
	WID int64
	// Status keeps the transits in this state.
	Status stockroom.TransitStatus
	// Owner keeps the transits with a line of this owner (a customerID or
	// ShortID, or &stockroom.OwnerRef{} for the house's own).
	Owner *stockroom.OwnerRef
}

func (o TransitListOptions) path() string {
	if o.IncludeEnded {
		return "Transit/All"
	}
	return "Transit"
}

func (o TransitListOptions) values() url.Values {
	q := o.ListOptions.values()
	if o.WID != 0 {
		q.Set("wid", strconv.FormatInt(o.WID, 10))
	}
	setIf(q, "status", string(o.Status))
	setOwner(q, o.Owner)
	return q
}

// ListTransits returns one page of the transits the client may see (from
// or to a warehouse of its scope), newest shipped first unless sorted
// otherwise.
func (c *Client) ListTransits(ctx context.Context, opts TransitListOptions) (*Page[Transit], error) {
	return getPage[Transit](ctx, c, opts.path(), opts.values())
}

// Transits yields every transit of the list opts selects, page by page.
func (c *Client) Transits(ctx context.Context, opts TransitListOptions) iter.Seq2[Transit, error] {
	return Walk(ctx, opts.ListOptions, func(ctx context.Context, lo ListOptions) (*Page[Transit], error) {
		opts.ListOptions = lo
		return c.ListTransits(ctx, opts)
	})
}

// GetTransit returns one transit with its lines. One the client may not see
// is an *Error with code "not_found", like one that does not exist.
func (c *Client) GetTransit(ctx context.Context, id int64) (*Transit, error) {
	var tr Transit
	if _, err := c.do(ctx, call{method: "GET", path: transitPath(id)}, &tr); err != nil {
		return nil, err
	}
	return &tr, nil
}

// ReceiveTransit receives a transit at its destination: the zero request
// takes everything still due; with Lines, each line's Units (nil: what is
// due less Rejected) go into stock and its Rejected units are written off
// under ReasonCode. More than a line has due is an *Error with code
// "conflict" and changes nothing.
func (c *Client) ReceiveTransit(ctx context.Context, id int64, req TransitReceiveRequest) (*TransitReceiveResult, error) {
	var res TransitReceiveResult
	if _, err := c.do(ctx, call{method: "POST", path: transitPath(id) + "/Receive", body: req}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// CancelTransit ends a transit: what is still due returns to its source
// warehouse (a transfer) or to its purchase order's onOrder (a notice).
func (c *Client) CancelTransit(ctx context.Context, id int64) (*Transit, error) {
	var tr Transit
	if _, err := c.do(ctx, call{method: "POST", path: transitPath(id) + "/Cancel"}, &tr); err != nil {
		return nil, err
	}
	return &tr, nil
}

func transitPath(id int64) string { return "Transit/" + strconv.FormatInt(id, 10) }

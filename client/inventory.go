package client

import (
	"context"
	"iter"
	"net/url"
	"strconv"

	"github.com/stockroom/stockroom"
)

// The requests and answers of the stock calls are the root package's:
// stockroom.ReceiveRequest, IssueRequest and MoveRequest, and
// stockroom.ReceiveResult, DrawResult and HoldResult, the very types the
// server reads and writes. These aliases keep their SDK names.
type (
	ReceiveRequest = stockroom.ReceiveRequest
	IssueRequest   = stockroom.IssueRequest
	MoveRequest    = stockroom.MoveRequest
	ReceiveResult  = stockroom.ReceiveResult
	DrawResult     = stockroom.DrawResult
	HoldResult     = stockroom.HoldResult
)

// LotListOptions selects a list of lots.
type LotListOptions struct {
	ListOptions
	// WID lists the lots of one warehouse (GET /Inventory/{wid}); 0 lists
	// those of every warehouse in the client's scope.
	WID int64
	// ItemID keeps the lots of the item with this ShortID.
	ItemID string
	// Spot keeps the lots in this bin; new("") selects the blank spot.
	Spot *string
	// Serial keeps the lots with this serial number.
	Serial string
	// Hold keeps held lots (true) or lots not on hold (false).
	Hold *bool
	// IncludeShipped adds the lots that have been emptied.
	IncludeShipped bool
	// Owner keeps one owner's lots: a customerID or customer ShortID, or
	// &stockroom.OwnerRef{} for the house's own; nil lists those of every
	// owner the client may see.
	Owner *stockroom.OwnerRef
}

func (o LotListOptions) path() string {
	if o.WID != 0 {
		return "Inventory/" + strconv.FormatInt(o.WID, 10)
	}
	return "Inventory"
}

func (o LotListOptions) values() url.Values {
	q := o.ListOptions.values()
	setIf(q, "itemID", o.ItemID)
	if o.Spot != nil {
		q.Set("spot", *o.Spot)
	}
	setIf(q, "serial", o.Serial)
	if o.Hold != nil {
		q.Set("hold", strconv.FormatBool(*o.Hold))
	}
	if o.IncludeShipped {
		q.Set("includeShipped", "true")
	}
	setOwner(q, o.Owner)
	return q
}

// ListLots returns one page of lots, newest received first unless sorted
// otherwise. Without IncludeShipped only lots still holding units are
// listed.
func (c *Client) ListLots(ctx context.Context, opts LotListOptions) (*Page[stockroom.Lot], error) {
	return getPage[stockroom.Lot](ctx, c, opts.path(), opts.values())
}

// Lots yields every lot of the list opts selects, page by page.
func (c *Client) Lots(ctx context.Context, opts LotListOptions) iter.Seq2[stockroom.Lot, error] {
	return Walk(ctx, opts.ListOptions, func(ctx context.Context, lo ListOptions) (*Page[stockroom.Lot], error) {
		opts.ListOptions = lo
		return c.ListLots(ctx, opts)
	})
}

// StockLevelListOptions selects a list of stock levels.
type StockLevelListOptions struct {
	ListOptions
	// WID gives the levels of one warehouse
	// (GET /Inventory/StockLevels/{wid}); 0 sums them over the warehouses in
	// the client's scope.
	WID int64
	// ItemID keeps the level of the item with this ShortID.
	ItemID string
	// IncludeZero lists every active item, also those with no stock (and
	// discontinued items that still have some); without it only items with a
	// non-zero figure are listed.
	IncludeZero bool
	// Owner gives one owner's levels: a customerID or customer ShortID, or
	// &stockroom.OwnerRef{} for the house's own; nil sums those of every
	// owner the client may see.
	Owner *stockroom.OwnerRef
}

func (o StockLevelListOptions) path() string {
	if o.WID != 0 {
		return "Inventory/StockLevels/" + strconv.FormatInt(o.WID, 10)
	}
	return "Inventory/StockLevels"
}

func (o StockLevelListOptions) values() url.Values {
	q := o.ListOptions.values()
	setIf(q, "itemID", o.ItemID)
	if o.IncludeZero {
		q.Set("includeZero", "true")
	}
	setOwner(q, o.Owner)
	return q
}

// setOwner sets the owner filter (?owner=) of a list when one is given.
func setOwner(q url.Values, owner *stockroom.OwnerRef) {
	switch {
	case owner == nil:
	case owner.ShortID != "":
		q.Set("owner", owner.ShortID)
	default:
		q.Set("owner", strconv.FormatInt(owner.ID, 10))
	}
}

// ListStockLevels returns one page of per-item stock levels, in partNo order
// unless sorted otherwise.
func (c *Client) ListStockLevels(ctx context.Context, opts StockLevelListOptions) (*Page[stockroom.StockLevel], error) {
	return getPage[stockroom.StockLevel](ctx, c, opts.path(), opts.values())
}

// StockLevels yields every stock level of the list opts selects, page by
// page.
func (c *Client) StockLevels(ctx context.Context, opts StockLevelListOptions) iter.Seq2[stockroom.StockLevel, error] {
	return Walk(ctx, opts.ListOptions, func(ctx context.Context, lo ListOptions) (*Page[stockroom.StockLevel], error) {
		opts.ListOptions = lo
		return c.ListStockLevels(ctx, opts)
	})
}

// Receive books stock into a warehouse as a new lot. The call is applied
// once even when it has to be retried (see WithIdempotencyKey). A
// discontinued item is an *Error with code "conflict".
func (c *Client) Receive(ctx context.Context, req ReceiveRequest) (*ReceiveResult, error) {
	var res stockroom.ReceiveResult
	if _, err := c.do(ctx, call{method: "POST", path: "Inventory/Receive", body: req}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Issue takes stock out of a warehouse. Too few units in the matching lots
// is an *Error with code "conflict" whose message names the requested and
// available units; nothing changes then. The call is applied once even when
// it has to be retried.
func (c *Client) Issue(ctx context.Context, req IssueRequest) (*DrawResult, error) {
	var res stockroom.DrawResult
	if _, err := c.do(ctx, call{method: "POST", path: "Inventory/Issue", body: req}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Move relocates stock. Too few units is an *Error with code "conflict", as
// for Issue. The call is applied once even when it has to be retried.
func (c *Client) Move(ctx context.Context, req MoveRequest) (*DrawResult, error) {
	var res stockroom.DrawResult
	if _, err := c.do(ctx, call{method: "POST", path: "Inventory/Move", body: req}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Hold puts a lot on hold: its units count as onHold and are no longer
// available, issued or moved (unless a move names the lot by RecNo).
func (c *Client) Hold(ctx context.Context, recNo int64) (*HoldResult, error) {
	return c.setHold(ctx, "Inventory/Hold", recNo)
}

// Release takes a lot off hold.
func (c *Client) Release(ctx context.Context, recNo int64) (*HoldResult, error) {
	return c.setHold(ctx, "Inventory/Release", recNo)
}

func (c *Client) setHold(ctx context.Context, path string, recNo int64) (*HoldResult, error) {
	var res stockroom.HoldResult
	body := struct {
		RecNo int64 `json:"recno"`
	}{recNo}
	if _, err := c.do(ctx, call{method: "POST", path: path, body: body}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

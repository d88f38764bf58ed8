package client

import (
	"context"
	"iter"
	"net/url"
	"strconv"
	"time"

	"github.com/stockroom/stockroom"
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
	return q
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

// ReceiveRequest is a receipt of stock into a warehouse: a positive
// adjustment that creates one new lot.
type ReceiveRequest struct {
	// ItemID is the ShortID of the item received (required).
	ItemID string `json:"itemID"`
	// Units is the quantity, above 0 (required).
	Units stockroom.Units `json:"units"`
	// WID is the receiving warehouse (required).
	WID int64 `json:"wid"`
	// ReasonCode explains the receipt; it must be a code for receipts (see
	// ReasonCodes). Required.
	ReasonCode int64 `json:"reasonCode"`

	Spot        string          `json:"spot,omitempty"`
	Serial      string          `json:"serial,omitempty"`
	Serial2     string          `json:"serial2,omitempty"`
	RFIDTag     string          `json:"rfidTag,omitempty"`
	Reference   string          `json:"reference,omitempty"`
	Remark      string          `json:"remark,omitempty"`
	NetWeight   stockroom.Units `json:"netWeight,omitzero"`
	GrossWeight stockroom.Units `json:"grossWeight,omitzero"`
	// Price is the unit cost.
	Price    stockroom.Units `json:"price,omitzero"`
	Expires  *time.Time      `json:"expires,omitempty"`
	Supplier int64           `json:"supplier,omitzero"`
	// Line is the purchase order line received against.
	Line  int64 `json:"line,omitzero"`
	JobID int64 `json:"jobid,omitzero"`
}

// ReceiveResult is the answer to a receipt: the ledger transaction and the
// new lot.
type ReceiveResult struct {
	TransactionID int64         `json:"transactionID"`
	Type          string        `json:"type"`
	RecNo         int64         `json:"recNo"`
	Lot           stockroom.Lot `json:"lot"`
}

// Receive books stock into a warehouse as a new lot. The call is applied
// once even when it has to be retried (see WithIdempotencyKey). A
// discontinued item is an *Error with code "conflict".
func (c *Client) Receive(ctx context.Context, req ReceiveRequest) (*ReceiveResult, error) {
	var res ReceiveResult
	if _, err := c.do(ctx, call{method: "POST", path: "Inventory/Receive", body: req}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// IssueRequest takes stock out of a warehouse: a negative adjustment drawn
// from the oldest matching lots first. The lot filters (Spot, Serial,
// Serial2, RFIDTag, RecNo) narrow the lots drawn from; held lots are never
// issued.
type IssueRequest struct {
	ItemID     string          `json:"itemID"`
	Units      stockroom.Units `json:"units"`
	WID        int64           `json:"wid"`
	ReasonCode int64           `json:"reasonCode"`

	Spot      string          `json:"spot,omitempty"`
	Serial    string          `json:"serial,omitempty"`
	Serial2   string          `json:"serial2,omitempty"`
	RFIDTag   string          `json:"rfidTag,omitempty"`
	Reference string          `json:"reference,omitempty"`
	Remark    string          `json:"remark,omitempty"`
	NetWeight stockroom.Units `json:"netWeight,omitzero"`
	// ShipTo is the ship-to customer id.
	ShipTo int64 `json:"shipto,omitzero"`
	// ProdID is the production or assembly id.
	ProdID string `json:"prodID,omitempty"`
	RecNo  int64  `json:"recno,omitzero"`
	Line   int64  `json:"line,omitzero"`
}

// MoveRequest relocates stock to another spot and/or warehouse, drawn from
// the oldest matching lots first. A whole lot moves in place (keeping its
// recNo); part of a lot splits off into a new lot at the destination. Held
// lots move only when named by RecNo.
type MoveRequest struct {
	ItemID string          `json:"itemID"`
	Units  stockroom.Units `json:"units"`
	// WID is the warehouse the stock is in.
	WID int64 `json:"wid"`
	// FromSpot keeps the lots in this bin.
	FromSpot string `json:"fromSpot,omitempty"`
	// ToSpot is the destination bin; new("") is the blank spot. ToSpot,
	// ShipToWID or both are required.
	ToSpot *string `json:"toSpot,omitempty"`
	// ShipToWID is the destination warehouse of an inter-warehouse move; both
	// warehouses must be in the client's scope.
	ShipToWID   int64  `json:"shipToWid,omitzero"`
	TransitSlip string `json:"transitSlip,omitempty"`
	Serial      string `json:"serial,omitempty"`
	Serial2     string `json:"serial2,omitempty"`
	RFIDTag     string `json:"rfidTag,omitempty"`
	Reference   string `json:"reference,omitempty"`
	RecNo       int64  `json:"recno,omitzero"`
	// Received keeps the lots received on this UTC day (its time of day is
	// ignored).
	Received *time.Time `json:"received,omitempty"`
}

// DrawResult is the answer to an issue or a move: the ledger transaction and
// how much each lot gave.
type DrawResult struct {
	TransactionID int64  `json:"transactionID"`
	Type          string `json:"type"`
	ItemID        string `json:"itemID"`
	WID           int64  `json:"wid"`
	// ToWID and ToSpot are the destination of a move; zero for an issue.
	ToWID  int64           `json:"toWid"`
	ToSpot string          `json:"toSpot"`
	Units  stockroom.Units `json:"units"`
	// Lines are the lots drawn from, in draw order. For a move, NewRecNo is
	// the lot split off at the destination, 0 when the whole lot moved.
	Lines []stockroom.Draw `json:"lines"`
}

// Issue takes stock out of a warehouse. Too few units in the matching lots
// is an *Error with code "conflict" whose message names the requested and
// available units; nothing changes then. The call is applied once even when
// it has to be retried.
func (c *Client) Issue(ctx context.Context, req IssueRequest) (*DrawResult, error) {
	var res DrawResult
	if _, err := c.do(ctx, call{method: "POST", path: "Inventory/Issue", body: req}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Move relocates stock. Too few units is an *Error with code "conflict", as
// for Issue. The call is applied once even when it has to be retried.
func (c *Client) Move(ctx context.Context, req MoveRequest) (*DrawResult, error) {
	var res DrawResult
	if _, err := c.do(ctx, call{method: "POST", path: "Inventory/Move", body: req}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// HoldResult is the answer to Hold and Release: the lot as it is now.
type HoldResult struct {
	// TransactionID is the ledger entry of the change; 0 when the lot already
	// was in the asked state and nothing changed.
	TransactionID int64         `json:"transactionID"`
	Type          string        `json:"type"`
	RecNo         int64         `json:"recNo"`
	Lot           stockroom.Lot `json:"lot"`
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
	var res HoldResult
	body := struct {
		RecNo int64 `json:"recno"`
	}{recNo}
	if _, err := c.do(ctx, call{method: "POST", path: path, body: body}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

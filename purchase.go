package stockroom

import "time"

// OrderStatus is the state of a purchase, shipping or work order.
type OrderStatus string

// The states of an order. An order is open until Closed or Canceled.
const (
	OrderOpen       OrderStatus = "Open"
	OrderPartial    OrderStatus = "Partial"
	OrderInProgress OrderStatus = "In Progress" // work orders
	OrderClosed     OrderStatus = "Closed"
	OrderCanceled   OrderStatus = "Canceled"
)

// IsOpen reports whether an order in this state still counts what is due.
func (s OrderStatus) IsOpen() bool { return s != OrderClosed && s != OrderCanceled }

// Limits of orders.
const (
	MaxOrderNoLen   = 50
	MaxOrderLines   = 1000
	MaxOrderPerPage = 50 // the largest pageSize of an order list
)

// PurchaseOrder is an order of stock from a vendor, with its lines when read
// one at a time (a list leaves them out).
type PurchaseOrder struct {
	// ID is the order's key in the store; not part of the API.
	ID       int64  `json:"-"`
	PONo     string `json:"poNo"`
	Vendor   string `json:"vendor"` // the vendor's name
	VendorID int64  `json:"vendorID"`
	// OrderDate is when the order was placed (default: its creation).
	OrderDate    time.Time   `json:"orderDate"`
	ExpectedDate *time.Time  `json:"expectedDate"`
	Status       OrderStatus `json:"status"`
	TotalLines   int64       `json:"totalLines"`
	// TotalValue is the sum of the lines' units times their unitPrice.
	TotalValue Units          `json:"totalValue"`
	Reference  string         `json:"reference"`
	Remark     string         `json:"remark"`
	Created    time.Time      `json:"created"`
	Modified   time.Time      `json:"modified"`
	Lines      []PurchaseLine `json:"lines,omitempty"`
}

// PurchaseLine is one item ordered for one warehouse and owner.
type PurchaseLine struct {
	LineNo        int64  `json:"lineNo"`
	PartNo        int64  `json:"partNo"`
	ShortID       string `json:"shortID"`
	Description   string `json:"description"`
	Units         Units  `json:"units"`
	UnitsReceived Units  `json:"unitsReceived"`
	// UnitsInTransit are on their way under the vendor's open advance ship
	// notices.
	UnitsInTransit Units `json:"unitsInTransit"`
	// UnitsRejected arrived under a notice and were refused; they count
	// against the line as delivered.
	UnitsRejected Units `json:"unitsRejected"`
	// UnitsDue is what the line adds to onOrder: units less received, in
	// transit and rejected, never below 0, and 0 once the order has ended.
	UnitsDue      Units  `json:"unitsDue"`
	UnitPrice     Units  `json:"unitPrice"`
	Warehouse     int64  `json:"warehouse"`
	WarehouseName string `json:"warehouseName"`
	Owner         int64  `json:"owner"`
}

// Due returns what is still due on a line of an order in the given state.
func (l PurchaseLine) Due(s OrderStatus) Units {
	d := l.Units.Sub(l.UnitsReceived).Sub(l.UnitsInTransit).Sub(l.UnitsRejected)
	if !s.IsOpen() || d.Sign() < 0 {
		return Units{}
	}
	return d
}

// Delivered reports whether every unit of the line has arrived (received
// or rejected).
func (l PurchaseLine) Delivered() bool {
	return !l.UnitsReceived.Add(l.UnitsRejected).Less(l.Units)
}

// OrderFilter narrows an order list (purchase, shipping or work orders).
type OrderFilter struct {
	// OpenOnly keeps orders not Closed or Canceled (GET /X; /X/All: false).
	OpenOnly bool
	Status   OrderStatus // "": any
	// ItemShortID, WID and Owner keep orders with a line of that item, for
	// that warehouse, of that owner.
	ItemShortID string
	WID         int64
	Owner       *OwnerRef
	// StartDate and EndDate bound the order date (for work orders EndDate
	// bounds the due date), both inclusive.
	StartDate, EndDate *time.Time
	// Owners narrows to orders with a line of these owners; nil: every owner.
	Owners *Scope
}

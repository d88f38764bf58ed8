package stockroom

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Orders of every kind (purchase, shipping and, later, work orders) share
// their rules where the kinds agree: numbering, the header's dates and
// texts, lines of one item for one warehouse and owner, what a client sees
// of them, and how a change adds and changes lines. A kind adds its own
// figures to its lines (what arrived, what is committed) and its own words
// for the number, the party and the date due. This file and orderreq.go,
// orderchange.go are that shared part; purchase*.go and shipping*.go the
// kinds.

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

// orderWords are what a kind of order (allocation.go) calls its parts in
// the API beyond its Noun and NoField.
type orderWords struct {
	path   string    // its resource: "PurchaseOrder"
	due    string    // its date due: "expectedDate"
	prefix string    // of the numbers assigned: "PO-"
	party  PartyKind // whom it is with
	priced bool      // whether its lines have a unitPrice
}

var kindWords = map[OrderKind]orderWords{
	OrderKindPurchase: {path: "PurchaseOrder", due: "expectedDate", prefix: "PO-", party: Vendor, priced: true},
	OrderKindShipping: {path: "ShippingOrder", due: "shipDate", prefix: "SO-", party: Customer},
	OrderKindWork:     {path: "WorkOrder", due: "dueDate", prefix: "WO-"},
}

// Name is the kind's name inside a sentence: "shipping order".
func (k OrderKind) Name() string { return strings.ToLower(k.Noun()) }

// Path is the kind's resource in the API: "ShippingOrder".
func (k OrderKind) Path() string { return kindWords[k].path }

// Priced reports whether the kind's lines have a unitPrice.
func (k OrderKind) Priced() bool { return kindWords[k].priced }

// DueField is the name of the kind's date due in the API: "shipDate".
func (k OrderKind) DueField() string { return kindWords[k].due }

// Party is the kind of party an order of the kind is with.
func (k OrderKind) Party() PartyKind { return kindWords[k].party }

// Number is the n-th number assigned to an order of the kind given none:
// SO-000001 and so on.
func (k OrderKind) Number(n int64) string { return fmt.Sprintf("%s%06d", kindWords[k].prefix, n) }

// OrderHead is the part of an order's header every kind shows under the
// same names.
type OrderHead struct {
	// ID is the order's key in the store; not part of the API.
	ID int64 `json:"-"`
	// OrderDate is when the order was placed (default: its creation).
	OrderDate time.Time   `json:"orderDate"`
	Status    OrderStatus `json:"status"`
	// TotalLines counts the order's lines (those the client sees; in
	// lists, of the owner asked for).
	TotalLines int64     `json:"totalLines"`
	Reference  string    `json:"reference"` // up to 100 characters
	Remark     string    `json:"remark"`    // up to 500 characters
	Created    time.Time `json:"created"`
	// Modified is the last change of the order or its lines; it moves
	// forward only.
	Modified time.Time `json:"modified"`
}

// OrderHeader points at an order's header, whatever its kind calls the
// fields that are its own: the rules and the store every kind shares read
// and write a header through it.
type OrderHeader struct {
	Kind OrderKind
	*OrderHead
	No      *string
	Party   *string // the vendor's or customer's name
	PartyID *int64
	DueDate **time.Time // expectedDate, shipDate
}

// OrderLine is what a line of every kind of order has: units of one item
// for one warehouse and owner. A line's item, warehouse and owner never
// change.
type OrderLine struct {
	LineNo        int64  `json:"lineNo"`
	PartNo        int64  `json:"partNo"`
	ShortID       string `json:"shortID"`
	Description   string `json:"description"`
	Units         Units  `json:"units"`
	Warehouse     int64  `json:"warehouse"`
	WarehouseName string `json:"warehouseName"`
	// Owner is whose stock the units are (a customerID; 0 for the house).
	Owner int64 `json:"owner"`
}

// Line returns the part of a line every kind shares, to read or change.
func (l *OrderLine) Line() *OrderLine { return l }

// AnyOrder is an order of any kind (*PurchaseOrder, *ShippingOrder) as the
// rules every kind shares see it. Only this package's order types have it.
type AnyOrder interface {
	Header() OrderHeader
	// OrderLines points at each line's shared part, in line order.
	OrderLines() []*OrderLine
	// Summarize sets what the order shows of its lines (its totals).
	Summarize()
	// addLine appends the line a new line of a change makes and points at
	// its shared part.
	addLine(lc OrderLineChange) *OrderLine
	// changeLine changes line i as lc asks (lc.change, then the kind's own
	// fields).
	changeLine(i int, lc OrderLineChange, v *Validation, at string) (changed bool, conflict string)
	// checkChange adds to v what the kind refuses of the order as changed.
	checkChange(v *Validation)
}

// lineOf is a kind's line type, whose shared part Line returns.
type lineOf[L any] interface {
	*L
	Line() *OrderLine
}

// linesOf points at the shared part of each of lines.
func linesOf[L any, P lineOf[L]](lines []L) []*OrderLine {
	out := make([]*OrderLine, len(lines))
	for i := range lines {
		out[i] = P(&lines[i]).Line()
	}
	return out
}

// seenLines returns the lines in the warehouses of scope and of owners
// (nil: any owner): those a client sees.
func seenLines[L any, P lineOf[L]](lines []L, scope Scope, owners *Scope) []L {
	seen := make([]L, 0, len(lines))
	for i := range lines {
		l := P(&lines[i]).Line()
		if scope.Contains(l.Warehouse) && (owners == nil || owners.Contains(l.Owner)) {
			seen = append(seen, lines[i])
		}
	}
	return seen
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

// OrderLineRefusal is a store's refusal of an order line that names a
// discontinued item (Err is ErrDiscontinued), an inactive warehouse
// (ErrWarehouseInactive) or an inactive customer as its owner
// (ErrOwnerInactive). Name is the item's ShortID, the wid or the
// customerID.
type OrderLineRefusal struct {
	Line int64
	Name string
	// ID is the id of what was refused (the warehouse, the customer), for
	// a refusal that names the command that would set it right.
	ID  int64
	Err error
}

func (e *OrderLineRefusal) Error() string {
	return "line " + strconv.FormatInt(e.Line, 10) + " (" + e.Name + "): " + e.Err.Error()
}

func (e *OrderLineRefusal) Unwrap() error { return e.Err }

package stockroom

import "time"

// PurchaseOrder is an order of stock from a vendor, with its lines when read
// one at a time (a list leaves them out).
type PurchaseOrder struct {
	PONo     string `json:"poNo"`
	Vendor   string `json:"vendor"` // the vendor's name
	VendorID int64  `json:"vendorID"`
	OrderHead
	ExpectedDate *time.Time `json:"expectedDate"`
	// TotalValue is the sum of the lines' units times their unitPrice.
	TotalValue Units          `json:"totalValue"`
	Lines      []PurchaseLine `json:"lines,omitempty"`
}

// PurchaseLine is one item ordered for one warehouse and owner.
type PurchaseLine struct {
	OrderLine
	UnitsReceived Units `json:"unitsReceived"`
	// UnitsInTransit are on their way under the vendor's open advance ship
	// notices.
	UnitsInTransit Units `json:"unitsInTransit"`
	// UnitsRejected arrived under a notice and were refused; they count
	// against the line as delivered.
	UnitsRejected Units `json:"unitsRejected"`
	// UnitsDue is what the line adds to onOrder: units less received, in
	// transit and rejected, never below 0, and 0 once the order has ended.
	UnitsDue  Units `json:"unitsDue"`
	UnitPrice Units `json:"unitPrice"`
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

// Header points at the order's header fields (see OrderHeader).
func (o *PurchaseOrder) Header() OrderHeader {
	return OrderHeader{Kind: OrderKindPurchase, OrderHead: &o.OrderHead, No: &o.PONo, Party: &o.Vendor, PartyID: &o.VendorID, DueDate: &o.ExpectedDate}
}

// OrderLines points at the shared part of each line.
func (o *PurchaseOrder) OrderLines() []*OrderLine { return linesOf(o.Lines) }

package stockroom

import "time"

// ShippingOrder is an order of stock to a customer (contract §11), with its
// lines when read one at a time (a list leaves them out). Placing or
// changing one moves no figure: its lines' units count in committed and
// packed only as they are committed (allocated to lots) and packed.
type ShippingOrder struct {
	SONo       string `json:"soNo"`
	Customer   string `json:"customer"` // the customer's name
	CustomerID int64  `json:"customerID"`
	OrderHead
	ShipDate *time.Time     `json:"shipDate"` // when it is to ship, if known
	Lines    []ShippingLine `json:"lines,omitempty"`
}

// ShippingLine is units of one item to ship from one warehouse, of one
// owner's stock, with what of them is committed (allocated to lots, not
// packed), packed (not shipped) and shipped.
type ShippingLine struct {
	OrderLine
	UnitsCommitted Units `json:"unitsCommitted"`
	UnitsPacked    Units `json:"unitsPacked"`
	UnitsShipped   Units `json:"unitsShipped"`
}

// Taken is what of the line's units is committed, packed or shipped: its
// units may not be cut below it.
func (l ShippingLine) Taken() Units { return l.UnitsCommitted.Add(l.UnitsPacked).Add(l.UnitsShipped) }

// Header points at the order's header fields (see OrderHeader).
func (o *ShippingOrder) Header() OrderHeader {
	return OrderHeader{Kind: OrderKindShipping, OrderHead: &o.OrderHead, No: &o.SONo, Party: &o.Customer, PartyID: &o.CustomerID, DueDate: &o.ShipDate}
}

// OrderLines points at the shared part of each line.
func (o *ShippingOrder) OrderLines() []*OrderLine { return linesOf(o.Lines) }

// Summarize sets what an order shows of its lines: TotalLines.
func (o *ShippingOrder) Summarize() { o.TotalLines = int64(len(o.Lines)) }

// Seen returns the order as a client sees it: only its lines in the
// warehouses of scope and of owners (nil: any owner), summarized. ok is
// false when it has none there: the client does not see the order at all.
func (o ShippingOrder) Seen(scope Scope, owners *Scope) (seen ShippingOrder, ok bool) {
	o.Lines = seenLines(o.Lines, scope, owners)
	o.Summarize()
	return o, len(o.Lines) > 0
}

// ShippingOrderRequest is a shipping order as clients send it (the SDK
// too), by the rules of a PurchaseOrderRequest: POST /ShippingOrder places
// one (SONo optional: SO-000001 and so on), PUT /ShippingOrder changes the
// one SONo names, and what a PUT leaves out (nil) stays as it is.
type ShippingOrderRequest struct {
	// The order's fields the server writes, which a PUT of the whole order
	// as read may carry: neither read nor unknown.
	_    struct{} `readonly:"customer,status,totalLines,created,modified"`
	SONo string   `json:"soNo,omitempty"`
	// CustomerID (a customerID or ShortID) is whom the order ships to: an
	// active customer, required when placing, never changed.
	CustomerID *OwnerRef `json:"customerID,omitempty"`
	// Owner, when given, is whose stock a new line of the request ships
	// if it names no owner itself, before the client's own owner (when it
	// is limited to exactly one) and the item's dfltOwner. The order
	// does not keep it.
	Owner *OwnerRef `json:"owner,omitempty"`
	// OrderDate defaults to now; ShipDate is when the order is to ship.
	OrderDate *time.Time `json:"orderDate,omitempty"`
	ShipDate  *time.Time `json:"shipDate,omitempty"`
	Reference *string    `json:"reference,omitempty"`
	Remark    *string    `json:"remark,omitempty"`
	// Lines: a line's UnitPrice is ignored.
	Lines []ShippingLineRequest `json:"lines,omitempty" readonly:"partNo,shortID,description,warehouseName,unitsCommitted,unitsPacked,unitsShipped" ignore:"unitPrice"`
}

// ShippingLineRequest is one line of a ShippingOrderRequest.
type ShippingLineRequest = OrderLineRequest

// Validate checks the fields of a new order (create) or of a change,
// reporting every failing field at once; lines' fields are named
// "lines[i].units" and so on. It trims SONo and the lines' ItemIDs.
func (r *ShippingOrderRequest) Validate(v *Validation, create bool) {
	r.Form().validate(v, create)
}

// Form points at the request's fields (see OrderForm).
func (r *ShippingOrderRequest) Form() OrderForm {
	return OrderForm{Kind: OrderKindShipping, No: &r.SONo, Party: &r.CustomerID, Owner: &r.Owner, OrderDate: &r.OrderDate, DueDate: &r.ShipDate,
		Reference: &r.Reference, Remark: &r.Remark, Lines: &r.Lines}
}

// ShippingOrderChange is a validated PUT /ShippingOrder (or a new order's
// fields and lines), its references resolved by the service.
type ShippingOrderChange OrderChange

// Apply changes an open order as asked and reports whether anything
// changed (see OrderChange.Apply): a line's units may not be cut below
// what is committed, packed or shipped of them.
func (c ShippingOrderChange) Apply(o *ShippingOrder) (bool, error) { return OrderChange(c).Apply(o) }

func (o *ShippingOrder) addLine(lc OrderLineChange) *OrderLine {
	o.Lines = append(o.Lines, ShippingLine{OrderLine: lc.NewLine()})
	return &o.Lines[len(o.Lines)-1].OrderLine
}

func (o *ShippingOrder) changeLine(i int, lc OrderLineChange, v *Validation, at string) (bool, string) {
	l := &o.Lines[i]
	return lc.change(v, at, &l.OrderLine, l.Taken(), "are committed, packed or shipped")
}

func (o *ShippingOrder) checkChange(*Validation) {}

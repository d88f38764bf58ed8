package stockroom

import (
	"errors"
	"math/big"
	"time"
)

// PurchaseOrderRequest is a purchase order as clients send it (the SDK too):
// a new order (POST /PurchaseOrder) or a change to one (PUT /PurchaseOrder,
// which names the order by PONo). On a change, fields left out (nil) stay
// as they are.
type PurchaseOrderRequest struct {
	// The order's fields the server writes, which a PUT of the whole order
	// as read may carry: neither read nor unknown.
	_ struct{} `readonly:"vendor,status,totalLines,totalValue,created,modified"`
	// PONo is the order's number: on a new order optional (PO-000001 and
	// so on is assigned when absent), on a change required. At most 50
	// characters, unique without regard to letter case.
	PONo string `json:"poNo,omitempty"`
	// VendorID is the vendor, a vendorID or a vendor's ShortID; required on
	// a new order, and it never changes.
	VendorID *OwnerRef `json:"vendorID,omitempty"`
	// OrderDate is when the order was placed; a new order's defaults to now.
	OrderDate    *time.Time `json:"orderDate,omitempty"`
	ExpectedDate *time.Time `json:"expectedDate,omitempty"`
	Reference    *string    `json:"reference,omitempty"`
	Remark       *string    `json:"remark,omitempty"`
	// Lines are a new order's lines (1 to MaxOrderLines, numbered 1, 2, ...
	// in the order given), or a change's: a line with LineNo changes that
	// line, one without is added.
	Lines []PurchaseLineRequest `json:"lines,omitempty" readonly:"partNo,shortID,description,warehouseName,unitsReceived,unitsInTransit,unitsRejected,unitsDue"`
}

// PurchaseLineRequest is one line of a PurchaseOrderRequest.
type PurchaseLineRequest = OrderLineRequest

// Validate checks the fields of a new order (create) or of a change,
// reporting every failing field at once; lines' fields are named
// "lines[i].units" and so on. It trims PONo and the lines' ItemIDs.
func (r *PurchaseOrderRequest) Validate(v *Validation, create bool) {
	r.Form().validate(v, create)
	var value orderValue
	for _, l := range r.Lines {
		if l.Units != nil && l.UnitPrice != nil {
			value.add(*l.Units, *l.UnitPrice)
		}
	}
	if _, ok := value.total(); !ok && !v.Has("lines") {
		v.Add("lines", "are worth more than "+MaxFigure().String()+" (units × unitPrice summed)")
	}
}

// Form points at the request's fields (see OrderForm).
func (r *PurchaseOrderRequest) Form() OrderForm {
	return OrderForm{Kind: OrderKindPurchase, No: &r.PONo, Party: &r.VendorID, OrderDate: &r.OrderDate, DueDate: &r.ExpectedDate,
		Reference: &r.Reference, Remark: &r.Remark, Lines: &r.Lines}
}

// orderValue sums units × unitPrice exactly (a product of two quantities
// has 12 decimals and may pass what an int64 holds).
type orderValue struct{ sum big.Int }

func (s *orderValue) add(units, price Units) {
	var p big.Int
	s.sum.Add(&s.sum, p.Mul(big.NewInt(units.micros), big.NewInt(price.micros)))
}

// total returns the sum rounded to the millionth, half away from zero, and
// whether it is within MaxFigure (when not, the total is MaxFigure).
func (s *orderValue) total() (Units, bool) {
	scale := big.NewInt(UnitScale)
	q, r := new(big.Int).QuoRem(&s.sum, scale, new(big.Int))
	if new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2)).Cmp(scale) >= 0 {
		q.Add(q, big.NewInt(int64(s.sum.Sign())))
	}
	if !q.IsInt64() || !(Units{q.Int64()}).IsFigure() {
		return MaxFigure(), false
	}
	return Units{q.Int64()}, true
}

// Summarize sets what an order shows of its lines: each line's UnitsDue,
// and the order's TotalLines and TotalValue (units × unitPrice summed).
func (o *PurchaseOrder) Summarize() {
	var value orderValue
	for i := range o.Lines {
		l := &o.Lines[i]
		l.UnitsDue = l.Due(o.Status)
		value.add(l.Units, l.UnitPrice)
	}
	o.TotalLines = int64(len(o.Lines))
	o.TotalValue, _ = value.total()
}

// Seen returns the order as a client sees it: only its lines in the
// warehouses of scope and of owners (nil: any owner), summarized. ok is
// false when it has none there: the client does not see the order at all.
func (o PurchaseOrder) Seen(scope Scope, owners *Scope) (seen PurchaseOrder, ok bool) {
	o.Lines = seenLines(o.Lines, scope, owners)
	o.Summarize()
	return o, len(o.Lines) > 0
}

// ErrOrderEnded is a store's refusal of a receipt against a line of a
// purchase order that is closed or canceled.
var ErrOrderEnded = errors.New("the purchase order has ended")

// ReceiptOrder is the purchase order line a receipt is against, named by
// the order's number. The store locks and changes the line in the receipt's
// transaction and refuses the receipt with ErrOrderLineMismatch when the
// order has no such line or the line is not of the receipt's item,
// warehouse and owner. A receipt without a price or a supplier takes the
// line's unit price and the order's vendor, read in the same transaction.
type ReceiptOrder struct {
	PONo string
	Line int64
	// OnOrder is the change to onOrder the receipt is expected to make: the
	// store applies it with the receipt's other level changes, then corrects
	// it in the same transaction when the line, locked, says otherwise (less
	// was due, or a concurrent change).
	OnOrder Units
}

// ErrOrderLineMismatch is a store's refusal of a receipt whose order line
// is missing or is not of the receipt's item, warehouse and owner: the
// service judges the receipt against the line it reads, and asks again.
var ErrOrderLineMismatch = errors.New("the purchase order line is not the receipt's")

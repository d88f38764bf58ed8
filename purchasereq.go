package stockroom

import (
	"errors"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// PurchaseOrderRequest is a purchase order as clients send it (the SDK too):
// a new order (POST /PurchaseOrder) or a change to one (PUT /PurchaseOrder,
// which names the order by PONo). On a change, fields left out (nil) stay
// as they are.
type PurchaseOrderRequest struct {
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
	Lines []PurchaseLineRequest `json:"lines,omitempty"`
}

// PurchaseLineRequest is one line of a PurchaseOrderRequest.
type PurchaseLineRequest struct {
	// LineNo names the line a change is to; 0 for a new line (a new
	// order's lines are numbered in the order given).
	LineNo int64 `json:"lineNo,omitzero"`
	// ItemID is the ShortID of the item ordered: required for a new line;
	// on a change, when given, it must be the line's (a line's item,
	// warehouse and owner never change).
	ItemID string `json:"itemID,omitempty"`
	// Units ordered, above 0: required for a new line. A change may not
	// take it below what has arrived or is on its way.
	Units *Units `json:"units,omitempty"`
	// UnitPrice is the price per unit, 0 or more (default 0); receipts
	// against the line take it as their price when they give none.
	UnitPrice *Units `json:"unitPrice,omitempty"`
	// Warehouse is the wid the units are for: required for a new line.
	Warehouse int64 `json:"warehouse,omitzero"`
	// Owner is whose stock the units will be, a customerID or customer
	// ShortID (0: the house); a new line's default is the item's
	// dfltOwner.
	Owner *OwnerRef `json:"owner,omitempty"`
}

// LineField is the prefix of the field names of a request's line i
// ("lines[0].") in validation details.
func LineField(i int) string { return "lines[" + strconv.Itoa(i) + "]." }

// Validate checks the fields of a new order (create) or of a change,
// reporting every failing field at once; lines' fields are named
// "lines[i].units" and so on. It trims PONo and the lines' ItemIDs.
func (r *PurchaseOrderRequest) Validate(v *Validation, create bool) {
	r.PONo = strings.TrimSpace(r.PONo)
	switch {
	case v.Has("poNo"):
	case r.PONo == "" && !create:
		v.Add("poNo", "is required")
	case strings.EqualFold(r.PONo, "All"):
		v.Add("poNo", "is reserved: GET /PurchaseOrder/All lists every order")
	default:
		checkText(v, "poNo", &r.PONo, MaxOrderNoLen)
	}
	if create && r.VendorID == nil && !v.Has("vendorID") {
		v.Add("vendorID", "is required: a vendorID or vendor ShortID (see GET /Vendor)")
	}
	checkText(v, "reference", r.Reference, MaxReferenceLen)
	checkText(v, "remark", r.Remark, MaxRemarkLen)
	checkLineCount(v, len(r.Lines), create)
	named := map[int64]bool{}
	var value orderValue
	for i := range r.Lines {
		l := &r.Lines[i]
		l.validate(v, LineField(i), create, named)
		if l.Units != nil && l.UnitPrice != nil {
			value.add(*l.Units, *l.UnitPrice)
		}
	}
	if _, ok := value.total(); !ok && !v.Has("lines") {
		v.Add("lines", "are worth more than "+MaxFigure().String()+" (units × unitPrice summed)")
	}
}

// validate checks one line: a new one (create, or a change's line without
// LineNo) or a change to line LineNo, which none of the request's other
// lines may name.
func (l *PurchaseLineRequest) validate(v *Validation, at string, create bool, named map[int64]bool) {
	l.ItemID = strings.TrimSpace(l.ItemID)
	if create || l.LineNo == 0 {
		ValidateKey(v, at+"itemID", l.ItemID)
		if l.Units == nil && !v.Has(at+"units") {
			v.Add(at+"units", "is required")
		}
		if !v.Has(at + "wid") { // the same field, refused under the name given
			checkID(v, at+"warehouse", l.Warehouse, true)
		}
	} else {
		checkID(v, at+"lineNo", l.LineNo, false)
		if named[l.LineNo] && !v.Has(at+"lineNo") {
			v.Add(at+"lineNo", "names a line an earlier line of the request names")
		}
		named[l.LineNo] = true
		if l.ItemID != "" {
			ValidateKey(v, at+"itemID", l.ItemID)
		}
		checkID(v, at+"warehouse", l.Warehouse, false)
	}
	if l.Units != nil {
		checkQuantity(v, at+"units", *l.Units)
	}
	if l.UnitPrice != nil {
		checkNonNegative(v, at+"unitPrice", *l.UnitPrice)
	}
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
	lines := make([]PurchaseLine, 0, len(o.Lines))
	for _, l := range o.Lines {
		if scope.Contains(l.Warehouse) && (owners == nil || owners.Contains(l.Owner)) {
			lines = append(lines, l)
		}
	}
	o.Lines = lines
	o.Summarize()
	return o, len(lines) > 0
}

// ErrOrderEnded is a store's refusal of a receipt against a line of a
// purchase order that is closed or canceled.
var ErrOrderEnded = errors.New("the purchase order has ended")

// OrderLineRefusal is a store's refusal of an order line that names a
// discontinued item (Err is ErrDiscontinued), an inactive warehouse
// (ErrWarehouseInactive) or an inactive customer as its owner
// (ErrOwnerInactive). Name is the item's ShortID, the wid or the
// customerID.
type OrderLineRefusal struct {
	Line int64
	Name string
	Err  error
}

func (e *OrderLineRefusal) Error() string {
	return "line " + strconv.FormatInt(e.Line, 10) + " (" + e.Name + "): " + e.Err.Error()
}

func (e *OrderLineRefusal) Unwrap() error { return e.Err }

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

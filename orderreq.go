package stockroom

import (
	"strconv"
	"strings"
	"time"
)

// OrderLineRequest is one line of an order as clients send it (the SDK
// too), for a purchase or a shipping order: a new line, or on a change
// (PUT) a change to line LineNo.
type OrderLineRequest struct {
	// LineNo names the line a change is to; 0 for a new line (a new
	// order's lines are numbered in the order given).
	LineNo int64 `json:"lineNo,omitzero"`
	// ItemID is the ShortID of the item: required for a new line; on a
	// change, when given, it must be the line's (a line's item, warehouse
	// and owner never change).
	ItemID string `json:"itemID,omitempty"`
	// Units, above 0: required for a new line. A change may not take it
	// below what the line has taken already (a purchase line: arrived or on
	// its way; a shipping line: committed, packed or shipped).
	Units *Units `json:"units,omitempty"`
	// UnitPrice is a purchase line's price per unit, 0 or more (default 0);
	// receipts against the line take it as their price when they give
	// none. Shipping orders have no price: the server ignores it there.
	UnitPrice *Units `json:"unitPrice,omitempty"`
	// Warehouse is the wid the units are for (purchase) or from
	// (shipping): required for a new line. It is also read as wid.
	Warehouse int64 `json:"warehouse,omitzero" alias:"wid"`
	// Owner is whose stock the units are, a customerID or customer ShortID
	// (0: the house); a new line's default is the client's own owner when
	// it is limited to exactly one, else the item's dfltOwner (on a
	// shipping order, the order's owner first).
	Owner *OwnerRef `json:"owner,omitempty"`
}

// LineField is the prefix of the field names of a request's line i
// ("lines[0].") in validation details.
func LineField(i int) string { return "lines[" + strconv.Itoa(i) + "]." }

// OrderForm points at the fields of an order request of any kind, under
// whatever names the kind gives them: the validation every kind shares,
// the HTTP layer's reading of a body and the service read and write a
// request through it.
type OrderForm struct {
	Kind      OrderKind
	No        *string
	Party     **OwnerRef
	Owner     **OwnerRef // the default owner of new lines; nil: the kind has none
	OrderDate **time.Time
	DueDate   **time.Time
	Reference **string
	Remark    **string
	Lines     *[]OrderLineRequest
}

// validate checks the fields of a new order (create) or of a change,
// reporting every failing field at once; lines' fields are named
// "lines[i].units" and so on. It trims the number and the lines' ItemIDs.
func (f OrderForm) validate(v *Validation, create bool) {
	validateOrderNo(v, f.Kind, f.No, create)
	party := f.Kind.Party()
	if create && *f.Party == nil && !v.Has(party.IDField()) {
		v.Add(party.IDField(), "is required: a "+party.IDField()+" or "+string(party)+" ShortID (see GET /"+party.Path()+")")
	}
	checkText(v, "reference", *f.Reference, MaxReferenceLen)
	checkText(v, "remark", *f.Remark, MaxRemarkLen)
	checkLineCount(v, len(*f.Lines), create)
	named := map[int64]bool{}
	for i := range *f.Lines {
		(*f.Lines)[i].validate(v, LineField(i), create, named)
	}
}

// validateOrderNo checks and trims an order's number of a kind: optional
// when placing one (create), not "All".
func validateOrderNo(v *Validation, kind OrderKind, no *string, create bool) {
	*no = strings.TrimSpace(*no)
	field := kind.NoField()
	switch {
	case v.Has(field):
	case *no == "" && !create:
		v.Add(field, "is required")
	case strings.EqualFold(*no, "All"):
		v.Add(field, "is reserved: GET /"+kind.Path()+"/All lists every order")
	default:
		checkText(v, field, no, MaxOrderNoLen)
	}
}

// validate checks one line: a new one (create, or a change's line without
// LineNo) or a change to line LineNo, which none of the request's other
// lines may name.
func (l *OrderLineRequest) validate(v *Validation, at string, create bool, named map[int64]bool) {
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

// IsNew reports whether the line is a new one: every line of a new order
// (create), a change's lines without LineNo.
func (l OrderLineRequest) IsNew(create bool) bool { return create || l.LineNo == 0 }

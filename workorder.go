package stockroom

import (
	"math/big"
	"strings"
	"time"
)

// WorkOrder is an order to build units of a product from components
// (contract §11), with its components as lines when read one at a time (a
// list leaves them out). A component line's units are its perUnit times
// the order's units; its unitsCompleted are the units consumed. Placing
// one moves no figure: components count in committed as they are
// committed, and completing consumes them and receives the product.
type WorkOrder struct {
	WONo string `json:"woNo"`
	// ItemID is the product's ShortID, PartNo its partNo.
	ItemID string `json:"itemID"`
	PartNo int64  `json:"partNo"`
	// Units is how many products to build; UnitsCompleted how many are.
	Units          Units  `json:"units"`
	UnitsCompleted Units  `json:"unitsCompleted"`
	WID            int64  `json:"wid"`
	Spot           string `json:"spot"` // where the products are put
	// Owner is whose stock the components and the products are (0: the
	// house).
	Owner       int64  `json:"owner"`
	Description string `json:"description"`
	OrderHead
	StartDate *time.Time `json:"startDate"`
	DueDate   *time.Time `json:"dueDate"`
	Assignee  string     `json:"assignee"`
	Lines     []WorkLine `json:"lines,omitempty"`
	party     string     // a work order is with no party
	partyID   int64
}

// WorkLine is a component of a work order: PerUnit units of one item per
// product, Units of them in all, at the order's warehouse, of its owner.
type WorkLine struct {
	OrderLine
	PerUnit        Units `json:"perUnit"`
	UnitsCommitted Units `json:"unitsCommitted"`
	// UnitsCompleted are the units consumed by completions.
	UnitsCompleted Units `json:"unitsCompleted"`
}

// Header points at the order's header fields (see OrderHeader).
func (o *WorkOrder) Header() OrderHeader {
	return OrderHeader{Kind: OrderKindWork, OrderHead: &o.OrderHead, No: &o.WONo, Party: &o.party, PartyID: &o.partyID, DueDate: &o.DueDate}
}

// OrderLines points at the shared part of each line.
func (o *WorkOrder) OrderLines() []*OrderLine { return linesOf(o.Lines) }

// Summarize sets what an order shows of its lines: TotalLines.
func (o *WorkOrder) Summarize() { o.TotalLines = int64(len(o.Lines)) }

// Seen returns the order as a client sees it (see ShippingOrder.Seen).
func (o WorkOrder) Seen(scope Scope, owners *Scope) (seen WorkOrder, ok bool) {
	o.Lines = seenLines(o.Lines, scope, owners)
	o.Summarize()
	return o, len(o.Lines) > 0
}

func (o *WorkOrder) addLine(lc OrderLineChange) *OrderLine {
	o.Lines = append(o.Lines, WorkLine{OrderLine: lc.NewLine()})
	return &o.Lines[len(o.Lines)-1].OrderLine
}

// changeLine: a work order's lines are not changed by a request.
func (o *WorkOrder) changeLine(int, OrderLineChange, *Validation, string) (bool, string) {
	return false, ""
}

func (o *WorkOrder) checkChange(*Validation) {}

// ComponentUnits is what a component of perUnit units per product takes
// for units products: perUnit × units, and whether that is a quantity the
// store keeps (a whole number of millionths, at most MaxQuantity).
func ComponentUnits(perUnit, units Units) (Units, bool) {
	p := new(big.Int).Mul(big.NewInt(perUnit.Micros()), big.NewInt(units.Micros()))
	q, r := new(big.Int).QuoRem(p, big.NewInt(UnitScale), new(big.Int))
	if r.Sign() != 0 || !q.IsInt64() || MaxQuantity().Less(FromMicros(q.Int64())) {
		return Units{}, false
	}
	return FromMicros(q.Int64()), true
}

// WorkOrderRequest is a work order as clients send it (the SDK too):
// POST /WorkOrder places one (WONo optional: WO-000001 and so on).
type WorkOrderRequest struct {
	WONo   string `json:"woNo,omitempty"`
	ItemID string `json:"itemID"` // the product's ShortID
	Units  *Units `json:"units,omitempty"`
	WID    int64  `json:"wid"`
	// Spot is where the products go (default "").
	Spot *string `json:"spot,omitempty"`
	// Owner is whose stock the components and products are (default: the
	// client's own owner when it is limited to exactly one, else the
	// product's dfltOwner).
	Owner       *OwnerRef  `json:"owner,omitempty"`
	StartDate   *time.Time `json:"startDate,omitempty"`
	DueDate     *time.Time `json:"dueDate,omitempty"`
	Description *string    `json:"description,omitempty"`
	Assignee    *string    `json:"assignee,omitempty"`
	// Components are what one product takes: units per product.
	Components []ComponentRequest `json:"components"`
}

// ComponentRequest is one component of a WorkOrderRequest: Units of the
// item per unit of product.
type ComponentRequest struct {
	ItemID string `json:"itemID"`
	Units  *Units `json:"units,omitempty"`
}

// ComponentField is the prefix of the field names of component i
// ("components[0].") in validation details.
func ComponentField(i int) string { return "components[" + itoa(i) + "]." }

// Validate checks a new work order's fields, reporting every failing
// field at once, and trims its number and ShortIDs. Components are 1 to
// MaxOrderLines distinct items, none the product; each one's units times
// the order's units must be a quantity the store keeps.
func (r *WorkOrderRequest) Validate(v *Validation, _ bool) {
	validateOrderNo(v, OrderKindWork, &r.WONo, true)
	r.ItemID = strings.TrimSpace(r.ItemID)
	ValidateKey(v, "itemID", r.ItemID)
	if r.Units == nil && !v.Has("units") {
		v.Add("units", "is required")
	} else if r.Units != nil {
		checkQuantity(v, "units", *r.Units)
	}
	checkID(v, "wid", r.WID, true)
	checkText(v, "spot", r.Spot, MaxSpotLen)
	checkText(v, "description", r.Description, MaxDescriptionLen)
	checkText(v, "assignee", r.Assignee, MaxReferenceLen)
	switch {
	case v.Has("components"):
	case len(r.Components) == 0:
		v.Add("components", "is required: give at least one component")
	case len(r.Components) > MaxOrderLines:
		v.Add("components", TooManyElements(MaxOrderLines))
	}
	seen := map[string]bool{FoldKey(r.ItemID): true}
	for i := range r.Components {
		c, at := &r.Components[i], ComponentField(i)
		c.ItemID = strings.TrimSpace(c.ItemID)
		ValidateKey(v, at+"itemID", c.ItemID)
		if !v.Has(at+"itemID") && seen[FoldKey(c.ItemID)] {
			v.Add(at+"itemID", "names the product or an earlier component: give each item once, with all its units per product")
		}
		seen[FoldKey(c.ItemID)] = true
		switch {
		case c.Units == nil && !v.Has(at+"units"):
			v.Add(at+"units", "is required: units per unit of product")
		case c.Units != nil:
			checkQuantity(v, at+"units", *c.Units)
			if r.Units != nil && !v.Has(at+"units") && !v.Has("units") {
				if _, ok := ComponentUnits(*c.Units, *r.Units); !ok {
					v.Add(at+"units", "times the order's units must be a whole number of millionths, at most "+MaxQuantity().String())
				}
			}
		}
	}
}

// Form points at the fields of the request the order code every kind
// shares reads: its number and date due (work orders have no party, no
// order date, no lines of OrderLineRequest).
func (r *WorkOrderRequest) Form() OrderForm {
	return OrderForm{Kind: OrderKindWork, No: &r.WONo, DueDate: &r.DueDate}
}

// CompleteRequest completes Units products of a work order (/Complete).
type CompleteRequest struct {
	Units *Units `json:"units,omitempty"`
}

// Validate checks the request: units, above 0, are required.
func (r CompleteRequest) Validate(v *Validation) {
	if r.Units == nil && !v.Has("units") {
		v.Add("units", "is required")
	} else if r.Units != nil {
		checkQuantity(v, "units", *r.Units)
	}
}

// CompleteResult is the answer of a completion: the order afterwards, the
// product's new lot and its ledger entry, and what each component
// consumed (its entry and lots).
type CompleteResult struct {
	WorkOrder     WorkOrder        `json:"workOrder"`
	TransactionID int64            `json:"transactionID"`
	Lot           Lot              `json:"lot"`
	Components    []LineAllocation `json:"components"`
}

// ComponentShort is a component a completion could not cover.
type ComponentShort struct {
	Line              int64
	ShortID           string
	Wanted, Available Units
}

// ComponentShortError refuses a completion whose components fall short
// (ECONFLICT naming each, the units wanted and those available).
func ComponentShortError(shorts []ComponentShort) error {
	if len(shorts) == 0 {
		return nil
	}
	msg := ""
	for i, s := range shorts {
		if i > 0 {
			msg += " "
		}
		msg += "Insufficient stock of component " + s.ShortID + " (line " + itoa(s.Line) + "): " + CountUnits(s.Wanted) + " wanted, " +
			s.Available.String() + " available."
	}
	return &Error{Code: ECONFLICT, Message: msg}
}

package stockroom

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// PurchaseOrderChange is a validated PUT /PurchaseOrder, its references
// resolved by the service.
type PurchaseOrderChange struct {
	// VendorID is the vendor the request named (0: none); it must be the
	// order's.
	VendorID     int64
	OrderDate    *time.Time
	ExpectedDate *time.Time
	Reference    *string
	Remark       *string
	Lines        []PurchaseLineChange
}

// PurchaseLineChange is one line of a change: a new line (LineNo 0) with its
// item, warehouse and owner resolved, or a change to line LineNo.
type PurchaseLineChange struct {
	PurchaseLineRequest
	// PartNo is a new line's item.
	PartNo int64
	// Owner is the owner given (OwnerGiven), or a new line's default.
	Owner      int64
	OwnerGiven bool
}

// Apply changes an open order as asked and reports whether anything
// changed. A request that names a line the order lacks, or gives a line's
// item, warehouse or owner different from the line's, is a validation
// error (all at once); changing an ended order, or a line's units to below
// what has arrived or is on its way, is a conflict. On an error the order
// may be half changed: the caller drops it.
func (c PurchaseOrderChange) Apply(o *PurchaseOrder) (bool, error) {
	var v Validation
	if c.VendorID != 0 && c.VendorID != o.VendorID {
		v.Add("vendorID", "cannot change: cancel the order and place another with the new vendor")
	}
	changed := setIf(&o.Reference, c.Reference) || setIf(&o.Remark, c.Remark)
	changed = setTimeIf(&o.OrderDate, c.OrderDate) || changed
	if c.ExpectedDate != nil && (o.ExpectedDate == nil || !o.ExpectedDate.Equal(*c.ExpectedDate)) {
		o.ExpectedDate, changed = c.ExpectedDate, true
	}
	var conflicts []string
	next := int64(1)
	for _, l := range o.Lines {
		next = max(next, l.LineNo+1)
	}
	for i, lc := range c.Lines {
		if lc.LineNo == 0 {
			l := lc.NewLine()
			l.LineNo = next
			o.Lines = append(o.Lines, l)
			next, changed = next+1, true
			continue
		}
		at := LineField(i)
		j := slices.IndexFunc(o.Lines, func(l PurchaseLine) bool { return l.LineNo == lc.LineNo })
		if j < 0 {
			v.Add(at+"lineNo", "is not a line of purchase order "+o.PONo)
			continue
		}
		lineChanged, conflict := lc.apply(&v, at, &o.Lines[j])
		changed = changed || lineChanged
		if conflict != "" {
			conflicts = append(conflicts, conflict)
		}
	}
	if len(o.Lines) > MaxOrderLines {
		v.Add("lines", "would take the order past "+itoa(MaxOrderLines)+" lines")
	}
	var value orderValue
	for _, l := range o.Lines {
		value.add(l.Units, l.UnitPrice)
	}
	if _, ok := value.total(); !ok && !v.Has("lines") {
		v.Add("lines", "would make the order worth more than "+MaxFigure().String()+" (units × unitPrice summed)")
	}
	if err := v.Err(); err != nil {
		return false, err
	}
	if !o.Status.IsOpen() {
		return false, Errorf(ECONFLICT, "Purchase order %s is %s; only an open order changes.", o.PONo, o.Status)
	}
	if len(conflicts) > 0 {
		return false, Errorf(ECONFLICT, "%s", strings.Join(conflicts, " "))
	}
	return changed, nil
}

// NewLine is the line a new line of a request adds, not yet numbered.
func (lc PurchaseLineChange) NewLine() PurchaseLine {
	l := PurchaseLine{PartNo: lc.PartNo, Warehouse: lc.Warehouse, Owner: lc.Owner, Units: *lc.Units}
	if lc.UnitPrice != nil {
		l.UnitPrice = *lc.UnitPrice
	}
	return l
}

// apply changes line l as lc asks, adding what may not change to v (the
// fields named at+...); conflict is why its units may not be as asked.
func (lc PurchaseLineChange) apply(v *Validation, at string, l *PurchaseLine) (changed bool, conflict string) {
	never := "cannot change: a line's item, warehouse and owner are fixed; add a line instead"
	if lc.ItemID != "" && FoldKey(lc.ItemID) != FoldKey(l.ShortID) {
		v.Add(at+"itemID", never)
	}
	if lc.Warehouse != 0 && lc.Warehouse != l.Warehouse {
		v.Add(at+"warehouse", never)
	}
	if lc.OwnerGiven && lc.Owner != l.Owner {
		v.Add(at+"owner", never)
	}
	if lc.Units != nil && *lc.Units != l.Units {
		arrived := l.UnitsReceived.Add(l.UnitsInTransit).Add(l.UnitsRejected)
		if lc.Units.Less(arrived) {
			conflict = "Line " + itoa(l.LineNo) + " cannot be cut to " + lc.Units.String() + " units: " +
				arrived.String() + " have been received, rejected or are in transit."
		} else {
			l.Units, changed = *lc.Units, true
		}
	}
	if lc.UnitPrice != nil && *lc.UnitPrice != l.UnitPrice {
		l.UnitPrice, changed = *lc.UnitPrice, true
	}
	return changed, conflict
}

// End closes an open order (cancel false: what is still due stops
// counting) or cancels it, which only an order of which nothing has arrived
// or is on its way may be.
func (o *PurchaseOrder) End(cancel bool) error {
	if !o.Status.IsOpen() {
		return Errorf(ECONFLICT, "Purchase order %s is %s already.", o.PONo, o.Status)
	}
	if !cancel {
		o.Status = OrderClosed
		return nil
	}
	for _, l := range o.Lines {
		if !l.UnitsReceived.IsZero() || !l.UnitsInTransit.IsZero() || !l.UnitsRejected.IsZero() {
			return Errorf(ECONFLICT, "Purchase order %s cannot be canceled: units of line %d have been received, rejected or "+
				"are in transit. Close it instead (POST /PurchaseOrder/{poNo}/Close).", o.PONo, l.LineNo)
		}
	}
	o.Status = OrderCanceled
	return nil
}

func setIf(dst *string, src *string) bool {
	if src == nil || *src == *dst {
		return false
	}
	*dst = *src
	return true
}

func setTimeIf(dst *time.Time, src *time.Time) bool {
	if src == nil || src.Equal(*dst) {
		return false
	}
	*dst = *src
	return true
}

func itoa[T int | int64](n T) string { return strconv.FormatInt(int64(n), 10) }

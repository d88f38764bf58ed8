package stockroom

import (
	"strconv"
	"strings"
	"time"
)

// OrderChange is a validated order request, its references resolved by the
// service: a PUT of any kind of order, or the lines and fields of a new one
// (applied to the empty order the service starts it as).
type OrderChange struct {
	// PartyID is the vendor or customer the request named (0: none); it
	// must be the order's.
	PartyID   int64
	OrderDate *time.Time
	// DueDate is a purchase order's expectedDate, a shipping order's
	// shipDate.
	DueDate   *time.Time
	Reference *string
	Remark    *string
	Lines     []OrderLineChange
}

// OrderLineChange is one line of a change: a new line (LineNo 0) with its
// item, warehouse and owner resolved, or a change to line LineNo.
type OrderLineChange struct {
	OrderLineRequest
	// PartNo is a new line's item.
	PartNo int64
	// Owner is the owner given (OwnerGiven), or a new line's default.
	Owner      int64
	OwnerGiven bool
}

// NewLine is the shared part of the line a new line of a request adds, not
// yet numbered.
func (lc OrderLineChange) NewLine() OrderLine {
	return OrderLine{PartNo: lc.PartNo, Warehouse: lc.Warehouse, Owner: lc.Owner, Units: *lc.Units}
}

// Apply changes an open order of any kind as asked and reports whether
// anything changed. A request that names a line the order lacks, or gives
// a line's item, warehouse or owner different from the line's, is a
// validation error (all at once); changing an ended order, or a line's
// units to below what it has taken already, is a conflict. On an error the
// order may be half changed: the caller drops it.
func (c OrderChange) Apply(o AnyOrder) (bool, error) {
	h := o.Header()
	var v Validation
	if party := h.Kind.Party(); c.PartyID != 0 && c.PartyID != *h.PartyID {
		v.Add(party.IDField(), "cannot change: cancel the order and place another with the new "+string(party))
	}
	// Each setter runs whatever the others did: in `a || b` a change of the
	// reference would skip the remark.
	changed := setIf(&h.Reference, c.Reference)
	changed = setIf(&h.Remark, c.Remark) || changed
	changed = setTimeIf(&h.OrderDate, c.OrderDate) || changed
	if c.DueDate != nil && (*h.DueDate == nil || !(*h.DueDate).Equal(*c.DueDate)) {
		*h.DueDate, changed = c.DueDate, true
	}
	index := map[int64]int{} // lineNo -> index of the lines before the change
	next := int64(1)
	for i, l := range o.OrderLines() {
		index[l.LineNo], next = i, max(next, l.LineNo+1)
	}
	var conflicts []string
	for i, lc := range c.Lines {
		if lc.LineNo == 0 {
			o.addLine(lc).LineNo = next
			next, changed = next+1, true
			continue
		}
		j, ok := index[lc.LineNo]
		if !ok {
			v.Add(LineField(i)+"lineNo", "is not a line of "+h.Kind.Name()+" "+*h.No)
			continue
		}
		lineChanged, conflict := o.changeLine(j, lc, &v, LineField(i))
		changed = changed || lineChanged
		if conflict != "" {
			conflicts = append(conflicts, conflict)
		}
	}
	if len(o.OrderLines()) > MaxOrderLines {
		v.Add("lines", "would take the order past "+itoa(MaxOrderLines)+" lines")
	}
	o.checkChange(&v)
	if err := v.Err(); err != nil {
		return false, err
	}
	if err := h.Kind.CheckOpen(*h.No, h.Status, "changed"); err != nil {
		return false, err
	}
	if len(conflicts) > 0 {
		return false, Errorf(ECONFLICT, "%s", strings.Join(conflicts, " "))
	}
	return changed, nil
}

// change changes line l as lc asks, adding what may not change to v (the
// fields named at+...): its units, not below taken, the units the line has
// taken already (what is written in words in the conflict, "are committed,
// packed or shipped").
func (lc OrderLineChange) change(v *Validation, at string, l *OrderLine, taken Units, what string) (changed bool, conflict string) {
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
	if lc.Units == nil || *lc.Units == l.Units {
		return false, ""
	}
	if lc.Units.Less(taken) {
		return false, "Line " + itoa(l.LineNo) + " cannot be cut to " + lc.Units.String() + " units: " + taken.String() + " " + what + "."
	}
	l.Units = *lc.Units
	return true, ""
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

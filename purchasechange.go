package stockroom

// PurchaseOrderChange is a validated PUT /PurchaseOrder (or a new order's
// fields and lines), its references resolved by the service.
type PurchaseOrderChange OrderChange

// Apply changes an open order as asked and reports whether anything
// changed (see OrderChange.Apply): a line's units may not be cut below
// what has arrived or is on its way, and the order may not be worth more
// than MaxFigure.
func (c PurchaseOrderChange) Apply(o *PurchaseOrder) (bool, error) { return OrderChange(c).Apply(o) }

func (o *PurchaseOrder) addLine(lc OrderLineChange) *OrderLine {
	l := PurchaseLine{OrderLine: lc.NewLine()}
	if lc.UnitPrice != nil {
		l.UnitPrice = *lc.UnitPrice
	}
	o.Lines = append(o.Lines, l)
	return &o.Lines[len(o.Lines)-1].OrderLine
}

func (o *PurchaseOrder) changeLine(i int, lc OrderLineChange, v *Validation, at string) (bool, string) {
	l := &o.Lines[i]
	arrived := l.UnitsReceived.Add(l.UnitsInTransit).Add(l.UnitsRejected)
	changed, conflict := lc.change(v, at, &l.OrderLine, arrived, "have been received, rejected or are in transit")
	if lc.UnitPrice != nil && *lc.UnitPrice != l.UnitPrice {
		l.UnitPrice, changed = *lc.UnitPrice, true
	}
	return changed, conflict
}

func (o *PurchaseOrder) checkChange(v *Validation) {
	var value orderValue
	for _, l := range o.Lines {
		value.add(l.Units, l.UnitPrice)
	}
	if _, ok := value.total(); !ok && !v.Has("lines") {
		v.Add("lines", "would make the order worth more than "+MaxFigure().String()+" (units × unitPrice summed)")
	}
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

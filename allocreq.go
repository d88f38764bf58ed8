package stockroom

// Validate checks a commit's fields: each line named, its units (when
// given) greater than 0, its lot (when given) a recNo. Whether the lines
// are the order's, and named once, is the store's to judge with the order.
func (r *CommitRequest) Validate(v *Validation) {
	checkAllocLines(v, r.Lines, false, false)
	for i, l := range r.Lines {
		checkID(v, LineField(i)+"recno", l.RecNo, false)
	}
}

// Validate checks an uncommit's fields.
func (r *UncommitRequest) Validate(v *Validation) {
	checkAllocLines(v, r.Lines, false, false)
}

// Validate checks a pack's fields: lines, each with units, are required.
func (r *PackRequest) Validate(v *Validation) {
	checkAllocLines(v, r.Lines, true, true)
}

// Validate checks a ship's fields.
func (r *ShipRequest) Validate(v *Validation) {
	checkAllocLines(v, r.Lines, false, false)
	checkTexts(v, map[string]textField{"reference": {r.Reference, MaxReferenceLen}, "remark": {r.Remark, MaxRemarkLen}})
}

// checkAllocLines checks the lines of an order action: at most
// MaxOrderLines (at least one when required), each naming a line, with
// units greater than 0 when given (required when unitsRequired).
func checkAllocLines(v *Validation, lines []AllocLine, required, unitsRequired bool) {
	checkLineCount(v, len(lines), required)
	for i, l := range lines {
		f := LineField(i)
		checkID(v, f+"line", l.Line, true)
		switch {
		case l.Units != nil:
			checkQuantity(v, f+"units", *l.Units)
		case unitsRequired && !v.Has(f+"units"):
			v.Add(f+"units", "is required")
		}
	}
}

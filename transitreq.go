package stockroom

import (
	"fmt"
	"slices"
	"strings"
)

// The requests and answers of transits (contract §10), and the rule that
// decides what a receipt takes of each line.

// IsTransfer reports whether a move ships a transit: it names another
// warehouse (shipToWid) and a transit slip. Without a slip a move between
// warehouses completes at once.
func (r *MoveRequest) IsTransfer() bool {
	return r.ShipToWID != 0 && strings.TrimSpace(r.TransitSlip) != ""
}

// ShipNoticeRequest is a vendor's advance ship notice against a purchase
// order (POST /PurchaseOrder/{poNo}/Ship): units of its lines on their way
// to the lines' warehouse, leaving onOrder for aSN.
type ShipNoticeRequest struct {
	// ASN is the vendor's notice number (required).
	ASN   string           `json:"asn"`
	Lines []ShipNoticeLine `json:"lines"`
}

// ShipNoticeLine is what a notice says is coming for one order line. The
// same order line may appear on several notice lines (say, one per serial).
type ShipNoticeLine struct {
	// Line is the purchase order's lineNo.
	Line    int64  `json:"line"`
	Units   Units  `json:"units"`
	Serial  string `json:"serial,omitempty"`
	Serial2 string `json:"serial2,omitempty"`
	RFIDTag string `json:"rfidTag,omitempty"`
}

// Validate checks a notice's fields, and trims its number.
func (r *ShipNoticeRequest) Validate(v *Validation) {
	r.ASN = strings.TrimSpace(r.ASN)
	if !v.Has("asn") && r.ASN == "" {
		v.Add("asn", "is required")
	}
	checkTexts(v, map[string]textField{"asn": {r.ASN, MaxReferenceLen}})
	checkLineCount(v, len(r.Lines), true)
	for i, l := range r.Lines {
		f := LineField(i)
		checkID(v, f+"line", l.Line, true)
		checkQuantity(v, f+"units", l.Units)
		checkTexts(v, map[string]textField{
			f + "serial": {l.Serial, MaxSerialLen}, f + "serial2": {l.Serial2, MaxSerialLen}, f + "rfidTag": {l.RFIDTag, MaxSerialLen},
		})
	}
}

// TransitReceiveRequest receives a transit at its destination
// (POST /Transit/{id}/Receive). Without lines, everything still due on
// every line is received.
type TransitReceiveRequest struct {
	// Spot is the bin the units go to; absent, the transit's toSpot.
	Spot  *string              `json:"spot,omitempty"`
	Lines []TransitReceiveLine `json:"lines,omitempty"`
}

// TransitReceiveLine is what arrived of one transit line: units accepted
// into stock and units rejected (written off aSN as a loss, under an
// issue-direction reason code).
type TransitReceiveLine struct {
	Line int64 `json:"line"`
	// Units are accepted; absent, what is due less the rejected units.
	Units      *Units `json:"units,omitempty"`
	Rejected   Units  `json:"rejected,omitzero"`
	ReasonCode int64  `json:"reasonCode,omitzero"`
}

// Validate checks a receipt's fields. The reason codes' direction is the
// service's to check.
func (r *TransitReceiveRequest) Validate(v *Validation) {
	if r.Spot != nil {
		s := strings.TrimSpace(*r.Spot)
		r.Spot = &s
		checkTexts(v, map[string]textField{"spot": {s, MaxSpotLen}})
	}
	checkLineCount(v, len(r.Lines), false)
	for i, l := range r.Lines {
		f := LineField(i)
		checkID(v, f+"line", l.Line, true)
		if l.Units != nil {
			checkNonNegative(v, f+"units", *l.Units)
		}
		checkNonNegative(v, f+"rejected", l.Rejected)
		switch {
		case v.Has(f+"units") || v.Has(f+"rejected"):
		case l.Units != nil && l.Units.IsZero() && l.Rejected.IsZero():
			v.Add(f+"units", "or rejected must be greater than 0")
		case l.Rejected.Sign() > 0 && l.ReasonCode == 0 && !v.Has(f+"reasonCode"):
			v.Add(f+"reasonCode", "is required for rejected units")
		}
		checkID(v, f+"reasonCode", l.ReasonCode, false)
	}
}

// checkLineCount holds a request's lines to MaxOrderLines (and to at least
// one when required).
func checkLineCount(v *Validation, n int, required bool) {
	switch {
	case v.Has("lines"):
	case n == 0 && required:
		v.Add("lines", "is required: give at least one line")
	case n > MaxOrderLines:
		v.Add("lines", TooManyElements(MaxOrderLines))
	}
}

// TooManyElements is the problem of an array field (lines, components) that
// holds more than max elements.
func TooManyElements(max int) string {
	return fmt.Sprintf("must have at most %d elements", max)
}

// TransitReceiveResult is the answer to a receipt of a transit: the transit
// as it is now and what each line took.
type TransitReceiveResult struct {
	Transit Transit          `json:"transit"`
	Lines   []TransitReceipt `json:"lines"`
}

// TransitReceipt is what a receipt did with one transit line.
type TransitReceipt struct {
	Line     int64 `json:"line"`
	Units    Units `json:"units"`
	Rejected Units `json:"rejected"`
	// RecNo is the lot the accepted units went to; null when none were.
	RecNo *int64 `json:"recNo"`
	// TransactionID is the transit-receive ledger entry; null when no units
	// were accepted. RejectTransactionID is the transit-reject entry; null
	// when none were rejected.
	TransactionID       *int64 `json:"transactionID"`
	RejectTransactionID *int64 `json:"rejectTransactionID"`
}

// TransitTake is what a receipt takes of one transit line.
type TransitTake struct {
	Line       TransitLine
	Units      Units
	Rejected   Units
	ReasonCode int64
}

// CheckOpen refuses an action (what: "received", "canceled") on a transit
// that has ended.
func (t Transit) CheckOpen(what string) error {
	if t.Status.IsOpen() {
		return nil
	}
	return Errorf(ECONFLICT, "Transit %d is %s; only a transit on its way can be %s.", t.ID, t.Status, what)
}

// PlanReceipt decides what a receipt takes of each line of the transit, in
// line order: the lines asked for, or every line with units due. A line
// that is not the transit's, or is named twice, is a validation error
// naming it; units and rejected beyond what a line has due are ECONFLICT
// naming the line, what it has due and what was given. Nothing is taken
// when any line is refused.
func (t Transit) PlanReceipt(lines []TransitReceiveLine) ([]TransitTake, error) {
	if err := t.CheckOpen("received"); err != nil {
		return nil, err
	}
	if len(lines) == 0 {
		var takes []TransitTake
		for _, l := range t.Lines {
			if l.UnitsDue.Sign() > 0 {
				takes = append(takes, TransitTake{Line: l, Units: l.UnitsDue})
			}
		}
		return takes, nil
	}
	var (
		v     Validation
		takes []TransitTake
		named = map[int64]bool{}
	)
	for i, r := range lines {
		at := slices.IndexFunc(t.Lines, func(l TransitLine) bool { return l.Line == r.Line })
		switch {
		case at < 0:
			v.Add(LineField(i)+"line", fmt.Sprintf("is not a line of transit %d", t.ID))
			continue
		case named[r.Line]:
			v.Add(LineField(i)+"line", fmt.Sprintf("names line %d again", r.Line))
			continue
		}
		named[r.Line] = true
		l := t.Lines[at]
		take := TransitTake{Line: l, Rejected: r.Rejected, ReasonCode: r.ReasonCode, Units: l.UnitsDue.Sub(r.Rejected)}
		if r.Units != nil {
			take.Units = *r.Units
		}
		takes = append(takes, take)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(takes, func(a, b TransitTake) int { return int(a.Line.Line - b.Line.Line) })
	for _, tk := range takes {
		accepted := tk.Units
		if accepted.Sign() < 0 { // units left to default, fewer due than rejected
			accepted = Units{}
		}
		given := accepted.Add(tk.Rejected)
		switch {
		case tk.Line.UnitsDue.Less(given) || tk.Units.Sign() < 0:
			return nil, Errorf(ECONFLICT, "Transit %d line %d has %s due; %s given (%s received, %s rejected); nothing was changed.",
				t.ID, tk.Line.Line, CountUnits(tk.Line.UnitsDue), CountUnits(given), accepted, tk.Rejected)
		case given.IsZero():
			return nil, Errorf(ECONFLICT, "Transit %d line %d has nothing due; nothing was changed.", t.ID, tk.Line.Line)
		}
	}
	return takes, nil
}

// ParseTransitStatus reads a transit status in any letter case.
func ParseTransitStatus(s string) (TransitStatus, bool) {
	for _, st := range []TransitStatus{TransitInTransit, TransitPartial, TransitReceived, TransitCanceled} {
		if strings.EqualFold(strings.TrimSpace(s), string(st)) {
			return st, true
		}
	}
	return "", false
}

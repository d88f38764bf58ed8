package stockroom

import "time"

// TransitKind tells a transfer between warehouses from a vendor's advance
// ship notice.
type TransitKind string

// The kinds of transit.
const (
	TransitTransfer TransitKind = "transfer"
	TransitASN      TransitKind = "asn"
)

// TransitStatus is the state of a transit. It is open (its units count in
// the destination's aSN) while InTransit or Partial.
type TransitStatus string

// The states of a transit.
const (
	TransitInTransit TransitStatus = "InTransit"
	TransitPartial   TransitStatus = "Partial"
	TransitReceived  TransitStatus = "Received"
	TransitCanceled  TransitStatus = "Canceled"
)

// IsOpen reports whether a transit in this state is still on its way.
func (s TransitStatus) IsOpen() bool { return s == TransitInTransit || s == TransitPartial }

// Transit is stock on its way to warehouse ToWID: a transfer from warehouse
// FromWID (TransitSlip), or a vendor's shipment against purchase order PONo
// (ASN). Its units count in the destination's aSN and in no inStock.
type Transit struct {
	ID          int64       `json:"id"`
	Kind        TransitKind `json:"kind"`
	TransitSlip string      `json:"transitSlip,omitempty"`
	ASN         string      `json:"asn,omitempty"`
	FromWID     *int64      `json:"fromWid,omitempty"`
	PONo        string      `json:"poNo,omitempty"`
	ToWID       int64       `json:"toWid"`
	// ToSpot is the bin a receipt puts the units in when it names none.
	ToSpot   string        `json:"toSpot"`
	Status   TransitStatus `json:"status"`
	Shipped  time.Time     `json:"shipped"`
	Modified time.Time     `json:"modified"`
	Lines    []TransitLine `json:"lines"`
}

// TransitAction is what the store is told of an action on transit ID (a
// receipt or a cancel), carried out in one transaction: the transit and the
// ledger entry its changes are recorded under.
type TransitAction struct {
	ID    int64
	Entry LedgerEntry
}

// TransitLine is one part of a transit: units of one item and owner, from
// one source lot (a transfer) or for one purchase order line (a notice).
type TransitLine struct {
	Line          int64  `json:"line"`
	PartNo        int64  `json:"partNo"`
	ShortID       string `json:"shortID"`
	Owner         int64  `json:"owner"`
	Units         Units  `json:"units"`
	UnitsReceived Units  `json:"unitsReceived"`
	UnitsRejected Units  `json:"unitsRejected"`
	// UnitsDue are still on their way: units less received and rejected (0
	// once the transit has ended).
	UnitsDue Units  `json:"unitsDue"`
	Serial   string `json:"serial"`
	Serial2  string `json:"serial2"`
	RFIDTag  string `json:"rfidTag"`
	// RecNo is the source lot of a transfer; POLine the order line of a
	// notice.
	RecNo  *int64 `json:"recNo,omitempty"`
	POLine *int64 `json:"poLine,omitempty"`
}

// TransitFilter narrows a transit list.
type TransitFilter struct {
	OpenOnly bool // GET /Transit; /Transit/All: false
	// WID keeps transits from or to this warehouse (0: any in scope).
	WID int64
	// Status keeps transits in this state ("": any).
	Status TransitStatus
	// Owner is the owner asked for (?owner=); nil: every owner the client
	// may see.
	Owner *OwnerRef
	// Owners narrows to transits with a line of these owners; nil: every
	// owner.
	Owners *Scope
}

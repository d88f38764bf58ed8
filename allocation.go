package stockroom

// Allocations (contract §11): units of particular lots promised to the
// lines of shipping orders and to the components of work orders. A lot's
// allocated units are the sum of its allocations; plain draws take only
// the rest (Candidate.Free). An allocation's committed units are promised
// and not packed, its packed ones packed and not shipped; a line's
// committed and packed are the sums of its allocations, and the levels'
// committed and packed the sums over every line of an item, warehouse and
// owner.

// OrderKind is the kind of an order: which resource it is, and the value
// of the store's kind column.
type OrderKind string

// The kinds of order.
const (
	OrderKindPurchase OrderKind = "purchase"
	OrderKindShipping OrderKind = "shipping"
	OrderKindWork     OrderKind = "work"
)

// Noun names an order of the kind at the start of a sentence.
func (k OrderKind) Noun() string {
	switch k {
	case OrderKindPurchase:
		return "Purchase order"
	case OrderKindWork:
		return "Work order"
	}
	return "Shipping order"
}

// NoField is the name of an order's number in the ledger's details and in
// the API: poNo, soNo, woNo.
func (k OrderKind) NoField() string {
	switch k {
	case OrderKindPurchase:
		return "poNo"
	case OrderKindWork:
		return "woNo"
	}
	return "soNo"
}

// PartialStatus is the state of an open order of the kind once part of it
// has gone out: Partial, or In Progress for a work order.
func (k OrderKind) PartialStatus() OrderStatus {
	if k == OrderKindWork {
		return OrderInProgress
	}
	return OrderPartial
}

// OutboundLine is an order line that stock leaves on: a shipping order's
// line, or a work order's component. Its units are committed (allocated,
// not packed), packed (not shipped) and shipped (for a component:
// consumed); together never more than Units.
type OutboundLine struct {
	LineNo             int64
	PartNo, WID, Owner int64
	Units              Units
	Committed, Packed  Units
	Shipped            Units
}

// OrderLinesAction is what the store is told of an action on an order's
// lines, carried out in one transaction: the order (its kind and number),
// the ledger entry its changes are recorded under, and the client it is
// for. The client's scopes judge the lines on the rows the transaction
// locked, with no read before it: a line it does not see (SeesLine) is as
// one the order lacks, an order none of whose lines it sees is as one that
// does not exist, and every line the action touches must be in its scopes
// (JudgeLines).
type OrderLinesAction struct {
	Kind  OrderKind
	No    string
	Entry LedgerEntry
	By    *Principal
}

// Uncommitted is what a commit may still allocate to the line: its units
// less what is committed, packed and shipped, never below 0.
func (l OutboundLine) Uncommitted() Units {
	d := l.Units.Sub(l.Committed).Sub(l.Packed).Sub(l.Shipped)
	if d.Sign() < 0 {
		return Units{}
	}
	return d
}

// Allocation is the part of one lot promised to one order line.
type Allocation struct {
	RecNo     int64
	Committed Units
	Packed    Units
}

// LineAllocations is an order line with its allocations, in draw order
// (oldest received first, then lowest recNo).
type LineAllocations struct {
	OutboundLine
	Allocations []Allocation
}

// AllocStep is one change an order action makes to one allocation: signed
// changes of its committed and packed units, and the units shipped out of
// the lot (which leave packed or committed).
type AllocStep struct {
	RecNo     int64
	Committed Units
	Packed    Units
	Shipped   Units
}

// Allocated is the step's change to its lot's allocated units.
func (s AllocStep) Allocated() Units { return s.Committed.Add(s.Packed) }

// SumSteps returns the changes of steps added up, RecNo left 0.
func SumSteps(steps []AllocStep) AllocStep {
	var t AllocStep
	for _, s := range steps {
		t.Committed, t.Packed, t.Shipped = t.Committed.Add(s.Committed), t.Packed.Add(s.Packed), t.Shipped.Add(s.Shipped)
	}
	return t
}

// AllocLine names one order line in an order action (contract §11):
// units, when the action takes them (absent: the action's default), and
// for a commit the lot to take them from (the other actions ignore
// RecNo).
type AllocLine struct {
	Line  int64  `json:"line"`
	Units *Units `json:"units,omitempty"`
	RecNo int64  `json:"recno,omitzero"`
}

// CommitRequest allocates lots to an order's lines (/Commit). Without
// lines, every line gets what it still has uncommitted. AllowPartial
// commits what can be and reports what is short, instead of refusing.
type CommitRequest struct {
	Lines        []AllocLine `json:"lines,omitempty"`
	AllowPartial bool        `json:"allowPartial,omitzero"`
}

// UncommitRequest releases committed (not packed) units (/Uncommit):
// without lines every line's, without units a line's every one.
type UncommitRequest struct {
	Lines []AllocLine `json:"lines,omitempty" ignore:"recno"`
}

// PackRequest turns committed units of lines into packed ones (/Pack).
type PackRequest struct {
	Lines []AllocLine `json:"lines" ignore:"recno"`
}

// ShipRequest ships lines' packed units, then committed ones (/Ship):
// without lines every line's, without units a line's every one. Reference
// (default: the order's number) and Remark go to the ledger.
type ShipRequest struct {
	Lines     []AllocLine `json:"lines,omitempty" ignore:"recno"`
	Reference string      `json:"reference,omitzero"`
	Remark    string      `json:"remark,omitzero"`
}

// AllocationResult is the answer of an order action: the order's number
// and state afterwards, and what the action did to each line it changed,
// in line order.
type AllocationResult struct {
	OrderNo string           `json:"orderNo"`
	Status  OrderStatus      `json:"status"`
	Lines   []LineAllocation `json:"lines"`
}

// LineAllocation is what an order action did to one line.
type LineAllocation struct {
	Line int64 `json:"line"`
	// TransactionID is the line's ledger entry; null when nothing changed.
	TransactionID *int64 `json:"transactionID"`
	// Units is what the action committed, released, packed or shipped.
	Units Units `json:"units"`
	// Short is what a commit with allowPartial could not commit.
	Short Units `json:"short"`
	// The line's figures afterwards.
	UnitsCommitted Units `json:"unitsCommitted"`
	UnitsPacked    Units `json:"unitsPacked"`
	UnitsShipped   Units `json:"unitsShipped"`
	// Lots are the lots the action took units of, in draw order.
	Lots []LotUnits `json:"lots"`
}

// LotUnits is one lot's part in an order action. Remaining is, for a
// ship, what stays in the lot; absent otherwise.
type LotUnits struct {
	RecNo     int64  `json:"recNo"`
	Units     Units  `json:"units"`
	Remaining *Units `json:"remaining,omitempty"`
}

// ErrLotAllocated refuses to hold a lot some of whose units are promised
// to orders: uncommit them first.
var ErrLotAllocated = &Error{Code: ECONFLICT, Message: "Lot has units committed to orders."}

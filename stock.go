package stockroom

import (
	"errors"
	"time"
)

// ErrDiscontinued is the refusal to receive a discontinued item.
// ErrDefaultOwnerChanged is returned by a store when a receipt or withdrawal
// that took the item's default owner as last seen finds it changed in the
// transaction; nothing was changed, and the caller asks again.
var ErrDefaultOwnerChanged = errors.New("the item's default owner changed")

// ErrOwnerInactive is returned for a receipt for a discontinued customer.
var ErrOwnerInactive = &Error{Code: ECONFLICT, Message: "The owner is inactive and takes no stock."}

// ErrWarehouseInactive is returned for stock received or moved into an
// inactive warehouse.
var ErrWarehouseInactive = &Error{Code: ECONFLICT, Message: "The warehouse is inactive and takes no stock."}

var ErrDiscontinued = &Error{Code: ECONFLICT, Message: "The item is discontinued and cannot be received."}

// HoldChange puts the lot RecNo on hold (Hold) or releases it.
type HoldChange struct {
	RecNo int64
	Hold  bool
}

// Receipt is a validated receive, its item resolved: one new lot.
type Receipt struct {
	PartNo int64
	ReceiveRequest
	// Owner is the owner resolved from the request. OwnerIsDefault says it
	// was taken from the item's dfltOwner as last seen: the store confirms it
	// in the transaction (ErrDefaultOwnerChanged otherwise).
	Owner          int64
	OwnerIsDefault bool
	// Order is the purchase order line received against; nil for none.
	Order *ReceiptOrder
}

// Lot returns the lot a receipt makes when received at the given time: in
// stock, not held, the house's own (no associate), with every field the
// receipt gave.
func (r Receipt) Lot(now time.Time) Lot {
	return Lot{
		PartNo: r.PartNo, WID: r.WID, Spot: r.Spot, Units: r.Units, Received: now, Serial: r.Serial,
		Serial2: r.Serial2, RFIDTag: r.RFIDTag, Remark: r.Remark, JobID: r.JobID, Active: true,
		Modified: now, Reference: r.Reference, NetWeight: r.NetWeight, GrossWeight: r.GrossWeight,
		Price: r.Price, Expires: r.Expires, Supplier: r.Supplier, Line: r.Line, Owner: r.Owner,
	}
}

// LedgerEntry is what the ledger records about a transaction besides its
// lines.
type LedgerEntry struct {
	ClientID   string
	Time       time.Time
	ReasonCode int64 // 0 for none
	Reference  string
	Remark     string
	// Details holds the request's other fields, as given.
	Details map[string]any
}

// Transaction is a ledger entry as read back.
type Transaction struct {
	ID       int64     `json:"id"`
	Type     TxType    `json:"type"`
	Time     time.Time `json:"time"`
	ClientID string    `json:"clientID"`
	// Owner is whose stock the transaction changed.
	Owner int64 `json:"owner"`
	// PartNo and ShortID are the transaction's item: the item of every
	// line and figure, but for an assemble entry, whose item is the
	// product and whose lines and figures are also of its components.
	PartNo     int64             `json:"partNo"`
	ShortID    string            `json:"shortID"`
	WID        int64             `json:"wid"`
	ToWID      *int64            `json:"toWid"`
	Spot       string            `json:"spot"`
	ToSpot     *string           `json:"toSpot"`
	Units      Units             `json:"units"`
	ReasonCode *int64            `json:"reasonCode"`
	Reference  string            `json:"reference"`
	Remark     string            `json:"remark"`
	Details    map[string]any    `json:"details"`
	Lines      []TransactionLine `json:"lines"`
	// Figures are the transaction's changes to the figures of its owner
	// that are not lots' units (onOrder, aSN, committed, packed), per item
	// and warehouse; absent when it changed none.
	Figures []TransactionFigure `json:"figures,omitempty"`
}

// TransactionFigure is a transaction's signed change to the order figures
// of one item and its owner in one warehouse.
type TransactionFigure struct {
	WID       int64  `json:"wid"`
	PartNo    int64  `json:"partNo"`
	ShortID   string `json:"shortID"`
	OnOrder   Units  `json:"onOrder"`
	ASN       Units  `json:"aSN"`
	Committed Units  `json:"committed"`
	Packed    Units  `json:"packed"`
}

// TransactionLine is one lot's signed change in a transaction, with the
// lot's item.
type TransactionLine struct {
	RecNo   int64  `json:"recNo"`
	PartNo  int64  `json:"partNo"`
	ShortID string `json:"shortID"`
	WID     int64  `json:"wid"`
	Spot    string `json:"spot"`
	Units   Units  `json:"units"`
}

// LotFilter narrows a lot list.
type LotFilter struct {
	// Owner is the owner asked for (?owner=); nil: every owner the client
	// may see.
	Owner          *OwnerRef
	WID            int64 // 0: every warehouse in scope
	ItemShortID    string
	Spot           *string
	Serial         string
	Hold           *bool
	IncludeShipped bool
	// Owners narrows to these owners' stock; nil: every owner.
	Owners *Scope
}

// StockFilter narrows a stock level list.
type StockFilter struct {
	// Owner is the owner asked for (?owner=); nil: every owner the client
	// may see.
	Owner       *OwnerRef
	WID         int64 // 0: summed over the warehouses in scope
	ItemShortID string
	IncludeZero bool
	// Owners narrows to these owners' stock; nil: every owner.
	Owners *Scope
}

// TransactionFilter narrows the ledger.
type TransactionFilter struct {
	// Owner is the owner asked for (?owner=); nil: every owner the client
	// may see.
	Owner       *OwnerRef
	ItemShortID string
	WID         int64
	Type        TxType // "": every type
	// Owners narrows to these owners' stock; nil: every owner.
	Owners *Scope
}

// Discrepancy is one broken invariant found by the audit.
type Discrepancy struct {
	What string
}

// ErrFigureTooLarge is the refusal of a change that would take a kept stock
// figure (a lot, a stock level, an item's total over warehouses) past the
// largest one kept: it is judged before anything changes, and nothing does.
var ErrFigureTooLarge = &Error{Code: ECONFLICT, Message: "The change would take a stock figure past " +
	MaxFigure().String() + " units, the largest kept; nothing was changed."}

package stockroom

import (
	"strings"
	"time"
)

// Lot is stock of one item received at one time, at one place: a warehouse
// and a bin (spot) in it. Receive creates lots; issue empties them; move
// relocates them whole or splits part of them off.
type Lot struct {
	RecNo       int64  `json:"recNo"`
	PartNo      int64  `json:"partNo"`
	ShortID     string `json:"shortID"`
	Description string `json:"description"`
	// Owner is the customer the stock belongs to, 0 for the house's own;
	// Associate is that customer's name ("" for the house).
	Owner     int64      `json:"owner"`
	Associate string     `json:"associate"`
	Warehouse string     `json:"warehouse"`
	WID       int64      `json:"wID"`
	Spot      string     `json:"spot"`
	Units     Units      `json:"units"`
	Received  time.Time  `json:"received"`
	Shipped   *time.Time `json:"shipped"`
	Serial    string     `json:"serial"`
	Serial2   string     `json:"serial2"`
	RFIDTag   string     `json:"rFIDTag"`
	Remark    string     `json:"remark"`
	Hold      bool       `json:"hold"`
	JobID     int64      `json:"jobID"`
	JobName   *string    `json:"jobName"`
	Active    bool       `json:"active"`
	Modified  time.Time  `json:"modified"`

	// What the receipt said, kept with the lot (beyond the spec's table).
	Reference   string     `json:"reference"`
	NetWeight   Units      `json:"netWeight"`
	GrossWeight Units      `json:"grossWeight"`
	Price       Units      `json:"price"`
	Expires     *time.Time `json:"expires"`
	Supplier    int64      `json:"supplier"`
	Line        int64      `json:"line"`
}

// StockLevel is the aggregate stock of one item, in one warehouse or summed
// over the warehouses in a client's scope. Available is inStock − onHold −
// committed − packed, never below 0; the database keeps it with the other
// figures (a generated column), so it is computed in one place and lists can
// sort by it.
type StockLevel struct {
	PartNo    int64     `json:"partNo"`
	ShortID   string    `json:"shortID"`
	Available Units     `json:"available"`
	InStock   Units     `json:"inStock"`
	OnOrder   Units     `json:"onOrder"`
	OnHold    Units     `json:"onHold"`
	Committed Units     `json:"committed"`
	Packed    Units     `json:"packed"`
	ASN       Units     `json:"aSN"`
	Modified  time.Time `json:"modified"`
}

// TxType is the type of a ledger transaction.
type TxType string

// Transaction types of the ledger.
const (
	TxReceive TxType = "receive"
	TxIssue   TxType = "issue"
	TxMove    TxType = "move"
	TxHold    TxType = "hold"
	TxRelease TxType = "release"
	// TxOrder records a purchase order line placed, added or changed in
	// units; TxOrderClose and TxOrderCancel its order closed or canceled.
	// Their figures carry the change to onOrder.
	TxOrder       TxType = "order"
	TxOrderClose  TxType = "order-close"
	TxOrderCancel TxType = "order-cancel"

	// Transits (contract §10): a transfer ships lots from one warehouse to
	// another's aSN; an asn moves a purchase line's units from onOrder to
	// aSN; a transit-receive puts a transit line's units in stock, a
	// transit-reject writes rejected ones off aSN, and a transit-cancel
	// returns what is still due to where it came from.
	TxTransfer       TxType = "transfer"
	TxASN            TxType = "asn"
	TxTransitReceive TxType = "transit-receive"
	TxTransitReject  TxType = "transit-reject"
	TxTransitCancel  TxType = "transit-cancel"

	// Allocations (contract §11), one entry per order line changed, with
	// the order's number and line in its details: a commit allocates lots
	// to a line (committed up), an uncommit releases committed units, a
	// pack turns committed units into packed ones, a ship issues a line's
	// packed and committed units from their lots (lot lines, inStock down),
	// and an order-release gives back every allocation of a line of an
	// order closed or canceled. Their figures carry the change to committed
	// and packed; those but ship change no lot, and name the lots in their
	// details.
	TxCommit       TxType = "commit"
	TxUncommit     TxType = "uncommit"
	TxPack         TxType = "pack"
	TxShip         TxType = "ship"
	TxOrderRelease TxType = "order-release"

	// TxAssemble records a work order's completion (contract §11) as one
	// entry of several items: its item the product, received as a new lot
	// (its first lot line); then every lot a component's units came from
	// (lot lines of the component's item, negative; figures take each
	// component's committed down by what was allocated); the order's number
	// and, per component line, the units consumed in its details.
	// (Completions before schema 15 wrote an entry per component line and
	// one for the products.)
	TxAssemble TxType = "assemble"
)

// TxTypes lists every transaction type, in the order documentation uses.
var TxTypes = []TxType{TxReceive, TxIssue, TxMove, TxHold, TxRelease, TxOrder, TxOrderClose, TxOrderCancel,
	TxTransfer, TxASN, TxTransitReceive, TxTransitReject, TxTransitCancel,
	TxCommit, TxUncommit, TxPack, TxShip, TxOrderRelease, TxAssemble}

// ParseTxType reads a transaction type in any letter case.
func ParseTxType(s string) (TxType, bool) {
	for _, t := range TxTypes {
		if strings.EqualFold(strings.TrimSpace(s), string(t)) {
			return t, true
		}
	}
	return "", false
}

package stockroom

import (
	"fmt"
	"time"
)

// Lot is stock of one item received at one time, at one place: a warehouse
// and a bin (spot) in it. Receive creates lots; issue empties them; move
// relocates them whole or splits part of them off.
type Lot struct {
	RecNo       int64      `json:"recNo"`
	PartNo      int64      `json:"partNo"`
	ShortID     string     `json:"shortID"`
	Description string     `json:"description"`
	Associate   string     `json:"associate"`
	Warehouse   string     `json:"warehouse"`
	WID         int64      `json:"wID"`
	Spot        string     `json:"spot"`
	Units       Units      `json:"units"`
	Received    time.Time  `json:"received"`
	Shipped     *time.Time `json:"shipped"`
	Serial      string     `json:"serial"`
	Serial2     string     `json:"serial2"`
	RFIDTag     string     `json:"rFIDTag"`
	Remark      string     `json:"remark"`
	Hold        bool       `json:"hold"`
	JobID       int64      `json:"jobID"`
	JobName     *string    `json:"jobName"`
	Active      bool       `json:"active"`
	Modified    time.Time  `json:"modified"`

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
// over the warehouses in a client's scope.
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

// Transaction types of the ledger.
const (
	TxReceive = "receive"
	TxIssue   = "issue"
	TxMove    = "move"
	TxHold    = "hold"
	TxRelease = "release"
)

// Draw is one lot's part in an issue or move.
type Draw struct {
	RecNo int64 `json:"recNo"`
	Units Units `json:"units"`
	// Remaining is what stays in the source lot.
	Remaining Units `json:"remaining"`
	// NewRecNo is the lot split off at the destination of a move; 0 when the
	// whole lot moved in place.
	NewRecNo int64 `json:"newRecNo"`
}

// Candidate is a lot that may be drawn from, in draw order.
type Candidate struct {
	RecNo int64
	Units Units
	Hold  bool
}

// PlanDraw decides which lots give how much for a request of want units,
// drawing from the candidates in the order given (oldest received first, then
// lowest recNo, as the store lists them). It returns ECONFLICT, naming the
// requested and available units, when the candidates hold too little; nothing
// is drawn then.
func PlanDraw(candidates []Candidate, want Units) ([]Draw, error) {
	var available Units
	for _, c := range candidates {
		available += c.Units
	}
	if want <= 0 || available < want {
		return nil, &Error{Code: ECONFLICT, Message: fmt.Sprintf(
			"Insufficient stock: %s units requested, %s available.", want, available)}
	}
	var draws []Draw
	left := want
	for _, c := range candidates {
		if left == 0 {
			break
		}
		if c.Units <= 0 {
			continue
		}
		take := min(c.Units, left)
		draws = append(draws, Draw{RecNo: c.RecNo, Units: take, Remaining: c.Units - take})
		left -= take
	}
	return draws, nil
}

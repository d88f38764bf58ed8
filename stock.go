package stockroom

import "time"

// ErrDiscontinued is the refusal to receive a discontinued item.
var ErrDiscontinued = &Error{Code: ECONFLICT, Message: "The item is discontinued and cannot be received."}

// Receipt is a validated receive, its item resolved: one new lot.
type Receipt struct {
	PartNo int64
	ReceiveRequest
}

// Withdrawal is a validated issue or move: units drawn from the candidate
// lots of one item in one warehouse.
type Withdrawal struct {
	Type   string // TxIssue or TxMove
	PartNo int64
	WID    int64
	Units  Units

	// Lot filters; zero values do not filter.
	Spot     string
	Serial   string
	Serial2  string
	RFIDTag  string
	RecNo    int64
	Received time.Time // a UTC day: lots received on it

	// Move destination.
	ToWID  int64
	ToSpot string
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
	ID         int64             `json:"id"`
	Type       string            `json:"type"`
	Time       time.Time         `json:"time"`
	ClientID   string            `json:"clientID"`
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
}

// TransactionLine is one lot's signed change in a transaction.
type TransactionLine struct {
	RecNo int64  `json:"recNo"`
	WID   int64  `json:"wid"`
	Spot  string `json:"spot"`
	Units Units  `json:"units"`
}

// LotFilter narrows a lot list.
type LotFilter struct {
	WID            int64 // 0: every warehouse in scope
	ItemShortID    string
	Spot           *string
	Serial         string
	Hold           *bool
	IncludeShipped bool
}

// StockFilter narrows a stock level list.
type StockFilter struct {
	WID         int64 // 0: summed over the warehouses in scope
	ItemShortID string
	IncludeZero bool
}

// TransactionFilter narrows the ledger.
type TransactionFilter struct {
	ItemShortID string
	WID         int64
	Type        string
}

// Discrepancy is one broken invariant found by the audit.
type Discrepancy struct {
	What string
}

package stockroom

// The answers of the write operations, as the API sends them and the SDK
// reads them: one definition for both sides.

// ReceiveResult is the answer to a receive: the ledger transaction and the
// new lot.
type ReceiveResult struct {
	TransactionID int64  `json:"transactionID"`
	Type          TxType `json:"type"`
	RecNo         int64  `json:"recNo"`
	Lot           Lot    `json:"lot"`
}

// DrawResult is the answer to an issue or a move: the ledger transaction and
// what each lot gave, in draw order.
type DrawResult struct {
	TransactionID int64  `json:"transactionID"`
	Type          TxType `json:"type"`
	// ItemID is the item as the request named it.
	ItemID string `json:"itemID"`
	WID    int64  `json:"wid"`
	// Owner is whose lots were drawn.
	Owner int64 `json:"owner"`
	// ToWID and ToSpot are a move's destination; absent for an issue.
	ToWID  *int64  `json:"toWid,omitempty"`
	ToSpot *string `json:"toSpot,omitempty"`
	Units  Units   `json:"units"`
	Lines  []Draw  `json:"lines"`
	// TransitID is the transit a transfer shipped (a move with shipToWid
	// and transitSlip); absent otherwise.
	TransitID *int64 `json:"transitID,omitempty"`
}

// HoldResult is the answer to a hold or a release: the lot as it is now.
type HoldResult struct {
	// TransactionID is the ledger entry of the change; null when the lot was
	// in the asked state already and nothing changed.
	TransactionID *int64 `json:"transactionID"`
	Type          TxType `json:"type"`
	RecNo         int64  `json:"recNo"`
	Lot           Lot    `json:"lot"`
}

// StatusResult is the small answer of updates and deletions.
type StatusResult struct {
	ShortID    string `json:"shortID,omitempty"`
	Alias      string `json:"alias,omitempty"`
	CategoryID int64  `json:"categoryID,omitempty"`
	Status     string `json:"status"`
}

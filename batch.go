package stockroom

import (
	"encoding/json"
	"fmt"
)

// MaxBatchOperations bounds the operations of one batch (contract §15):
// what a body of 1 MiB holds comfortably, and one transaction may carry.
const MaxBatchOperations = 1000

// BatchOp names the stock operation of one element of a batch: each is the
// endpoint of the same name under /Inventory.
type BatchOp string

// The operations a batch may hold.
const (
	OpReceive BatchOp = "receive"
	OpIssue   BatchOp = "issue"
	OpMove    BatchOp = "move"
	OpHold    BatchOp = "hold"
	OpRelease BatchOp = "release"
)

// BatchOps is every operation a batch may hold, in the contract's order.
var BatchOps = []BatchOp{OpReceive, OpIssue, OpMove, OpHold, OpRelease}

// BatchOperation is one element of a batch as a client sends it: the
// operation's name beside its endpoint's own body fields, in one object
// ({"op": "receive", "itemID": …}).
type BatchOperation struct {
	Op BatchOp
	// Body is the operation's request: a ReceiveRequest, IssueRequest,
	// MoveRequest or HoldRequest, as its endpoint takes it.
	Body any
}

// MarshalJSON writes the operation as one object: "op" first, then the
// fields of its body.
func (o BatchOperation) MarshalJSON() ([]byte, error) {
	body, err := json.Marshal(o.Body)
	if err != nil {
		return nil, err
	}
	if len(body) < 2 || body[0] != '{' {
		return nil, fmt.Errorf("batch operation %q: body is not an object", o.Op)
	}
	op, _ := json.Marshal(o.Op)
	out := append([]byte(`{"op":`), op...)
	if len(body) > 2 {
		out = append(out, ',')
	}
	return append(out, body[1:]...), nil
}

// BatchRequest is the body of POST /Inventory/Batch. Atomic (absent: true)
// makes the operations all or nothing, in one transaction.
type BatchRequest struct {
	Atomic     *bool            `json:"atomic,omitempty"`
	Operations []BatchOperation `json:"operations"`
}

// HoldRequest names the lot of a hold or a release.
type HoldRequest struct {
	RecNo int64 `json:"recno"`
}

// BatchAnswer is what one operation of a batch answered: the status and
// the body its endpoint would have answered with, a success or an error
// object.
type BatchAnswer struct {
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body"`
}

// BatchResult is the answer to a batch: one answer per operation, in the
// order sent.
type BatchResult struct {
	Atomic  bool          `json:"atomic"`
	Results []BatchAnswer `json:"results"`
}

// StockChange is one stock operation as the store carries it out, judged
// and resolved by the service: exactly one of Receipt, Withdrawal and Hold,
// with its ledger entry.
type StockChange struct {
	Receipt    *Receipt
	Withdrawal *Withdrawal
	Hold       *HoldChange
	// Check sees a hold's locked lot first and may refuse it.
	Check func(Lot) error
	Entry LedgerEntry
	// Status is what a success of the operation answers with, recorded in
	// a batch's answer (as IdempotencyKey.Status is for a request's).
	Status int
}

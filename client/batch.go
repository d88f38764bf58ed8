package client

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/stockroom/stockroom"
)

// A batch (POST /Inventory/Batch) sends many stock operations in one
// request: the root package's types, as the server reads them.
type (
	BatchOperation = stockroom.BatchOperation
	BatchRequest   = stockroom.BatchRequest
	BatchResult    = stockroom.BatchResult
	BatchAnswer    = stockroom.BatchAnswer
)

// ReceiveOp is a receipt in a batch.
func ReceiveOp(r ReceiveRequest) BatchOperation {
	return BatchOperation{Op: stockroom.OpReceive, Body: r}
}

// IssueOp is an issue in a batch.
func IssueOp(r IssueRequest) BatchOperation { return BatchOperation{Op: stockroom.OpIssue, Body: r} }

// MoveOp is a move in a batch.
func MoveOp(r MoveRequest) BatchOperation { return BatchOperation{Op: stockroom.OpMove, Body: r} }

// HoldOp puts lot recNo on hold in a batch.
func HoldOp(recNo int64) BatchOperation {
	return BatchOperation{Op: stockroom.OpHold, Body: stockroom.HoldRequest{RecNo: recNo}}
}

// ReleaseOp takes lot recNo off hold in a batch.
func ReleaseOp(recNo int64) BatchOperation {
	return BatchOperation{Op: stockroom.OpRelease, Body: stockroom.HoldRequest{RecNo: recNo}}
}

// Batch carries out up to 1,000 stock operations in one request, each
// held to its own endpoint's permission, scope and rules. Atomic (the
// default, Atomic nil) is all or nothing: the first refusal is an *Error
// with that operation's code and message, whose Details name it
// ("operations[3]"), and nothing changes. With Atomic false each operation
// commits on its own, and each BatchAnswer says how it went (see
// DecodeAnswer). The whole batch is applied once even when the call is
// retried (see WithIdempotencyKey).
func (c *Client) Batch(ctx context.Context, req BatchRequest) (*BatchResult, error) {
	var res stockroom.BatchResult
	if _, err := c.do(ctx, call{method: "POST", path: "Inventory/Batch", body: req}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// DecodeAnswer reads one operation's answer of a batch into v (a
// *ReceiveResult for a receive, a *DrawResult for an issue or a move, a
// *HoldResult for a hold or a release); an operation that was refused is
// its *Error instead.
func DecodeAnswer(a BatchAnswer, v any) error {
	if a.Status < 200 || a.Status > 299 {
		return errorFrom(a.Status, http.Header{}, a.Body)
	}
	return json.Unmarshal(a.Body, v)
}

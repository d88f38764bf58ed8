package stockroom

import (
	"fmt"
	"time"
)

// Idempotency keys: a POST repeated with the same Idempotency-Key by the same
// client, within IdempotencyTTL, gets the first answer again and changes
// nothing, whether that answer was a success or a refusal.
const (
	// IdempotencyTTL is how long a key is remembered.
	IdempotencyTTL = 24 * time.Hour
	// MaxIdempotencyKeyLen bounds the header's value.
	MaxIdempotencyKeyLen = 255
)

// IdempotencyKey is a client's Idempotency-Key on a write, carried down
// explicitly to the transaction that carries the write out. That transaction
// first claims the key: if the key has an answer already, it changes nothing
// and the answer is replayed; if another request holding the key is still
// running, it is refused. Otherwise it records its own answer in the same
// transaction as its change, so an answered request always replays, even
// when the answer was lost on its way to the client.
type IdempotencyKey struct {
	ClientID string
	Key      string
	// RequestHash identifies the request: a repeat must have the same.
	RequestHash string
	// Time is when the request arrived; the key expires IdempotencyTTL later.
	Time time.Time
	// Answer renders the answer to record from the result of the operation
	// that succeeded. The HTTP layer sets it: the answer is its business.
	Answer func(result any) Reply
	// Recorded is the answer recorded with the change, once committed.
	Recorded *Reply
}

// Reply is an answer as recorded for an idempotency key.
type Reply struct {
	Status      int
	ContentType string
	Location    string
	Body        []byte
}

// Replayed is the outcome of a request whose idempotency key was answered
// before: Reply is that answer, to be given again.
type Replayed struct {
	Reply Reply
}

// Error implements error; a replay is returned as one so that it stops the
// operation before it changes anything.
func (r *Replayed) Error() string {
	return fmt.Sprintf("idempotency key answered before with status %d", r.Reply.Status)
}

// Refusals of a repeated key.
var (
	// ErrKeyInProgress: the first request with the key is still running;
	// retrying shortly gets its answer.
	ErrKeyInProgress = &Error{Code: ECONFLICT, Message: "A request with this Idempotency-Key is still in progress; retry later."}
	// ErrKeyMismatch: the key was used with a different request.
	ErrKeyMismatch = &Error{Code: EIDEMPOTENCY, Message: "This Idempotency-Key was used with a different request."}
)

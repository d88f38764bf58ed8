package stockroom

import (
	"bytes"
	"encoding/json"
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
	// RequestHash identifies the request: a repeat must have the same. It
	// is made from Method, Path and Body by the service, once the caller's
	// permission is checked: until then it is empty, and Body is kept.
	RequestHash string
	Method      string
	Path        string
	Body        []byte
	// Time is when the request arrived; the key expires IdempotencyTTL later.
	Time time.Time
	// Status is what a success of the request answers with, set by the
	// layer that answers it before the write runs: the store records it,
	// with the write's result as MarshalAnswer encodes it, as the key's
	// answer. Data, not a callback: the store never calls up into the
	// layer that renders answers.
	Status int
	// Recorded is the answer recorded with the change, once committed.
	Recorded *RecordedAnswer
}

// RecordedAnswer is an answer as recorded for an idempotency key and given
// again, byte for byte, to every repeat of its request: the status, and the
// body, JSON. Whatever else the answer carries (its headers) the layer that
// writes it derives from these.
type RecordedAnswer struct {
	Status int
	Body   []byte
}

// MarshalAnswer is the one JSON form of an answer's body, as the server
// writes a result and the store records it for an idempotency key: HTML
// characters as they are, and a final newline. The first answer and its
// replays are thus the same bytes.
func MarshalAnswer(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encoding a %T answer: %w", v, err)
	}
	return b.Bytes(), nil
}

// Replayed is the outcome of a request whose idempotency key was answered
// before: Answer is that answer, to be given again.
type Replayed struct {
	Answer RecordedAnswer
}

// Error implements error; a replay is returned as one so that it stops the
// operation before it changes anything.
func (r *Replayed) Error() string {
	return fmt.Sprintf("idempotency key answered before with status %d", r.Answer.Status)
}

// Refusals of a repeated key.
var (
	// ErrKeyInProgress: the first request with the key is still running;
	// retrying shortly gets its answer.
	ErrKeyInProgress = &Error{Code: ECONFLICT, Message: "A request with this Idempotency-Key is still in progress; retry later."}
	// ErrKeyMismatch: the key was used with a different request.
	ErrKeyMismatch = &Error{Code: EIDEMPOTENCY, Message: "This Idempotency-Key was used with a different request."}
)

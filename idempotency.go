package stockroom

import "time"

// Idempotency keys: a POST repeated with the same Idempotency-Key by the same
// client, within IdempotencyTTL, returns the first response and changes
// nothing.
const (
	// IdempotencyTTL is how long a key is remembered.
	IdempotencyTTL = 24 * time.Hour
	// IdempotencyLease is how long a running request holds its key before a
	// repeat may presume it died. It exceeds the server's request timeout.
	IdempotencyLease = 90 * time.Second
	// MaxIdempotencyKeyLen bounds the header's value.
	MaxIdempotencyKeyLen = 255
)

// IdempotencyRecord is a stored idempotency key and, once done, the response
// of its request.
type IdempotencyRecord struct {
	RequestHash string
	Done        bool
	Applied     bool
	LeaseUntil  time.Time
	Status      int
	ContentType string
	Location    string
	Body        []byte
}

// Outcomes of claiming an idempotency key.
const (
	ClaimNew      = iota // the caller runs the request
	ClaimReplay          // the stored response is to be returned again
	ClaimMismatch        // the key was used with a different request
	ClaimRunning         // the first request is still running
	ClaimLost            // the first request was applied, but its response was never stored
)

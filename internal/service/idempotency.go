package service

import (
	"context"
	"strings"

	"github.com/stockroom/stockroom"
)

// Idempotency-Key handling, as contract §7 describes it. The HTTP layer
// claims a key before running a POST, runs it under ApplyingContext, and
// stores or releases the outcome.

// ValidIdempotencyKey reports whether a header value can be a key: 1 to 255
// printable ASCII characters.
func ValidIdempotencyKey(key string) bool {
	if key == "" || len(key) > stockroom.MaxIdempotencyKeyLen {
		return false
	}
	return !strings.ContainsFunc(key, func(r rune) bool { return r < 0x21 || r > 0x7e })
}

// ClaimIdempotencyKey claims a key for the principal's request with the given
// hash, or reports what became of the first request with the key.
func (s *Service) ClaimIdempotencyKey(ctx context.Context, p *stockroom.Principal, key, hash string) (int, stockroom.IdempotencyRecord, error) {
	return s.store.ClaimIdempotencyKey(ctx, p.ClientID, key, hash, s.now(), stockroom.IdempotencyLease, stockroom.IdempotencyTTL)
}

// ApplyingContext returns the context to run a claimed request in: whatever
// it changes records, in the same transaction, that the key was applied.
func (s *Service) ApplyingContext(ctx context.Context, p *stockroom.Principal, key string) context.Context {
	return s.store.WithIdempotencyKey(ctx, p.ClientID, key)
}

// CompleteIdempotencyKey stores the response of a claimed request.
func (s *Service) CompleteIdempotencyKey(ctx context.Context, p *stockroom.Principal, key string, status int, contentType, location string, body []byte) error {
	return s.store.CompleteIdempotencyKey(ctx, p.ClientID, key, status, contentType, location, body)
}

// ReleaseIdempotencyKey forgets the claim of a request that failed without
// changing anything, so that a retry runs it again.
func (s *Service) ReleaseIdempotencyKey(ctx context.Context, p *stockroom.Principal, key string) error {
	return s.store.ReleaseIdempotencyKey(ctx, p.ClientID, key)
}

// DeleteExpiredIdempotencyKeys removes keys older than their time to live.
func (s *Service) DeleteExpiredIdempotencyKeys(ctx context.Context) (int64, error) {
	return s.store.DeleteExpiredIdempotencyKeys(ctx, s.now())
}

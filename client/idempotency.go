package client

import (
	"context"
	"crypto/rand"
)

type idempotencyKeyCtx struct{}

// WithIdempotencyKey returns a context under which a POST call sends key as
// its Idempotency-Key instead of a random one. Without it each call gets a
// fresh key, which protects the retries inside that call. Derive a key from
// your own record (say "po-4711-line-1") when a later call, or a later run of
// your program after a crash, may send the same request again: within 24
// hours the server applies it once and answers repeats with the first
// response. Use a key for one request only; the same key with another body is
// refused with 422 "idempotency_mismatch".
func WithIdempotencyKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, idempotencyKeyCtx{}, key)
}

// idempotencyKey returns the caller's key from ctx, or a new random one (130
// bits, so keys of different calls never meet).
func idempotencyKey(ctx context.Context) string {
	if key, ok := ctx.Value(idempotencyKeyCtx{}).(string); ok && key != "" {
		return key
	}
	return rand.Text()
}

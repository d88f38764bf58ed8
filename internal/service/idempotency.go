package service

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
)

// keyStore keeps the answers of idempotency keys. The answer of a request
// that changed something is recorded by the store's write itself, in the
// same transaction; RecordAnswer records a refusal, which changed nothing.
type keyStore interface {
	RecordAnswer(ctx context.Context, key *stockroom.IdempotencyKey, ans stockroom.RecordedAnswer) error
	DeleteExpiredIdempotencyKeys(ctx context.Context, now time.Time) (int64, error)
}

// NewIdempotencyKey makes the key of a request that carries an
// Idempotency-Key header: 1 to 255 printable ASCII characters, else
// bad_request. It keeps the request as it came (method, path and body); the
// service makes the request's hash from it only once the caller's permission
// is checked (admit), so that a caller without the right cannot have the
// server do that work (contract §14). Two requests are the same request
// when they have the same method and path and bodies that are the same JSON
// value: key order, white space, the letter case of field names (which the
// API ignores) and the spelling of numbers (1, 1.0, 1e0) do not matter.
func NewIdempotencyKey(p *stockroom.Principal, header, method, path string, body []byte) (*stockroom.IdempotencyKey, error) {
	if header == "" || len(header) > stockroom.MaxIdempotencyKeyLen ||
		strings.ContainsFunc(header, func(r rune) bool { return r < 0x21 || r > 0x7e }) {
		return nil, stockroom.Errorf(stockroom.EBADREQUEST, "Idempotency-Key must be 1 to 255 printable ASCII characters.")
	}
	return &stockroom.IdempotencyKey{ClientID: p.ClientID, Key: header, Method: method, Path: path, Body: body}, nil
}

// hashRequest makes the key's RequestHash from the request it came with, in
// a time linear in the body's length (see canonicalJSON), and lets the body
// go. A key whose hash is made already keeps it.
func hashRequest(key *stockroom.IdempotencyKey) {
	if key.RequestHash != "" {
		return
	}
	h := sha256.New()
	w := bufio.NewWriter(h)
	w.WriteString(key.Method + " " + key.Path + "\n")
	writeCanonical(w, key.Body)
	w.Flush()
	key.RequestHash, key.Body = hex.EncodeToString(h.Sum(nil)), nil
}

// RecordRefusal records a refusal as the answer of the principal's keyed
// request. When the key has an answer already, because a repeat of the
// request ran meanwhile, that answer comes back as *stockroom.Replayed, to
// be given instead: every repeat gets one and the same answer. A key the
// service never admitted (its request was refused by the permission check,
// or before it) has no hash and records nothing: a refused request stores
// nothing (contract §14).
func (s *Service) RecordRefusal(ctx context.Context, key *stockroom.IdempotencyKey, ans stockroom.RecordedAnswer) error {
	if key.RequestHash == "" {
		return nil
	}
	if key.Time.IsZero() {
		key.Time = s.now()
	}
	return s.db.RecordAnswer(ctx, key, ans)
}

// DeleteExpiredIdempotencyKeys removes keys older than their time to live.
func (s *Service) DeleteExpiredIdempotencyKeys(ctx context.Context) (int64, error) {
	return s.db.DeleteExpiredIdempotencyKeys(ctx, s.now())
}

// IsReplay reports whether err is the replay of an answer given before.
func IsReplay(err error) (*stockroom.Replayed, bool) {
	return errors.AsType[*stockroom.Replayed](err)
}

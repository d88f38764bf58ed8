package service

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
)

// keyStore keeps the answers of idempotency keys. The answer of a request
// that changed something is recorded by the store's write itself, in the
// same transaction; RecordReply records a refusal, which changed nothing.
type keyStore interface {
	RecordReply(ctx context.Context, key *stockroom.IdempotencyKey, reply stockroom.Reply) error
	DeleteExpiredIdempotencyKeys(ctx context.Context, now time.Time) (int64, error)
}

// NewIdempotencyKey makes the key of a request that carries an
// Idempotency-Key header: 1 to 255 printable ASCII characters, else
// bad_request. Two requests are the same request when they have the same
// method and path and bodies that are the same JSON value: key order, white
// space, the letter case of field names (which the API ignores) and the
// spelling of numbers (1, 1.0, 1e0) do not matter.
func NewIdempotencyKey(p *stockroom.Principal, header, method, path string, body []byte) (*stockroom.IdempotencyKey, error) {
	if header == "" || len(header) > stockroom.MaxIdempotencyKeyLen ||
		strings.ContainsFunc(header, func(r rune) bool { return r < 0x21 || r > 0x7e }) {
		return nil, stockroom.Errorf(stockroom.EBADREQUEST, "Idempotency-Key must be 1 to 255 printable ASCII characters.")
	}
	h := sha256.New()
	h.Write([]byte(method + " " + path + "\n"))
	h.Write(canonicalJSON(body))
	return &stockroom.IdempotencyKey{ClientID: p.ClientID, Key: header, RequestHash: hex.EncodeToString(h.Sum(nil))}, nil
}

// canonicalJSON writes a JSON body in one canonical form; a body that is not
// JSON is kept as it is, marked so that it cannot equal any canonical form.
func canonicalJSON(body []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return append([]byte("raw\x00"), body...)
	}
	var b bytes.Buffer
	writeCanonical(&b, v)
	return b.Bytes()
}

func writeCanonical(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		byKey := make(map[string]any, len(x))
		for k, val := range x {
			lk := strings.ToLower(k)
			keys = append(keys, lk)
			byKey[lk] = val
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range slices.Compact(keys) {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			writeCanonical(b, byKey[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCanonical(b, e)
		}
		b.WriteByte(']')
	case json.Number:
		if r, ok := new(big.Rat).SetString(string(x)); ok && len(x) <= 64 {
			b.WriteString(r.RatString())
		} else {
			b.WriteString(string(x))
		}
	default:
		vb, _ := json.Marshal(x)
		b.Write(vb)
	}
}

// RecordRefusal records a refusal as the answer of the principal's keyed
// request. When the key has an answer already, because a repeat of the
// request ran meanwhile, that answer comes back as *stockroom.Replayed, to
// be given instead: every repeat gets one and the same answer.
func (s *Service) RecordRefusal(ctx context.Context, key *stockroom.IdempotencyKey, reply stockroom.Reply) error {
	if key.Time.IsZero() {
		key.Time = s.now()
	}
	return s.db.RecordReply(ctx, key, reply)
}

// DeleteExpiredIdempotencyKeys removes keys older than their time to live.
func (s *Service) DeleteExpiredIdempotencyKeys(ctx context.Context) (int64, error) {
	return s.db.DeleteExpiredIdempotencyKeys(ctx, s.now())
}

// IsReplay reports whether err is the replay of an answer given before.
func IsReplay(err error) (*stockroom.Replayed, bool) {
	return errors.AsType[*stockroom.Replayed](err)
}

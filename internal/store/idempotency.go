package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/stockroom/stockroom"
)

// ClaimIdempotencyKey claims key for a request with the given hash, or
// reports what became of an earlier request with the same key. A claim older
// than ttl is forgotten; a running claim whose lease has passed, and which was
// not applied, is taken over (its request died before committing).
func (db *DB) ClaimIdempotencyKey(ctx context.Context, clientID, key, hash string, now time.Time, lease, ttl time.Duration) (int, stockroom.IdempotencyRecord, error) {
	var (
		outcome int
		rec     stockroom.IdempotencyRecord
	)
	err := db.inWriteTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `
			INSERT INTO idempotency_keys (client_id, key, request_hash, done, applied, lease_until, status,
				content_type, location, body, created, expires)
			VALUES ($1, $2, $3, $4, $4, $5, 0, '', '', $6, $7, $8)
			ON CONFLICT (client_id, key) DO NOTHING`,
			clientID, key, hash, false, micros(now.Add(lease)), []byte{}, micros(now), micros(now.Add(ttl)))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			outcome = stockroom.ClaimNew
			return err
		}
		var leaseUntil, expires int64
		err = tx.QueryRowContext(ctx, `
			SELECT request_hash, done, applied, lease_until, status, content_type, location, body, expires
			FROM idempotency_keys
			WHERE client_id = $1 AND key = $2`+db.forUpdate(), clientID, key).Scan(
			&rec.RequestHash, &rec.Done, &rec.Applied, &leaseUntil, &rec.Status, &rec.ContentType, &rec.Location, &rec.Body, &expires)
		if err != nil {
			return err
		}
		rec.LeaseUntil = fromMicros(leaseUntil)
		takeOver := micros(now) >= expires || (!rec.Done && !rec.Applied && micros(now) >= leaseUntil)
		switch {
		case takeOver:
			outcome = stockroom.ClaimNew
			_, err = tx.ExecContext(ctx, `
				UPDATE idempotency_keys SET
					request_hash = $3, done = $4, applied = $4, lease_until = $5, status = 0,
					content_type = '', location = '', body = $6, created = $7, expires = $8
				WHERE client_id = $1 AND key = $2`,
				clientID, key, hash, false, micros(now.Add(lease)), []byte{}, micros(now), micros(now.Add(ttl)))
			return err
		case rec.RequestHash != hash:
			outcome = stockroom.ClaimMismatch
		case rec.Done:
			outcome = stockroom.ClaimReplay
		case rec.Applied && micros(now) >= leaseUntil:
			outcome = stockroom.ClaimLost
		default:
			outcome = stockroom.ClaimRunning
		}
		return nil
	})
	return outcome, rec, err
}

// CompleteIdempotencyKey stores the response of a claimed request.
func (db *DB) CompleteIdempotencyKey(ctx context.Context, clientID, key string, status int, contentType, location string, body []byte) error {
	return db.inWriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `
			UPDATE idempotency_keys SET done = $3, status = $4, content_type = $5, location = $6, body = $7
			WHERE client_id = $1 AND key = $2`, clientID, key, true, status, contentType, location, body)
		return err
	})
}

// ReleaseIdempotencyKey forgets a claim whose request failed without being
// applied, so a retry runs it afresh.
func (db *DB) ReleaseIdempotencyKey(ctx context.Context, clientID, key string) error {
	return db.inWriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `
			DELETE FROM idempotency_keys
			WHERE client_id = $1 AND key = $2 AND NOT applied`, clientID, key)
		return err
	})
}

// DeleteExpiredIdempotencyKeys removes keys past their time and returns how
// many went.
func (db *DB) DeleteExpiredIdempotencyKeys(ctx context.Context, now time.Time) (int64, error) {
	var n int64
	err := db.inWriteTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM idempotency_keys WHERE expires < $1`, micros(now))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}

// idemKey is the context key of a claimed idempotency key.
type idemKey struct{}

type idemClaim struct{ clientID, key string }

// WithIdempotencyKey returns a context under which every write transaction of
// this store also marks the claimed key as applied, in that transaction. The
// HTTP layer wraps a request with a claimed key in it, so whether the request
// changed anything is recorded atomically with the change.
func (db *DB) WithIdempotencyKey(ctx context.Context, clientID, key string) context.Context {
	return context.WithValue(ctx, idemKey{}, idemClaim{clientID, key})
}

// markApplied records, inside tx, that the context's claimed request has
// changed data.
func markApplied(ctx context.Context, tx *sql.Tx) error {
	c, ok := ctx.Value(idemKey{}).(idemClaim)
	if !ok {
		return nil
	}
	_, err := tx.ExecContext(ctx, `
		UPDATE idempotency_keys SET applied = $3
		WHERE client_id = $1 AND key = $2`, c.clientID, c.key, true)
	return err
}

package store

import (
	"context"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/stockroom/stockroom"
)

// Idempotency keys live in the transaction of the request they belong to: a
// row exists only for a request that was answered, and it is written in the
// same transaction as the change it answers. So there is nothing to release
// when a request fails or its server dies: its transaction, row and lock
// vanish together.

// keyLockClass is the first half of the PostgreSQL advisory lock a request
// takes on its key, the class of Stockroom's idempotency locks; the second
// half is a hash of the client id and key. A collision of hashes only makes
// an unrelated request wait for a retry.
const keyLockClass int32 = 0x53524b31 // "SRK1"

func keyLockID(key *stockroom.IdempotencyKey) int32 {
	h := fnv.New32a()
	h.Write([]byte(key.ClientID))
	h.Write([]byte{0})
	h.Write([]byte(key.Key))
	return int32(h.Sum32())
}

// claimKey queues the claim of a key at the start of a transaction and the
// check of its outcome, which runs once the claim has been sent. On
// PostgreSQL the claim is a transaction-scoped advisory lock: a repeat
// arriving while the first request runs is refused at once instead of
// waiting, and the lock is released by the commit or rollback, or by the
// database when the holder's session dies, never by a timer. SQLite needs no
// lock: its write transactions run one at a time.
func (t *Tx) claimKey(key *stockroom.IdempotencyKey) {
	locked := true
	if t.Postgres() {
		t.QueryRow(nil, `SELECT pg_try_advisory_xact_lock($1::integer, $2::integer)`,
			[]any{keyLockClass, keyLockID(key)}, &locked)
	}
	var (
		found  bool
		hash   string
		answer stockroom.RecordedAnswer
	)
	t.QueryRow(&found, `
		SELECT
			request_hash,
			status,
			body
		FROM idempotency_keys
		WHERE client_id = $1 AND key = $2 AND expires > $3`,
		[]any{key.ClientID, key.Key, micros(key.Time)},
		&hash, &answer.Status, &answer.Body)
	t.Check(func() error {
		switch {
		case !locked:
			return stockroom.ErrKeyInProgress
		case !found:
			return nil
		case hash != key.RequestHash:
			return stockroom.ErrKeyMismatch
		}
		return &stockroom.Replayed{Answer: answer}
	})
}

// answerOf is the answer a keyed request records when its write succeeds
// with result: the status the layer above set on the key, and the result as
// JSON. It is data that layer gave: the store renders nothing of HTTP.
func answerOf(key *stockroom.IdempotencyKey, result any) (*stockroom.RecordedAnswer, error) {
	if key.Status == 0 {
		return nil, fmt.Errorf("idempotency key %q has no status to record", key.Key)
	}
	body, err := stockroom.MarshalAnswer(result)
	if err != nil {
		return nil, err
	}
	return &stockroom.RecordedAnswer{Status: key.Status, Body: body}, nil
}

// recordAnswer queues the storing of the key's answer. A row of the same key
// can only be an expired one here (a live one stopped the transaction at its
// claim), and is replaced. Every answer is JSON: content_type and location
// are not read (a replay's headers are derived from its status and body by
// the layer that writes it); they are written as the servers that read them
// wrote them, Location but once.
func (t *Tx) recordAnswer(key *stockroom.IdempotencyKey, answer stockroom.RecordedAnswer) {
	t.Exec(`
		INSERT INTO idempotency_keys (
			client_id,
			key,
			request_hash,
			status,
			content_type,
			location,
			body,
			created,
			expires
		)
		VALUES ($1, $2, $3, $4, 'application/json; charset=utf-8', '', $5, $6, $7)
		ON CONFLICT (client_id, key) DO UPDATE SET
			request_hash = excluded.request_hash,
			status = excluded.status,
			content_type = excluded.content_type,
			location = excluded.location,
			body = excluded.body,
			created = excluded.created,
			expires = excluded.expires
		WHERE idempotency_keys.expires <= excluded.created`,
		key.ClientID, key.Key, key.RequestHash, answer.Status, answer.Body,
		micros(key.Time), micros(key.Time.Add(stockroom.IdempotencyTTL)))
}

// RecordAnswer records ans, a refusal, as the answer of key's request, in a
// transaction of its own: the refused operation changed nothing. When the
// key has an answer already (a repeat that ran meanwhile), nothing is
// recorded and that answer comes back as *stockroom.Replayed, for the caller
// to give instead, so that every repeat gets one answer.
func (db *DB) RecordAnswer(ctx context.Context, key *stockroom.IdempotencyKey, ans stockroom.RecordedAnswer) error {
	k := *key
	return db.runWrite(ctx, write{key: &k, fn: func(*Tx) (any, error) { return nil, nil }, given: &ans})
}

// DeleteExpiredIdempotencyKeys removes keys past their time and returns how
// many went.
func (db *DB) DeleteExpiredIdempotencyKeys(ctx context.Context, now time.Time) (int64, error) {
	var n int64
	err := db.updateNoResult(ctx, func(tx *Tx) error {
		tx.Query(func(r rows) error {
			for r.Next() {
				n++
			}
			return nil
		}, `
			DELETE FROM idempotency_keys
			WHERE expires < $1
			RETURNING 1`, micros(now))
		return tx.Flush()
	})
	return n, err
}

// HoldKeyForTest takes the lock a running request holds on an idempotency
// key, on a connection of its own, and returns the function that drops that
// connection the way a server that dies does. PostgreSQL only; the behaviour
// suite uses it to prove that a dead request's key is free at once. Nothing
// else should.
func (db *DB) HoldKeyForTest(ctx context.Context, clientID, key string) (func(), error) {
	if db.engine != Postgres {
		return nil, fmt.Errorf("only PostgreSQL locks keys")
	}
	conn, err := db.write.Conn(ctx)
	if err != nil {
		return nil, err
	}
	var pc *pgx.Conn
	err = conn.Raw(func(driverConn any) error {
		pc = driverConn.(*stdlib.Conn).Conn()
		k := &stockroom.IdempotencyKey{ClientID: clientID, Key: key}
		if _, err := pc.Exec(ctx, "BEGIN"); err != nil {
			return err
		}
		_, err := pc.Exec(ctx, `SELECT pg_advisory_xact_lock($1::integer, $2::integer)`, keyLockClass, keyLockID(k))
		return err
	})
	if err != nil {
		conn.Close()
		return nil, err
	}
	return func() {
		_ = pc.PgConn().Conn().Close() // the socket, without a word to the server
		_ = conn.Close()
	}, nil
}

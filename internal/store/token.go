package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/stockroom/stockroom"
)

// CreateToken stores the hash of a newly issued token. The client's expired
// tokens are removed in the same transaction, so the table holds only what
// can still be used.
func (db *DB) CreateToken(ctx context.Context, hash, clientID string, created, expires time.Time) error {
	return db.updateNoResult(ctx, func(tx *Tx) error {
		tx.Exec(`
			DELETE FROM tokens
			WHERE client_id = $1 AND expires <= $2`, clientID, micros(created))
		tx.Exec(`
			INSERT INTO tokens (hash, client_id, created, expires)
			VALUES ($1, $2, $3, $4)`, hash, clientID, micros(created), micros(expires))
		return nil
	})
}

// FindPrincipalByToken returns the client behind an unexpired token of an
// enabled client, or ENOTFOUND.
func (db *DB) FindPrincipalByToken(ctx context.Context, hash string, now time.Time) (*stockroom.Principal, error) {
	var expires int64
	c, err := scanClient(db.read.QueryRowContext(ctx, `
		SELECT `+prefixed("c", clientColumns)+`, t.expires
		FROM tokens t
		JOIN clients c ON c.id = t.client_id
		WHERE t.hash = $1
		  AND t.expires > $2
		  AND c.enabled`, hash, micros(now)), &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, stockroom.ErrNotFound
	} else if err != nil {
		return nil, db.classify(err)
	}
	if err := db.loadScopes(ctx, db.read, []*stockroom.Client{c}); err != nil {
		return nil, db.classify(err)
	}
	p := c.Principal()
	p.Expires = fromMicros(expires)
	return p, nil
}

// DeleteToken revokes one token: signing out of the console.
func (db *DB) DeleteToken(ctx context.Context, hash string) error {
	return db.updateNoResult(ctx, func(tx *Tx) error {
		tx.Exec(`
			DELETE FROM tokens
			WHERE hash = $1`, hash)
		return nil
	})
}

package store

import (
	"context"

	"github.com/stockroom/stockroom"
)

const reasonCodeColumns = `
	code,
	description,
	direction,
	created`

var reasonCodeSort = sortSpec{
	fields:   map[string]string{"code": "code", "description": "description", "direction": "direction"},
	defField: "code",
	key:      "code",
}

func scanReasonCode(row scanner) (stockroom.ReasonCode, error) {
	var (
		rc      stockroom.ReasonCode
		created int64
	)
	err := row.Scan(&rc.Code, &rc.Description, &rc.Direction, &created)
	rc.Created = fromMicros(created)
	return rc, err
}

// CreateReasonCode stores a new reason code. A taken code is
// stockroom.ErrDuplicate.
func (db *DB) CreateReasonCode(ctx context.Context, rc stockroom.ReasonCode) error {
	return db.updateNoResult(ctx, func(tx *Tx) error {
		tx.insertReasonCode(rc, false)
		err := tx.Flush()
		if isUniqueViolation(err) {
			return stockroom.ErrDuplicate
		}
		return err
	})
}

// insertReasonCode queues the insertion of rc. keepExisting leaves a code
// that exists as it is.
func (t *Tx) insertReasonCode(rc stockroom.ReasonCode, keepExisting bool) {
	t.Exec(`
		INSERT INTO reason_codes (`+reasonCodeColumns+`)
		VALUES ($1, $2, $3, $4)`+onConflictNothing("code", keepExisting),
		rc.Code, rc.Description, string(rc.Direction), micros(rc.Created))
}

// FindReasonCode returns one reason code, or stockroom.ErrNotFound.
func (db *DB) FindReasonCode(ctx context.Context, code int64) (stockroom.ReasonCode, error) {
	return queryOne(ctx, db, scanReasonCode, `
		SELECT `+reasonCodeColumns+`
		FROM reason_codes
		WHERE code = $1`, code)
}

// ListReasonCodes returns a page of every reason code.
func (db *DB) ListReasonCodes(ctx context.Context, req stockroom.PageRequest) (stockroom.Page[stockroom.ReasonCode], error) {
	q := pageQuery{from: "reason_codes", columns: reasonCodeColumns, sort: reasonCodeSort}
	return queryPage(ctx, db, q, req, scanReasonCode)
}

// onConflictNothing is the clause that makes an insert skip an existing key.
func onConflictNothing(key string, skip bool) string {
	if !skip {
		return ""
	}
	return " ON CONFLICT (" + key + ") DO NOTHING"
}

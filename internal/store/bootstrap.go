package store

import (
	"context"
	"strconv"

	"github.com/stockroom/stockroom"
)

// RunBootstrap gives a fresh database its first warehouse, reason codes and
// administrator client, exactly once in the life of a database, even when
// several instances start at the same moment: a marker row is claimed in the
// same transaction, and whoever fails to claim it does nothing. It reports
// whether this call did the work. Existing warehouses and reason codes with
// the same ids are left as they are.
func (db *DB) RunBootstrap(ctx context.Context, b stockroom.Bootstrap) (bool, error) {
	done, now, wh := false, b.Time, b.Warehouse
	err := db.updateNoResult(ctx, func(tx *Tx) error {
		tx.QueryRow(&done, `
			INSERT INTO meta (key, value) VALUES ('bootstrapped', $1)
			ON CONFLICT (key) DO NOTHING
			RETURNING key`, []any{strconv.FormatInt(micros(now), 10)}, new(string))
		if err := tx.Flush(); err != nil || !done {
			return err
		}
		wh.Created, wh.Modified = now, now
		tx.insertWarehouse(wh, true)
		for _, rc := range b.ReasonCodes {
			rc.Created = now
			tx.insertReasonCode(rc, true)
		}
		tx.insertClient(b.Admin, b.SecretHash)
		return nil
	})
	return done, err
}

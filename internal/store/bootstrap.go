package store

import (
	"context"
	"database/sql"
	"strconv"
	"time"

	"github.com/stockroom/stockroom"
)

// RunBootstrap gives a fresh database its first warehouse, reason codes and
// administrator client, exactly once in the life of a database, even when
// several instances start at the same moment: a marker row is claimed in the
// same transaction, and whoever fails to claim it does nothing. It reports
// whether this call did the work. Existing warehouses and reason codes with
// the same ids are left as they are.
func (db *DB) RunBootstrap(ctx context.Context, wh stockroom.Warehouse, codes []stockroom.ReasonCode, admin *stockroom.Client, secretHash string, now time.Time) (bool, error) {
	done := false
	err := db.inWriteTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `
			INSERT INTO meta (key, value) VALUES ('bootstrapped', $1)
			ON CONFLICT (key) DO NOTHING`, strconv.FormatInt(micros(now), 10))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err
		}
		wh.Created, wh.Modified = now, now
		if err := insertWarehouse(ctx, tx, wh, true); err != nil {
			return err
		}
		for _, rc := range codes {
			rc.Created = now
			if err := insertReasonCode(ctx, tx, rc, true); err != nil {
				return err
			}
		}
		if err := insertClient(ctx, tx, admin, secretHash); err != nil {
			return err
		}
		done = true
		return nil
	})
	return done, err
}

package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/stockroom/stockroom"
)

// EventHead returns the feed's position now: the cursor after the last
// event a reader can be given, so that a reader starting there meets every
// event committed later and none before (the console follows the feed from
// the moment a screen opens). On PostgreSQL that is the last event below the
// horizon (store/event.go): an event above it has a larger xid, so it comes
// after the cursor returned, never before it.
func (db *DB) EventHead(ctx context.Context) (stockroom.EventCursor, error) {
	var c stockroom.EventCursor
	var err error
	if db.engine == SQLite {
		err = db.read.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM events`).Scan(&c.Seq)
	} else {
		err = db.read.QueryRowContext(ctx, `
			SELECT CAST(xid AS TEXT), seq
			FROM events
			WHERE xid < pg_snapshot_xmin(pg_current_snapshot())
			ORDER BY xid DESC, seq DESC
			LIMIT 1`).Scan((*xidText)(&c.XID), &c.Seq)
		if errors.Is(err, sql.ErrNoRows) {
			return stockroom.EventCursor{}, nil
		}
	}
	return c, db.classify(err)
}

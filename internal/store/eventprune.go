package store

import (
	"context"
	"strconv"
	"time"

	"github.com/stockroom/stockroom"
)

// Pruning the feed: events older than the retention go, oldest first in
// feed order, a bounded batch per transaction, and events_pruned keeps the
// position of the last one gone, so that a cursor before it is told it
// expired (410) rather than silently skipping what was pruned.

// PruneEvents deletes the events appended before cutoff, at most batch per
// transaction, until none is left, and returns how many it deleted. Only
// readable events go (below the horizon on PostgreSQL), and only a prefix
// of the feed: an event kept is never before one deleted.
func (db *DB) PruneEvents(ctx context.Context, cutoff time.Time, batch int) (int, error) {
	total := 0
	for {
		var n int
		err := db.updateNoResult(ctx, func(t *Tx) error {
			var err error
			n, err = t.pruneEvents(cutoff, batch)
			return err
		})
		total += n
		if err != nil || n < batch {
			return total, err
		}
	}
}

// pruneEvents deletes one batch.
func (t *Tx) pruneEvents(cutoff time.Time, batch int) (int, error) {
	horizon, order := "", "seq"
	if t.Postgres() {
		horizon, order = "WHERE xid < pg_snapshot_xmin(pg_current_snapshot())", "xid, seq"
	}
	type row struct {
		at int64
		c  stockroom.EventCursor
	}
	var oldest []row
	t.Query(func(rs rows) error {
		for rs.Next() {
			var (
				r   row
				xid xidText
			)
			if err := rs.Scan(&xid, &r.c.Seq, &r.at); err != nil {
				return err
			}
			r.c.XID = int64(xid)
			oldest = append(oldest, r)
		}
		return rs.Err()
	}, `
		SELECT CAST(xid AS TEXT) AS xid_text, seq, time
		FROM events
		`+horizon+`
		ORDER BY `+order+`
		LIMIT `+strconv.Itoa(batch))
	if err := t.Flush(); err != nil {
		return 0, err
	}
	n := 0
	for n < len(oldest) && oldest[n].at < micros(cutoff) {
		n++
	}
	if n == 0 {
		return 0, nil
	}
	last := oldest[n-1].c
	xid := strconv.FormatInt(last.XID, 10)
	if t.Postgres() {
		t.Exec(`DELETE FROM events WHERE (xid, seq) <= (CAST(CAST($1 AS TEXT) AS xid8), $2)`, xid, last.Seq)
		t.Exec(`UPDATE events_pruned SET xid = CAST(CAST($1 AS TEXT) AS xid8), seq = $2 WHERE id = 1`, xid, last.Seq)
	} else {
		t.Exec(`DELETE FROM events WHERE seq <= $1`, last.Seq)
		t.Exec(`UPDATE events_pruned SET seq = $1 WHERE id = 1`, last.Seq)
	}
	return n, nil
}

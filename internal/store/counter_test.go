package store

import (
	"context"
	"errors"
	"testing"
	"time"

	sqlite3 "modernc.org/sqlite/lib"
)

// TestCountsOncePerBatch: a batch's members' changes to kept counts are
// written by one statement at its commit, one row per counter, and a
// member that fails takes its changes with it.
func TestCountsOncePerBatch(t *testing.T) {
	ctx := context.Background()
	db, w := openTestWriter(t)
	if _, _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	queued, release := db.HoldWritesForTest()
	add := func(by int64, fail bool) func(tx *Tx) (any, error) {
		return func(tx *Tx) (any, error) {
			tx.addCounts(countChanges{"test": by})
			tx.addCounts(countChanges{"test": by}) // twice in one member: still one row
			if fail {
				return nil, errors.New("refused")
			}
			return nil, nil
		}
	}
	members := []func(tx *Tx) (any, error){add(1, false), add(10, true), add(100, false), add(1000, false)}
	errs := make(chan error, len(members))
	for i, fn := range members {
		go func() { errs <- db.batch.do(ctx, nil, 0, fn) }()
		for queued() < i+1 { // queued in this order
			time.Sleep(time.Millisecond)
		}
	}
	changes := func() int64 { return sqlite3.Xsqlite3_total_changes64(w.conn.tls, w.conn.db) }
	before := changes()
	release()
	failed := 0
	for range members {
		if err := <-errs; err != nil {
			failed++
		}
	}
	if failed != 1 {
		t.Fatalf("%d members failed, want 1", failed)
	}
	if n := changes() - before; n != 1 {
		t.Errorf("the batch wrote %d rows, want 1: the counter once", n)
	}
	var sum int64
	if err := db.read.QueryRowContext(ctx, `SELECT SUM(value) FROM counters WHERE name = 'test'`).Scan(&sum); err != nil {
		t.Fatal(err)
	}
	if sum != 2202 {
		t.Errorf("the count is %d, want 2202 (the failed member's 20 rolled back)", sum)
	}
	if s := db.WriteStats(); s.Batches != 1 || s.Batched != int64(len(members)) {
		t.Errorf("%+v: want one batch of %d", s, len(members))
	}
}

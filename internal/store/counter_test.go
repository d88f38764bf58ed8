package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestCountsOncePerBatch: a batch's members' changes to kept counts are
// written by one statement at its commit, one row per counter, and a
// member that fails takes its changes with it.
func TestCountsOncePerBatch(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "counts.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	// The rows the writer's connection changed (SQLite's total_changes,
	// read in a write transaction, which runs on the writer; the SELECT
	// itself changes none).
	changes := func() (n int64) {
		err := db.updateNoResult(ctx, func(tx *Tx) error {
			tx.QueryRow(nil, `SELECT total_changes()`, nil, &n)
			return tx.Flush()
		})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := changes()
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
		go func() { errs <- db.update(ctx, nil, fn) }()
		for queued() < i+1 { // queued in this order
			time.Sleep(time.Millisecond)
		}
	}
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

package store

import (
	"context"
	"math/rand/v2"
)

// Counter names.
const (
	countItems       = "items"
	countActiveItems = "items_active"
)

// counterShards spreads each count over this many rows.
const counterShards = 16

// addCount changes a kept count inside the caller's transaction.
func addCount(ctx context.Context, q querier, name string, delta int64) error {
	if delta == 0 {
		return nil
	}
	_, err := q.ExecContext(ctx, `
		INSERT INTO counters (name, shard, value)
		VALUES ($1, $2, $3)
		ON CONFLICT (name, shard) DO UPDATE SET value = counters.value + excluded.value`,
		name, rand.IntN(counterShards), delta)
	return err
}

// countOf reads a kept count.
func countOf(ctx context.Context, q querier, name string) (int64, error) {
	var n int64
	err := q.QueryRowContext(ctx, `
		SELECT CAST(COALESCE(SUM(value), 0) AS BIGINT)
		FROM counters
		WHERE name = $1`, name).Scan(&n)
	return n, err
}

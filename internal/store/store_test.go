package store_test

import (
	"context"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/store/storetest"
	"github.com/stockroom/stockroom/internal/testdb"
)

func TestSQLite(t *testing.T) {
	storetest.Run(t, func(tb testing.TB) string { return testdb.DSN(tb, store.SQLite) })
}

func TestPostgres(t *testing.T) {
	testdb.RequirePostgres(t)
	storetest.Run(t, func(tb testing.TB) string { return testdb.DSN(tb, store.Postgres) })
}

func TestOpen(t *testing.T) {
	ctx := context.Background()
	t.Run("UnreachablePostgresIsUnavailable", func(t *testing.T) {
		_, err := store.Open(ctx, "postgres://nobody@127.0.0.1:1/none?sslmode=disable&connect_timeout=2")
		if stockroom.ErrorCode(err) != stockroom.EUNAVAILABLE {
			t.Fatalf("error %v (code %q), want unavailable", err, stockroom.ErrorCode(err))
		}
	})
	t.Run("RejectsUnknownScheme", func(t *testing.T) {
		for _, dsn := range []string{"", "mysql://x", "sqlite:", "sqlite::memory:", "sqlite:/tmp/a?b"} {
			if db, err := store.Open(ctx, dsn); err == nil {
				db.Close()
				t.Errorf("Open(%q) succeeded", dsn)
			}
		}
	})
}

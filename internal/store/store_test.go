package store_test

import (
	"context"
	"strings"
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
	t.Run("UnparsableURLKeepsItsPassword", func(t *testing.T) {
		for _, dsn := range []string{
			"postgres://alice:s3cretpw@127.0.0.1:5432/te%zzst",
			"postgres://alice:s3/cretpw@127.0.0.1/test", // the password's "/" ends the host: port ":s3"
			"postgresql://alice:s3cret pw@[::1/test",
			"mysql://alice:s3cretpw@db:bad/test",
		} {
			db, err := store.Open(ctx, dsn)
			if err == nil {
				db.Close()
				t.Fatalf("Open(%q) succeeded", dsn)
			}
			if strings.Contains(err.Error(), "s3") {
				t.Errorf("Open(%q): %q shows the password, or a piece of it", dsn, err)
			}
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

// Package testdb gives tests a fresh, real database: a new SQLite file always,
// and a new PostgreSQL schema when STOCKROOM_TEST_POSTGRES holds a URL. Each
// is removed when the test ends.
package testdb

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/stockroom/stockroom/internal/store"
)

// PostgresEnv names the variable that enables the PostgreSQL runs, for
// example postgres://postgres@127.0.0.1:5432/test?sslmode=disable.
const PostgresEnv = "STOCKROOM_TEST_POSTGRES"

// EnginesEnv, when set to "postgres", leaves SQLite out of Engines: CI's
// race run of the longest package uses it, having run that package's
// SQLite half just before without the race detector.
const EnginesEnv = "STOCKROOM_TEST_ENGINES"

// Engines returns the engines to run behaviour tests against: SQLite always,
// PostgreSQL when configured.
func Engines(tb testing.TB) []string {
	if postgresURL(tb) == "" {
		return []string{store.SQLite}
	}
	if os.Getenv(EnginesEnv) == store.Postgres {
		return []string{store.Postgres}
	}
	return []string{store.SQLite, store.Postgres}
}

func postgresURL(tb testing.TB) string {
	tb.Helper()
	return os.Getenv(PostgresEnv)
}

// RequirePostgres skips the test unless PostgreSQL is configured and returns
// its base URL.
func RequirePostgres(tb testing.TB) string {
	tb.Helper()
	u := postgresURL(tb)
	if u == "" {
		tb.Skipf("%s is not set; PostgreSQL tests skipped", PostgresEnv)
	}
	return u
}

// DSN returns the address of a fresh, empty database of the given engine,
// dropped when the test ends. A configured but unreachable PostgreSQL fails
// the test: it is never silently skipped.
func DSN(tb testing.TB, engine string) string {
	tb.Helper()
	switch engine {
	case store.SQLite:
		return "sqlite:" + filepath.Join(tb.TempDir(), "stockroom.db")
	case store.Postgres:
		return postgresSchema(tb, RequirePostgres(tb))
	}
	tb.Fatalf("unknown engine %q", engine)
	return ""
}

// MustOpen opens and migrates a fresh database of the given engine.
func MustOpen(tb testing.TB, engine string) *store.DB {
	tb.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, DSN(tb, engine))
	if err != nil {
		tb.Fatalf("open %s: %v", engine, err)
	}
	tb.Cleanup(func() { db.Close() })
	if _, _, err := db.Migrate(ctx); err != nil {
		tb.Fatalf("migrate %s: %v", engine, err)
	}
	return db
}

// postgresSchema creates a schema with a random name and returns base with
// its search_path pointing there.
func postgresSchema(tb testing.TB, base string) string {
	tb.Helper()
	admin, err := sql.Open("pgx", base)
	if err != nil {
		tb.Fatalf("postgres: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "test_" + hex.EncodeToString(b)
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		tb.Fatalf("postgres at %s=%s is unreachable or refused CREATE SCHEMA: %v", PostgresEnv, base, err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			tb.Errorf("drop schema %s: %v", schema, err)
		}
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("%s: %v", PostgresEnv, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// RedisEnv names the variable that enables the tests that need Redis: its
// host:port, for example 127.0.0.1:6379.
const RedisEnv = "STOCKROOM_TEST_REDIS"

// RequireRedis skips the test unless Redis is configured and returns its
// address.
func RequireRedis(tb testing.TB) string {
	tb.Helper()
	addr := os.Getenv(RedisEnv)
	if addr == "" {
		tb.Skipf("%s is not set; Redis tests skipped", RedisEnv)
	}
	return addr
}

// UniqueName returns prefix followed by random hex, for names (rate-limit
// keys, clients) that must not meet those of other test runs sharing a
// server.
func UniqueName(prefix string) string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

//go:embed migrations
var migrations embed.FS

// provider returns the goose migration provider for this database. On
// PostgreSQL it holds an advisory lock while migrating, so several instances
// starting at once against one database apply each migration exactly once.
func (db *DB) provider() (*goose.Provider, error) {
	sub, err := fs.Sub(migrations, "migrations/"+db.engine)
	if err != nil {
		return nil, err
	}
	opts := []goose.ProviderOption{goose.WithDisableGlobalRegistry(true)}
	dialect := goose.DialectSQLite3
	if db.engine == Postgres {
		dialect = goose.DialectPostgres
		// Waiting instances retry every second, for up to five minutes.
		locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 300))
		if err != nil {
			return nil, err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	return goose.NewProvider(dialect, db.write, sub, opts...)
}

// Migrate brings the schema up to the version this binary knows and returns
// the versions before and after.
func (db *DB) Migrate(ctx context.Context) (from, to int64, err error) {
	p, err := db.provider()
	if err != nil {
		return 0, 0, fmt.Errorf("migrations: %w", err)
	}
	from, err = p.GetDBVersion(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("read schema version: %w", db.classify(err))
	}
	for attempt, seen := 1, from; ; attempt++ {
		_, err := p.Up(ctx)
		if err == nil {
			break
		}
		// SQLite has no session lock: another process may have applied the
		// same migration between our version check and our transaction, which
		// then fails without changing anything. If the schema moved on
		// meanwhile, look again.
		now, verr := p.GetDBVersion(ctx)
		if verr != nil || now == seen || attempt == 5 {
			return from, 0, fmt.Errorf("migrate: %w", db.classify(err))
		}
		seen = now
	}
	to, err = p.GetDBVersion(ctx)
	if err != nil {
		return from, 0, fmt.Errorf("read schema version: %w", db.classify(err))
	}
	return from, to, nil
}

// MigrateDownForTest undoes the migrations above version, newest first, with
// each one's Down section, as going back to an earlier release would. The
// upgrade test uses it to prove that each Down runs and leaves a database the
// earlier release accepts; nothing else should.
func (db *DB) MigrateDownForTest(ctx context.Context, version int64) error {
	p, err := db.provider()
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.DownTo(ctx, version); err != nil {
		return fmt.Errorf("migrate down to %d: %w", version, db.classify(err))
	}
	return nil
}

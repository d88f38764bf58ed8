package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/stockroom/stockroom/internal/store"
)

// openExisting opens the database of an administration command. Only `serve`
// and `migrate` create or migrate a database; every other command refuses a
// SQLite file that does not exist (rather than leave an empty database under
// a mistyped name) and a database without Stockroom's schema, with a message
// that says what to do.
func openExisting(ctx context.Context, dsn string) (*store.DB, error) {
	db, err := store.OpenExisting(ctx, dsn)
	switch {
	case errors.Is(err, store.ErrNoDatabase):
		return nil, fmt.Errorf("database %s does not exist; start the server (stockroom serve) or run stockroom migrate to create it", dsn)
	case errors.Is(err, store.ErrNoSchema):
		return nil, fmt.Errorf("database %s has no Stockroom schema; start the server (stockroom serve) or run stockroom migrate first", redactURL(dsn))
	}
	return db, err
}

// checkSchemaCurrent refuses a schema other than the one this binary was
// built for. An older one is missing what the commands would write (a server
// of this version migrates it on start; `stockroom migrate` does it alone);
// a newer one may hold rules this binary does not know, so only the matching
// binary should change it.
func checkSchemaCurrent(ctx context.Context, db *store.DB, dsn string) error {
	have, want, err := db.SchemaVersion(ctx)
	switch {
	case err != nil:
		return err
	case have < want:
		return fmt.Errorf("database %s has schema version %d, this stockroom needs %d; run stockroom migrate (or start this version's server, which migrates) first",
			redactURL(dsn), have, want)
	case have > want:
		return fmt.Errorf("database %s has schema version %d, newer than this stockroom knows (%d); use the stockroom binary of the servers that migrated it",
			redactURL(dsn), have, want)
	}
	return nil
}

// databaseAttrs names a database for the server's log: its engine and the
// SQLite file's absolute path, or the PostgreSQL URL with passwords hidden.
func databaseAttrs(dsn string) []any {
	if path, ok := strings.CutPrefix(dsn, "sqlite:"); ok {
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		return []any{"engine", store.SQLite, "path", path}
	}
	return []any{"engine", store.Postgres, "url", redactURL(dsn)}
}

// redactURL hides the passwords of a database's or Redis's address for a
// message or the log: the one in a URL's user information and any query
// parameter named like a password (pgx reads password and sslpassword
// there). Text without "@" or "?" has nowhere to hold one (a SQLite DSN, a
// bare host:port), and is shown as it is; a URL that does not parse, or
// parses without a "//" authority ("user:password@host:6379" is scheme
// "user"), is not shown at all, as no part of it can be told from a password.
func redactURL(s string) string {
	if strings.HasPrefix(s, "sqlite:") || !strings.ContainsAny(s, "@?") {
		return s
	}
	u, err := url.Parse(s)
	if err != nil || u.Opaque != "" {
		return "(an unparsable URL)"
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	q := u.Query()
	changed := false
	for k := range q {
		if strings.Contains(strings.ToLower(k), "password") {
			q.Set(k, "xxxxx")
			changed = true
		}
	}
	if changed {
		u.RawQuery = q.Encode()
	}
	return u.String()
}

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

func runBackup(ctx context.Context, e env, args []string) error {
	fs, dsn := newFlags("backup")
	to := fs.String("to", "", "the file to write the copy to; it must not exist (required)")
	if err := parseFlags(fs, e, args); err != nil {
		return err
	}
	if err := required(fs, "to"); err != nil {
		return err
	}
	if !strings.HasPrefix(*dsn, "sqlite:") {
		return errors.New("backup copies SQLite databases only; back up PostgreSQL with pg_dump (or your provider's snapshots)")
	}
	if _, err := os.Lstat(*to); err == nil {
		return fmt.Errorf("%s already exists; name a new file", *to)
	}
	// Any schema version is copied: a backup is what an operator takes
	// before migrating.
	db, err := openExisting(ctx, *dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	if err := db.BackupSQLite(ctx, *to); err != nil {
		return err
	}
	fi, err := os.Stat(*to)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "backup of %s written to %s (%d bytes in %s)\n",
		*dsn, *to, fi.Size(), time.Since(start).Round(time.Millisecond))
	return nil
}

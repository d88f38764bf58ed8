package sqliteconn

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Backup writes a consistent copy of the database to the new file path
// while other connections, in this process or others, go on writing: the
// copy is one read transaction's snapshot (VACUUM INTO), made on a read
// connection so writers are not held up behind it. It refuses a path that
// exists, and makes the copy durable before it returns.
func (p *Pools) Backup(ctx context.Context, path string) error {
	// Creating the file first, exclusively, refuses an existing one without
	// a race and makes it ours to remove if the copy fails (VACUUM INTO
	// accepts an empty file).
	if err := createOwnerOnly(path); err != nil {
		return err
	}
	if err := p.vacuumInto(ctx, path); err != nil {
		_ = os.Remove(path)
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	return syncFile(path)
}

// vacuumInto runs VACUUM INTO on a connection of the read pool.
func (p *Pools) vacuumInto(ctx context.Context, path string) error {
	conn, err := p.Read.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	// The read pool is query_only; VACUUM INTO writes only its target, but
	// SQLite counts it as a write, so the guard is lifted on this one
	// connection and restored before it goes back to the pool.
	if _, err := conn.ExecContext(ctx, "PRAGMA query_only = 0"); err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, "VACUUM INTO ?", path)
	if _, rerr := conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA query_only = 1"); rerr != nil {
		_ = conn.Raw(func(any) error { return driver.ErrBadConn }) // never reuse it unguarded
		err = errors.Join(err, rerr)
	}
	return err
}

// syncFile flushes a new file and its directory entry to disk.
func syncFile(path string) error {
	for _, p := range []string{path, filepath.Dir(path)} {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		err = f.Sync()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("sync %s: %w", p, err)
		}
	}
	return nil
}

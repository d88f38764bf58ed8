// Package sqliteconn is SQLite's connection internals as Stockroom's store
// needs them, apart from the domain's SQL and from the write engine: the
// connection pools and the settings every connection has (Open), the one
// writing connection driven through SQLite's C API with its statements
// prepared once and kept (Writer), a VFS that writes a commit's log frames
// with one system call (walvfs.go), and the checkpointer that copies the
// log into the database beside the writer (Checkpointer). It knows nothing
// of Stockroom's tables: it runs what it is given.
//
// It uses the transpiled C library through unsafe pointers; everything
// unsafe stays in this package.
package sqliteconn

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"runtime"
	"time"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// Pools are the database/sql connections of an open SQLite database, for
// what runs outside the writer, and the checkpointer that runs on Write.
type Pools struct {
	// Write serves what runs beside the writer and needs to write:
	// migrations, pings and checkpoints. Its transactions begin
	// IMMEDIATE, so they queue instead of failing with SQLITE_BUSY on a
	// lock upgrade.
	Write *sql.DB
	// Read serves read-only work.
	Read *sql.DB
	// Checkpoints copies the log into the database file beside the
	// writer, which nudges it after each commit.
	Checkpoints *Checkpointer
}

// Open opens the database file at path, creating it readable by its owner
// only when it does not exist, in write-ahead-log mode, and starts its
// checkpointer.
func Open(ctx context.Context, path string) (*Pools, error) {
	// SQLite would create the file 0644 less the umask; it gives the -wal
	// and -shm files it makes beside a database the database file's own
	// mode, so they are 0600 too.
	if err := createOwnerOnly(path); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	w, err := openPool(path, "immediate", false)
	if err != nil {
		return nil, err
	}
	// The writer is a connection of its own (Writer); this pool serves
	// what runs outside the write path: migrations, pings and checkpoints.
	w.SetMaxOpenConns(2)
	if err := setWAL(ctx, w); err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite %s: %w", path, err)
	}
	r, err := openPool(path, "deferred", true)
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(max(4, runtime.GOMAXPROCS(0)))
	return &Pools{Write: w, Read: r, Checkpoints: startCheckpointer(w)}, nil
}

// Close stops the checkpointer and closes the pools.
func (p *Pools) Close() error {
	p.Checkpoints.stop()
	return errors.Join(p.Write.Close(), p.Read.Close())
}

// createOwnerOnly creates the file path, empty (which SQLite takes for a new
// database), readable and writable by its owner only whatever the umask
// (contract §14: database files and backups); fs.ErrExist when it exists.
func createOwnerOnly(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	// A umask may have taken the owner's bits too (0277 leaves 0400, which
	// SQLite could only read).
	return errors.Join(f.Chmod(0o600), f.Close())
}

func openPool(path, txlock string, queryOnly bool) (*sql.DB, error) {
	vfs, err := chooseVFS()
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	for _, p := range pragmas(queryOnly) {
		q.Add("_pragma", p)
	}
	if vfs != "" {
		q.Set("vfs", vfs)
	}
	q.Set("_txlock", txlock)
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	return db, nil
}

// pragmas are the settings of every connection to a SQLite database: the
// pools' (openPool) and the writer's (OpenWriter).
func pragmas(queryOnly bool) []string {
	p := []string{
		fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()),
		// A 2xx means the change is on disk (contract §14). In WAL mode
		// NORMAL syncs only at checkpoints, so a commit acknowledged since
		// the last one can vanish on power loss; FULL syncs the WAL at
		// every commit. The read-only pool gets FULL too, for one setting
		// everywhere: it commits nothing, and the checkpoint it may run
		// when it closes last syncs the same under NORMAL and FULL, so it
		// costs the readers nothing.
		"synchronous(" + sqliteSync + ")",
		"foreign_keys(1)",
		// A savepoint (each member of a batch runs in one) keeps the pages
		// it changes in a subjournal, a temporary file unless temporary
		// storage is in memory: then it costs no writes. It holds only
		// what a rollback to the savepoint would need, and nothing of it
		// is durable.
		"temp_store(MEMORY)",
	}
	if queryOnly {
		return append(p, "query_only(1)")
	}
	// The writer's own checkpoint is a backstop (checkpoint.go).
	return append(p, fmt.Sprintf("wal_autocheckpoint(%d)", backstopPages))
}

// busyTimeout is how long a SQLite connection waits for a lock another
// holds (another process's write lock, at the writer's BEGIN).
const busyTimeout = 10 * time.Second

// chooseVFS is the VFS SQLite databases are opened through: walVFS, which
// writes a commit's log frames in one write (walvfs.go) and relies on
// FULL's sync at every commit; SQLite's default under any other setting.
func chooseVFS() (string, error) {
	if sqliteSync != "FULL" {
		return "", nil
	}
	if err := registerWALVFS(); err != nil {
		return "", err
	}
	return walVFSName, nil
}

// setWAL switches the file to write-ahead logging, which lets readers work
// while a writer commits. The mode is stored in the file, so this matters once
// per database; but processes opening a new file at the same moment can get
// SQLITE_BUSY from the switch without SQLite's busy handler waiting, so it is
// retried here.
func setWAL(ctx context.Context, db *sql.DB) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for {
		var mode string
		err := db.QueryRowContext(ctx, "PRAGMA journal_mode=WAL").Scan(&mode)
		if err == nil {
			return nil
		}
		if !IsBusy(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// sqliteSync is SQLite's synchronous setting: FULL, so that a 2xx means the
// change is on disk (contract §14). It is a variable only so that
// bench/sqlite.sh can build a NORMAL binary of the same code, to measure what
// FULL costs (-ldflags -X .../internal/store/sqliteconn.sqliteSync=NORMAL);
// no flag or setting of a normal build changes it.
var sqliteSync = "FULL"

package sqliteconn

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// TestWALVFS holds walVFS to what it must keep of SQLite's own VFS: every
// committed page readable by other connections and after a reopen, for
// commits small and larger than the page cache and than what a log file
// gathers; and to what it is for: a commit's frames in one write.
func TestWALVFS(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "wal.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { db.Close() }()
	if _, err := db.Write.ExecContext(ctx, `CREATE TABLE pages (id INTEGER PRIMARY KEY, body BLOB NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	bodies := map[int][]byte{}
	// write stores n bodies of about a page each in one transaction, then
	// gives every one of them a new body in the same transaction, the
	// last stored first.
	write := func(t *testing.T, first, n int) {
		t.Helper()
		tx, err := db.Write.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		for round := 0; round < 2; round++ {
			for i := 0; i < n; i++ {
				id := first + i
				if round == 1 {
					id = first + n - 1 - i
				}
				body := make([]byte, 3000)
				for i := range body {
					body[i] = byte(rng.Uint32())
				}
				bodies[id] = body
				if _, err := tx.ExecContext(ctx, `INSERT INTO pages (id, body) VALUES ($1, $2)
					ON CONFLICT (id) DO UPDATE SET body = excluded.body`, id, body); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	// check reads every body through conn's pool and runs SQLite's own
	// check of the file.
	check := func(t *testing.T, pool *sql.DB) {
		t.Helper()
		want := sha256.New()
		for id := 0; id < len(bodies); id++ {
			want.Write(bodies[id])
		}
		got := sha256.New()
		rows, err := pool.QueryContext(ctx, `SELECT id, body FROM pages ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		n := 0
		for rows.Next() {
			var (
				id   int
				body []byte
			)
			if err := rows.Scan(&id, &body); err != nil {
				t.Fatal(err)
			}
			got.Write(body)
			n++
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if n != len(bodies) || fmt.Sprintf("%x", got.Sum(nil)) != fmt.Sprintf("%x", want.Sum(nil)) {
			t.Fatalf("read %d bodies, want %d, or they differ from what was written", n, len(bodies))
		}
		var verdict string
		if err := pool.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&verdict); err != nil || verdict != "ok" {
			t.Fatalf("integrity_check: %q, %v", verdict, err)
		}
	}

	t.Run("OneWriteForACommitsFrames", func(t *testing.T) {
		gathered, written := walGathered.Load(), walWrites.Load()
		write(t, 0, 64)
		gathered, written = walGathered.Load()-gathered, walWrites.Load()-written
		if gathered < 2*64 || written > 2 {
			t.Errorf("a commit of 64 pages: %d writes gathered into %d, want at least 128 into at most 2", gathered, written)
		}
		check(t, db.Read)
	})
	t.Run("LargerThanTheCacheAndTheGather", func(t *testing.T) {
		// About 9 MB of pages: SQLite writes some to the log before the
		// commit (its page cache holds 2 MB), reads them back and writes
		// them again when it changes them; what a log file gathers is
		// written at 4 MB.
		write(t, 64, 3000)
		check(t, db.Read)
	})
	t.Run("AfterAReopen", func(t *testing.T) {
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if db, err = Open(ctx, path); err != nil {
			t.Fatal(err)
		}
		check(t, db.Read)
	})
}

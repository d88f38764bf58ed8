package main

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
)

// TestCommitsArePagesOfTheirTables makes commits into one table of a real
// SQLite file, then reads its log: each commit is found once however often
// the log is read, and each wrote its table's one page.
func TestCommitsArePagesOfTheirTables(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // one connection, kept open: nothing checkpoints the log
	ctx := context.Background()
	for _, s := range []string{
		"PRAGMA journal_mode=WAL",
		"PRAGMA wal_autocheckpoint=0",
		"CREATE TABLE a (x INTEGER)",
		"CREATE TABLE b (x INTEGER)",
	} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			t.Fatal(s, err)
		}
	}
	const inserts = 5
	for i := range inserts {
		if _, err := db.ExecContext(ctx, "INSERT INTO a VALUES (?)", i); err != nil {
			t.Fatal(err)
		}
	}
	log, err := os.ReadFile(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[commitKey][]uint32{}
	for range 2 {
		if err := walCommits(log, seen); err != nil {
			t.Fatal(err)
		}
	}
	names, err := pageNames(path)
	if err != nil {
		t.Fatal(err)
	}
	intoA := 0
	for _, pages := range seen {
		if len(pages) == 1 && names[pages[0]] == "a" {
			intoA++
		}
	}
	// The two CREATE TABLEs are commits of their own (the schema page
	// and a root page each), and no commit is counted twice.
	if intoA != inserts || len(seen) != inserts+2 {
		t.Errorf("%d commits, %d of one page of table a; want %d, %d", len(seen), intoA, inserts+2, inserts)
	}

	torn := append([]byte(nil), log...)
	torn[len(torn)-1] ^= 0xff // the last commit's page, as a reader racing its write sees it
	short := map[commitKey][]uint32{}
	if err := walCommits(torn, short); err != nil {
		t.Fatal(err)
	}
	if len(short) != len(seen)-1 {
		t.Errorf("a torn last frame: %d commits, want %d", len(short), len(seen)-1)
	}
}

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// What the commands must never show others (contract §14): passwords of the
// database and of Redis, in messages and in the log, and database files
// anyone but their owner can read.

// TestFirstStartFilesAreOwnerOnly: the SQLite database a first start
// creates, and its -wal and -shm files, are readable by their owner only
// (contract §14).
func TestFirstStartFilesAreOwnerOnly(t *testing.T) {
	dsn := testdb.DSN(t, store.SQLite)
	s := startServe(t, dsn, nil)
	if status, _ := getToken(t, s.url, s.adminID, s.adminSecret); status != 200 {
		t.Fatalf("token: %d", status)
	}
	path := strings.TrimPrefix(dsn, "sqlite:")
	for _, name := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s is %v, want -rw-------", filepath.Base(name), fi.Mode().Perm())
		}
	}
}

// TestUnparsableDatabaseURLHidesPassword: a --db URL that does not parse,
// or that the driver refuses, is refused without its password, or any piece
// of it, in what the commands print (contract §14).
func TestUnparsableDatabaseURLHidesPassword(t *testing.T) {
	for _, dsn := range []string{
		"postgres://alice:s3cretpw@127.0.0.1:5432/te%zzst",
		"postgres://alice:s3/cretpw@127.0.0.1/test", // the password's "/" ends the host: port ":s3"
		"postgresql://alice:s3cret pw@[::1/test",
		"postgres://alice:s3cretpw@127.0.0.1:99999/test", // parses; the driver refuses the port
		"mysql://alice:s3cretpw@db:bad/test",
	} {
		for _, args := range [][]string{{"serve", "--addr", "127.0.0.1:0"}, {"migrate"}, {"client", "list"}} {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append(args, "--db", dsn), getenv(nil), &stdout, &stderr)
			if code == 0 || strings.Contains(stdout.String()+stderr.String(), "s3") {
				t.Errorf("%v --db %s: exit %d, printed\n%s%s", args, dsn, code, stdout.String(), stderr.String())
			}
		}
	}
}

// TestRedisPasswordIsNeverShown: --redis takes a URL with credentials; the
// log names the Redis with its password hidden, also when Redis cannot be
// reached, and a URL refused is refused without a piece of it.
func TestRedisPasswordIsNeverShown(t *testing.T) {
	s := startServe(t, testdb.DSN(t, store.SQLite), nil, "--redis", "redis://alice:hunter2@127.0.0.1:1/3")
	if status, _ := getToken(t, s.url, s.adminID, s.adminSecret); status != 200 {
		t.Fatalf("token with Redis unreachable: %d", status)
	}
	// The fallback's warning is written as the limiter gives up on Redis,
	// before the answer.
	log := s.stderr.String()
	listening := logLines(log, "listening")
	if len(listening) != 1 || listening[0]["redis"] != "redis://alice:xxxxx@127.0.0.1:1/3" {
		t.Fatalf("listening line %v, want the Redis URL with its password hidden\n%s", listening, log)
	}
	if len(logLines(log, "rate limit: Redis is unreachable; limiting in this process until it is back")) != 1 || strings.Contains(log, "hunter") {
		t.Fatalf("want one warning, and no password:\n%s", log)
	}
	for _, redis := range []string{"redis://alice:hun/ter2@127.0.0.1:6379/0", "alice:hunter2@127.0.0.1:6379", "redis://alice:hunter2@127.0.0.1/zero"} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"serve", "--db", testdb.DSN(t, store.SQLite), "--redis", redis}, getenv(nil), &stdout, &stderr)
		if code != 2 || strings.Contains(stdout.String()+stderr.String(), "hun") {
			t.Errorf("--redis %s: exit %d, printed\n%s%s", redis, code, stdout.String(), stderr.String())
		}
	}
}

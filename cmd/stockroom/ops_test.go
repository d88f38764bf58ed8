package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// wantOnlyJSONLines fails unless every line of out is a JSON object: the
// server's standard error is its log and nothing else.
func wantOnlyJSONLines(t *testing.T, out string) {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var v map[string]any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("standard error has a line that is not a JSON log line: %q\n%s", sc.Text(), out)
		}
	}
}

// logLines returns the JSON log lines of out with the message msg.
func logLines(out, msg string) []map[string]any {
	var found []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var v map[string]any
		if json.Unmarshal(sc.Bytes(), &v) == nil && v["msg"] == msg {
			found = append(found, v)
		}
	}
	return found
}

func TestVersion(t *testing.T) {
	var stdout, stderr bytes.Buffer
	// A test binary records no VCS data: every field falls back.
	want := "stockroom (devel)\nrevision: unknown\ntime:     unknown\nmodified: unknown\ngo:       " +
		runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	for _, arg := range []string{"version", "--version", "-version"} {
		stdout.Reset()
		if code := run(ctx, []string{arg}, getenv(nil), &stdout, &stderr); code != 0 {
			t.Fatalf("%s: exit %d %s", arg, code, stderr.String())
		}
		if stdout.String() != want {
			t.Fatalf("%s printed\n%s\nwant\n%s", arg, stdout.String(), want)
		}
	}
	if code := run(ctx, []string{"version", "extra"}, getenv(nil), &stdout, &stderr); code != 2 {
		t.Fatalf("version extra: exit %d, want 2", code)
	}
}

func TestBuildInfoFrom(t *testing.T) {
	goVersion := runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		want buildInfo
	}{
		{"none", nil, buildInfo{"(devel)", "unknown", "unknown", "unknown", goVersion}},
		{"go run", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, buildInfo{"(devel)", "unknown", "unknown", "unknown", goVersion}},
		{"stamped", &debug.BuildInfo{
			Main: debug.Module{Version: "v0.0.0-20260101120000-0123456789ab+dirty"},
			Settings: []debug.BuildSetting{
				{Key: "vcs", Value: "git"},
				{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
				{Key: "vcs.time", Value: "2026-01-01T12:00:00Z"},
				{Key: "vcs.modified", Value: "true"},
			},
		}, buildInfo{"v0.0.0-20260101120000-0123456789ab+dirty", "0123456789abcdef0123456789abcdef01234567", "2026-01-01T12:00:00Z", "true", goVersion}},
	} {
		if got := buildInfoFrom(tc.bi); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestServeLogsBuildAndDatabase: the first log lines say which build runs and
// which database it opened, with no password.
func TestServeLogsBuildAndDatabase(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			dsn := testdb.DSN(t, engine)
			if engine == store.Postgres {
				// The test server trusts loopback, so a password does not
				// stop the connection; it must not reach the log.
				u, _ := url.Parse(dsn)
				u.User = url.UserPassword(u.User.Username(), "hunter2")
				q := u.Query()
				q.Set("sslpassword", "hunter3")
				u.RawQuery = q.Encode()
				dsn = u.String()
			}
			s := startServe(t, dsn, nil)
			log := s.stderr.String()
			wantOnlyJSONLines(t, log)
			start := logLines(log, "starting")
			if len(start) != 1 || start[0]["version"] != "(devel)" || !strings.HasPrefix(start[0]["go"].(string), runtime.Version()) {
				t.Fatalf("starting line: %v\n%s", start, log)
			}
			opened := logLines(log, "database opened")
			if len(opened) != 1 || opened[0]["engine"] != engine {
				t.Fatalf("database opened: %v\n%s", opened, log)
			}
			switch engine {
			case store.SQLite:
				if opened[0]["path"] != strings.TrimPrefix(dsn, "sqlite:") || !filepath.IsAbs(opened[0]["path"].(string)) {
					t.Fatalf("logged path %v, want the absolute %s", opened[0]["path"], dsn)
				}
			case store.Postgres:
				logged, _ := opened[0]["url"].(string)
				if strings.Contains(log, "hunter") || !strings.Contains(logged, "postgres:xxxxx@127.0.0.1") ||
					!strings.Contains(logged, "sslpassword=xxxxx") || !strings.Contains(logged, "search_path=") {
					t.Fatalf("logged url %q (a password must not show; the rest must)\n%s", logged, log)
				}
			}
		})
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"sqlite:data/stockroom.db":                                        "sqlite:data/stockroom.db",
		"postgres://app@db:5432/stock":                                    "postgres://app@db:5432/stock",
		"postgres://app:s3cret@db:5432/stock?sslmode=require":             "postgres://app:xxxxx@db:5432/stock?sslmode=require",
		"postgresql://db/stock?user=app&password=s3cret":                  "postgresql://db/stock?password=xxxxx&user=app",
		"postgres://app:p%40ss@db/stock?sslpassword=k&application_name=x": "postgres://app:xxxxx@db/stock?application_name=x&sslpassword=xxxxx",
		"postgres://app:s3cret@db:bad-port/x":                             "(an unparsable URL)",
		"postgres://db/stock":                                             "postgres://db/stock",
		"127.0.0.1:6379":                                                  "127.0.0.1:6379",
		"redis://127.0.0.1:6379/0":                                        "redis://127.0.0.1:6379/0",
		"rediss://default:s3cret@redis.internal:6380/2":                   "rediss://default:xxxxx@redis.internal:6380/2",
		"rediss://:s3cret@redis.internal":                                 "rediss://:xxxxx@redis.internal",
		"alice:s3cret@redis.internal:6379":                                "(an unparsable URL)",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// adminCommands are the commands that work on an existing database, with
// arguments that pass their own checks.
var adminCommands = [][]string{
	{"warehouse", "add", "--id", "2", "--name", "North"},
	{"warehouse", "list"},
	{"client", "add", "--name", "x", "--permissions", "11", "--warehouses", "all"},
	{"client", "list"},
	{"client", "disable", "--id", "x"},
	{"client", "enable", "--id", "x"},
	{"client", "rotate-secret", "--id", "x"},
	{"reasoncode", "add", "--code", "30", "--description", "d", "--direction", "issue"},
	{"reasoncode", "list"},
	{"audit"},
	{"demo", "--items", "1"},
}

// wantRefusal runs args on dsn and wants exit 1 with a one-line message
// containing every one of wants.
func wantRefusal(t *testing.T, dsn string, args []string, wants ...string) {
	t.Helper()
	code, out, errOut := admin(t, dsn, args...)
	if code != 1 || out != "" || strings.Count(errOut, "\n") != 1 {
		t.Fatalf("%v: exit %d, stdout %q, stderr %q; want exit 1 and one line", args, code, out, errOut)
	}
	for _, w := range wants {
		if !strings.Contains(errOut, w) {
			t.Fatalf("%v: %q does not say %q", args, errOut, w)
		}
	}
}

func TestAdminCommandsRefuseAMissingSQLiteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "typo.db")
	for _, args := range append(slices.Clone(adminCommands), []string{"backup", "--to", filepath.Join(dir, "copy.db")}) {
		wantRefusal(t, "sqlite:"+path, args, "sqlite:"+path+" does not exist", "stockroom serve", "stockroom migrate")
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Fatalf("%v left %v behind; it must create nothing", args, entries[0].Name())
		}
	}
	// migrate (like serve) creates it.
	mustAdmin(t, "sqlite:"+path, "migrate")
	if out := mustAdmin(t, "sqlite:"+path, "warehouse", "list"); !strings.HasPrefix(out, "WID") {
		t.Fatalf("warehouse list after migrate: %q", out)
	}
}

func TestAdminCommandsRefuseADatabaseWithoutSchema(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			dsn := testdb.DSN(t, engine)
			tables := tableCounter(t, engine, dsn)
			if engine == store.SQLite {
				// Someone else's SQLite file.
				db, err := sql.Open("sqlite", "file:"+strings.TrimPrefix(dsn, "sqlite:"))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := db.Exec("CREATE TABLE notes (body TEXT)"); err != nil {
					t.Fatal(err)
				}
				db.Close()
			}
			before := tables()
			for _, args := range adminCommands {
				wantRefusal(t, dsn, args, "has no Stockroom schema", "stockroom migrate")
			}
			if engine == store.SQLite {
				wantRefusal(t, dsn, []string{"backup", "--to", filepath.Join(t.TempDir(), "copy.db")}, "has no Stockroom schema")
			}
			if after := tables(); after != before {
				t.Fatalf("the refused commands changed the database: %d tables, then %d", before, after)
			}
			mustAdmin(t, dsn, "migrate")
			if out := mustAdmin(t, dsn, "audit"); !strings.Contains(out, "every invariant holds") {
				t.Fatalf("audit after migrate: %q", out)
			}
		})
	}
}

// TestAdminCommandsRefuseAnotherSchemaVersion: an outdated schema is refused
// with the way out (migrate); so is one newer than the binary. Backup copies
// either: it is what to run before a migration.
func TestAdminCommandsRefuseAnotherSchemaVersion(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			dsn := testdb.DSN(t, engine)
			mustAdmin(t, dsn, "migrate")
			db, err := store.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			_, want, err := db.SchemaVersion(ctx)
			if err != nil || want < 2 {
				t.Fatalf("schema version: %d %v", want, err)
			}
			// Pretend the last migration was never applied.
			if err := db.ExecForTest(ctx, "DELETE FROM goose_db_version WHERE version_id = (SELECT max(version_id) FROM goose_db_version)"); err != nil {
				t.Fatal(err)
			}
			for _, args := range adminCommands {
				wantRefusal(t, dsn, args, "run stockroom migrate")
			}
			if engine == store.SQLite {
				mustAdmin(t, dsn, "backup", "--to", filepath.Join(t.TempDir(), "before-migrate.db"))
			}
			if err := db.ExecForTest(ctx, "INSERT INTO goose_db_version (version_id, is_applied) VALUES (99999, true)"); err != nil {
				t.Fatal(err)
			}
			for _, args := range adminCommands {
				wantRefusal(t, dsn, args, "newer than this stockroom knows")
			}
		})
	}
}

// tableCounter returns a function counting the tables of the database.
func tableCounter(t *testing.T, engine, dsn string) func() int {
	t.Helper()
	driver, source := "pgx", dsn
	query := "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()"
	if engine == store.SQLite {
		driver, source = "sqlite", "file:"+strings.TrimPrefix(dsn, "sqlite:")
		query = "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
	}
	return func() int {
		db, err := sql.Open(driver, source)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var n int
		if err := db.QueryRowContext(context.Background(), query).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
}

// TestHelpListsEveryFlag: the summary of each command in `stockroom help`
// names exactly the flags the command takes (--db, which all but version
// take, is said once below the list).
func TestHelpListsEveryFlag(t *testing.T) {
	var help bytes.Buffer
	if code := run(ctx, []string{"help"}, getenv(nil), &help, &help); code != 0 {
		t.Fatalf("help: exit %d", code)
	}
	flat := strings.Join(strings.Fields(help.String()), " ")
	if !strings.Contains(flat, "Every command but version takes --db") {
		t.Errorf("help does not explain --db: %s", help.String())
	}
	defaultLine := regexp.MustCompile(`(?m)^  -([a-z][a-z-]*)`)
	named := regexp.MustCompile(`--([a-z][a-z-]*)`)
	for _, c := range commands() {
		if !strings.Contains(flat, c.name+" "+strings.Join(strings.Fields(c.summary), " ")) {
			t.Errorf("help lacks the summary of %s", c.name)
		}
		var usage bytes.Buffer
		if code := run(ctx, append(strings.Fields(c.name), "--help"), getenv(nil), &usage, &usage); code != 0 {
			t.Fatalf("%s --help: exit %d", c.name, code)
		}
		var takes, says []string
		for _, m := range defaultLine.FindAllStringSubmatch(usage.String(), -1) {
			if m[1] != "db" {
				takes = append(takes, m[1])
			}
		}
		for _, m := range named.FindAllStringSubmatch(c.summary, -1) {
			says = append(says, m[1])
		}
		slices.Sort(takes)
		slices.Sort(says)
		if !slices.Equal(takes, slices.Compact(says)) {
			t.Errorf("%s takes %v but its summary names %v", c.name, takes, says)
		}
		if hasDB := strings.Contains(usage.String(), "  -db"); hasDB == (c.name == "version") {
			t.Errorf("%s: --db in its flags is %t", c.name, hasDB)
		}
	}
}

// errNotExist reports whether err says a file is missing.
func errNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

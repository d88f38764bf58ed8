package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stockroom/stockroom/internal/store"
)

// previousRelease is the last commit before owners (schema version 6): the
// release whose databases migration 7 upgrades.
const previousRelease = "05d6bbe"

// buildPreviousRelease builds the stockroom binary of previousRelease from
// this repository's history into dir, or skips the test when that cannot be
// done here (no git, no go, a shallow clone without the commit).
func buildPreviousRelease(t *testing.T, dir string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("building the previous release takes a while; skipped in -short mode")
	}
	for _, tool := range []string{"git", "go", "sh", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: cannot build the previous release %s", tool, previousRelease)
		}
	}
	if out, err := exec.Command("git", "cat-file", "-e", previousRelease+"^{commit}").CombinedOutput(); err != nil {
		t.Skipf("commit %s is not in this clone's history (a shallow clone?): %v %s", previousRelease, err, out)
	}
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatalf("git rev-parse --show-toplevel: %v", err)
	}
	src := filepath.Join(dir, "src")
	if err := os.Mkdir(src, 0o755); err != nil {
		t.Fatal(err)
	}
	// git archive leaves the repository (index, worktrees) untouched.
	archive := exec.Command("sh", "-c", `git archive --format=tar "$0" | tar -x -C "$1"`, previousRelease, src)
	archive.Dir = strings.TrimSpace(string(top))
	if out, err := archive.CombinedOutput(); err != nil {
		t.Fatalf("git archive %s: %v\n%s", previousRelease, err, out)
	}
	bin := filepath.Join(dir, "stockroom-"+previousRelease)
	build := exec.Command("go", "build", "-o", bin, "./cmd/stockroom")
	build.Dir, build.Env = src, append(os.Environ(), "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build %s: %v\n%s", previousRelease, err, out)
	}
	return bin
}

// runPrevious runs a command of the previous release's binary and returns
// its standard output; a failure fails the test.
func runPrevious(t *testing.T, bin string, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", filepath.Base(bin), strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// prevServer is the previous release's `stockroom serve`. Its answers follow
// that release's API document, not this one's, so it is called through a
// client of its own, which openapitest does not check.
type prevServer struct {
	t       *testing.T
	cmd     *exec.Cmd
	exited  chan struct{}
	url     string
	token   string
	adminID string
	secret  string
	http    *http.Client
}

// startPrevious starts the previous release's server on dsn (a fresh
// database, so it prints its administrator) and gets a token.
func startPrevious(t *testing.T, bin, dsn string) *prevServer {
	t.Helper()
	stdout, stderr := &syncBuffer{}, &syncBuffer{}
	s := &prevServer{t: t, exited: make(chan struct{}), http: &http.Client{Transport: http.DefaultTransport}}
	s.cmd = exec.Command(bin, "serve", "--db", dsn, "--addr", "127.0.0.1:0", "--rate-limit", "1000000")
	s.cmd.Stdout, s.cmd.Stderr = stdout, stderr
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.cmd.Wait(); close(s.exited) }()
	t.Cleanup(func() { _ = s.cmd.Process.Kill(); <-s.exited })
	for deadline := time.Now().Add(60 * time.Second); s.url == ""; {
		if addr := listeningAddr(stderr.String()); addr != "" {
			s.url = "http://" + addr + "/api/v1/"
		} else if time.Now().After(deadline) {
			t.Fatalf("the previous release did not listen: %s", stderr)
		}
		select {
		case <-s.exited:
			t.Fatalf("the previous release exited: %s", stderr)
		case <-time.After(20 * time.Millisecond):
		}
	}
	id, secret := credID.FindStringSubmatch(stdout.String()), credSecret.FindStringSubmatch(stdout.String())
	if id == nil || secret == nil {
		t.Fatalf("the previous release printed no administrator: %s", stdout)
	}
	s.adminID, s.secret = id[1], secret[1]
	res, err := s.http.PostForm(s.url+"Token", url.Values{"grant_type": {"client_credentials"}, "client_id": {s.adminID}, "client_secret": {s.secret}})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var tok tokenBody
	if err := json.NewDecoder(res.Body).Decode(&tok); err != nil || tok.AccessToken == "" {
		t.Fatalf("token from the previous release: status %d, %v", res.StatusCode, err)
	}
	s.token = tok.AccessToken
	return s
}

// do sends a request and decodes the 2xx answer into out (numbers kept as
// written); any other status fails the test.
func (s *prevServer) do(method, path, body string, out any) {
	s.t.Helper()
	req, err := http.NewRequest(method, s.url+path, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Content-Type", "application/json")
	res, err := s.http.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(res.Body)
	if res.StatusCode/100 != 2 {
		s.t.Fatalf("previous release: %s %s %s: %d %s", method, path, body, res.StatusCode, b.String())
	}
	if out != nil {
		dec := json.NewDecoder(&b)
		dec.UseNumber()
		if err := dec.Decode(out); err != nil {
			s.t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

// stop ends the server as an operator would before upgrading: SIGTERM, and
// a wait for its graceful shutdown.
func (s *prevServer) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(time.Minute):
		s.t.Fatal("the previous release did not stop")
	}
}

// listPage is a list answer of either release, numbers kept as written.
type listPage struct {
	Value   []map[string]any `json:"value"`
	HasMore bool             `json:"hasMore"`
}

// rows fetches every record of a list, page by page, through get.
func rows(t *testing.T, path string, get func(path string, out *listPage)) []map[string]any {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	var all []map[string]any
	for page := 1; ; page++ {
		var p listPage
		get(fmt.Sprintf("%s%spageSize=250&page=%d", path, sep, page), &p)
		all = append(all, p.Value...)
		if !p.HasMore {
			return all
		}
	}
}

// rawDB opens the test database beside the store, for the questions no
// endpoint of this release answers yet (categories, customers).
func rawDB(t *testing.T, engine, dsn string) *sql.DB {
	t.Helper()
	driver, source := "pgx", dsn
	if engine == store.SQLite {
		driver, source = "sqlite", "file:"+strings.TrimPrefix(dsn, "sqlite:")
	}
	db, err := sql.Open(driver, source)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func queryInt(t *testing.T, db *sql.DB, query string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow(query).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

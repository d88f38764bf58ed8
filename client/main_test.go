package client_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stockroom/stockroom/client"
)

// The tests of this package import nothing but the standard library, the
// root package and client: `go mod tidy` in a module that uses the SDK
// records checksums for the test dependencies of client too, so a server
// package imported here would put the server's modules into every
// consumer's go.sum. The server they talk to is the real command, built
// here (or STOCKROOM_BIN) and run as a process. The SDK's tests that need
// the server's internals (its clock, PostgreSQL, faults, every response
// checked against the OpenAPI document) are in internal/sdktest, which
// also keeps this package's imports to those three.

// The server the examples talk to: a real `stockroom serve` over a fresh
// SQLite file on a loopback port, started by TestMain, with the credentials
// of the administrator client it created.
var (
	serverURL    string
	clientID     string
	clientSecret string
)

// bin is the stockroom command the tests run, and tmp the directory their
// databases go to.
var bin, tmp string

func TestMain(m *testing.M) { os.Exit(runTests(m)) }

func runTests(m *testing.M) int {
	var err error
	if tmp, err = os.MkdirTemp("", "stockroom-client-test-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmp)
	if bin = os.Getenv("STOCKROOM_BIN"); bin == "" {
		bin = filepath.Join(tmp, "stockroom")
		if out, err := exec.Command("go", "build", "-o", bin, "../cmd/stockroom").CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building the server: %v\n%s", err, out)
			return 1
		}
	}
	s, err := startServer()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.stop()
	serverURL, clientID, clientSecret = s.url, s.adminID, s.adminSecret
	return m.Run()
}

// skus hands out ShortIDs no other example has used, so that each starts
// from an item of its own on the shared server, also under -count=N.
var skus atomic.Int64

func unique(prefix string) string { return fmt.Sprintf("%s-%d", prefix, skus.Add(1)) }

// server is a running `stockroom serve` on a database of its own.
type server struct {
	url, adminID, adminSecret string
	cmd                       *exec.Cmd
	exited                    chan struct{} // closed when it has exited
	stderr                    string        // the file its log goes to
}

var (
	servers    atomic.Int64
	credID     = regexp.MustCompile(`client_id=(\S+)`)
	credSecret = regexp.MustCompile(`client_secret=(\S+)`)
)

// startServer runs `stockroom serve` on a fresh SQLite file and a free
// loopback port, without a rate limit to speak of, and waits until it
// listens. args are further flags.
func startServer(args ...string) (*server, error) {
	dir := filepath.Join(tmp, fmt.Sprint(servers.Add(1)))
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, err
	}
	// Its output goes to files, which it writes itself: the credential is
	// complete in stdout once the log says it listens.
	stdout, err := os.Create(filepath.Join(dir, "stdout"))
	if err != nil {
		return nil, err
	}
	defer stdout.Close()
	stderr, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		return nil, err
	}
	defer stderr.Close()
	s := &server{stderr: stderr.Name(), exited: make(chan struct{})}
	s.cmd = exec.Command(bin, append([]string{"serve", "--db", "sqlite:" + filepath.Join(dir, "stockroom.db"),
		"--addr", "127.0.0.1:0", "--rate-limit", "60000000"}, args...)...)
	s.cmd.Stdout, s.cmd.Stderr = stdout, stderr
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { s.cmd.Wait(); close(s.exited) }()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		if addr := listeningAddr(s.log()); addr != "" {
			out, err := os.ReadFile(stdout.Name())
			id, secret := credID.FindSubmatch(out), credSecret.FindSubmatch(out)
			if err != nil || id == nil || secret == nil {
				s.stop()
				return nil, fmt.Errorf("serve printed no credential (%v): %s", err, out)
			}
			s.url, s.adminID, s.adminSecret = "http://"+addr, string(id[1]), string(secret[1])
			return s, nil
		}
		select {
		case <-s.exited:
			return nil, fmt.Errorf("serve exited (%v): %s", s.cmd.ProcessState, s.log())
		case <-time.After(10 * time.Millisecond):
		}
	}
	s.stop()
	return nil, fmt.Errorf("serve did not listen within a minute: %s", s.log())
}

// log is what the server has logged so far.
func (s *server) log() string {
	b, _ := os.ReadFile(s.stderr)
	return string(b)
}

// stop ends the server, gracefully if it can.
func (s *server) stop() {
	if s.cmd.Process.Signal(os.Interrupt) == nil {
		t := time.AfterFunc(30*time.Second, func() { s.cmd.Process.Kill() })
		defer t.Stop()
	} else {
		s.cmd.Process.Kill()
	}
	<-s.exited
}

// listeningAddr finds the address in serve's JSON "listening" log line.
func listeningAddr(log string) string {
	sc := bufio.NewScanner(strings.NewReader(log))
	for sc.Scan() {
		var line struct{ Msg, Addr string }
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "listening" {
			return line.Addr
		}
	}
	return ""
}

// newServer is a server of a test's own, stopped when the test ends.
func newServer(t *testing.T, args ...string) *server {
	t.Helper()
	s, err := startServer(args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.stop)
	return s
}

// admin returns an SDK client with the administrator's credentials.
func (s *server) admin(t *testing.T, opts ...client.Option) *client.Client {
	t.Helper()
	c, err := client.New(s.url, s.adminID, s.adminSecret, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// tap is an http.RoundTripper in front of the real one that counts the
// exchanges by "METHOD path status" (status 0 when no response came), and
// lets a test act on each response.
type tap struct {
	mu     sync.Mutex
	counts map[string]int
	fault  func(req *http.Request, res *http.Response) (*http.Response, error)
}

func (tp *tap) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(req)
	if err == nil && tp.fault != nil {
		res, err = tp.fault(req, res)
	}
	status := 0
	if res != nil {
		status = res.StatusCode
	}
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if tp.counts == nil {
		tp.counts = map[string]int{}
	}
	tp.counts[fmt.Sprintf("%s %s %d", req.Method, req.URL.Path, status)]++
	return res, err
}

// option routes a client through the tap.
func (tp *tap) option() client.Option { return client.WithHTTPClient(&http.Client{Transport: tp}) }

// count returns how many exchanges there were of the given
// "METHOD path status".
func (tp *tap) count(exchange string) int {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return tp.counts[exchange]
}

// listWarehouses makes one authenticated call and fails the test if it
// fails.
func listWarehouses(t *testing.T, c *client.Client) {
	t.Helper()
	if _, err := c.ListWarehouses(context.Background(), client.ListOptions{}); err != nil {
		t.Fatal(err)
	}
}

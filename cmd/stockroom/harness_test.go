package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom/client"
)

// The harness the command's tests share: a real `stockroom serve` on a
// loopback port, the admin subcommands, tokens and an SDK client.

// syncBuffer is a writer tests can read while a command still writes to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// server is a running `stockroom serve`.
type server struct {
	url                  string
	adminID, adminSecret string
	stdout, stderr       *syncBuffer
	stop                 context.CancelFunc
	done                 chan struct{} // closed when the command returns
	code                 int           // its exit status, once done
}

// wait stops the server and returns its exit status, or -1 if the command
// has not returned a minute after the stop: a test then fails instead of
// hanging.
func (s *server) wait() int {
	s.stop()
	select {
	case <-s.done:
		return s.code
	case <-time.After(time.Minute):
		return -1
	}
}

var (
	credID     = regexp.MustCompile(`client_id=(\S+)`)
	credSecret = regexp.MustCompile(`client_secret=(\S+)`)
)

// startServe runs the real command on a loopback port and waits until it
// listens. vars are environment variables as NAME=VALUE.
func startServe(t *testing.T, dsn string, vars []string, args ...string) *server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &server{stdout: &syncBuffer{}, stderr: &syncBuffer{}, stop: cancel, done: make(chan struct{})}
	argv := append([]string{"serve"}, args...)
	if dsn != "" {
		argv = append(argv, "--db", dsn)
	}
	if !strings.Contains(strings.Join(args, " "), "--addr") && !contains(vars, "STOCKROOM_ADDR=") {
		argv = append(argv, "--addr", "127.0.0.1:0")
	}
	go func() {
		defer close(s.done)
		s.code = run(ctx, argv, getenv(vars), s.stdout, s.stderr)
	}()
	t.Cleanup(func() {
		if s.wait() == -1 {
			t.Errorf("serve did not return a minute after the stop signal: %s", s.stderr)
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if addr := listeningAddr(s.stderr.String()); addr != "" {
			s.url = "http://" + addr
			// The credential is printed before the server listens.
			if m := credID.FindStringSubmatch(s.stdout.String()); m != nil {
				s.adminID, s.adminSecret = m[1], credSecret.FindStringSubmatch(s.stdout.String())[1]
			}
			return s
		}
		select {
		case <-s.done:
			t.Fatalf("serve exited with %d: %s", s.code, s.stderr)
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatalf("serve did not listen: %s", s.stderr)
	return nil
}

func contains(vars []string, prefix string) bool {
	for _, v := range vars {
		if strings.HasPrefix(v, prefix) {
			return true
		}
	}
	return false
}

func getenv(vars []string) func(string) string {
	return func(name string) string {
		for _, v := range vars {
			if k, val, _ := strings.Cut(v, "="); k == name {
				return val
			}
		}
		return ""
	}
}

// listeningAddr finds the address in the "listening" log line.
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

// admin runs an admin command and returns its exit status and output.
func admin(t *testing.T, dsn string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), append(args, "--db", dsn), getenv(nil), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func mustAdmin(t *testing.T, dsn string, args ...string) string {
	t.Helper()
	code, out, errOut := admin(t, dsn, args...)
	if code != 0 {
		t.Fatalf("stockroom %s: exit %d: %s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

type tokenBody struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int    `json:"expires_in"`
}

func getToken(t *testing.T, base, id, secret string) (int, tokenBody) {
	t.Helper()
	res, err := http.PostForm(base+"/api/v1/Token", url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var tb tokenBody
	if err := json.NewDecoder(res.Body).Decode(&tb); err != nil {
		t.Fatalf("token answer %d: %v", res.StatusCode, err)
	}
	return res.StatusCode, tb
}

func mustToken(t *testing.T, base, id, secret string) string {
	t.Helper()
	status, tb := getToken(t, base, id, secret)
	if status != 200 || tb.AccessToken == "" {
		t.Fatalf("token for %s: status %d", id, status)
	}
	return tb.AccessToken
}

var ctx = context.Background()

// sdk returns an SDK client of the server at base, as an integrator's program
// would make one.
func sdk(t *testing.T, base, id, secret string) *client.Client {
	t.Helper()
	c, err := client.New(base, id, secret, client.WithMaxRateLimitWait(0))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// statusOf is the HTTP status of an SDK error; 0 for none or a transport
// error.
func statusOf(err error) int {
	if e, ok := errors.AsType[*client.Error](err); ok {
		return e.StatusCode
	}
	return 0
}

package httpapi

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/metrics"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/testdb"
)

// These tests reach inside the server to add routes that misbehave, which no
// real route does on purpose.

func TestFailuresNeverLeakInternals(t *testing.T) {
	var logs strings.Builder
	s := New(Config{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	s.mux.Handle("GET /boom", s.endpoint(route{public: true, handle: func(w http.ResponseWriter, r *http.Request) error {
		panic("pq: relation \"secret_table\" does not exist")
	}}))
	s.mux.Handle("GET /err", s.endpoint(route{public: true, handle: func(w http.ResponseWriter, r *http.Request) error {
		return errors.New("ERROR: syntax error at or near \"SELECT\" (SQLSTATE 42601)")
	}}))
	srv := httptest.NewServer(s)
	defer srv.Close()
	for _, path := range []string{"/boom", "/err"} {
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		want := `{"statusCode":500,"error":"internal_error","message":"Internal error.","details":null}` + "\n"
		if res.StatusCode != 500 || string(body) != want {
			t.Errorf("%s: %d %s, want 500 %s", path, res.StatusCode, body, want)
		}
		if !strings.Contains(logs.String(), res.Header.Get("X-Request-ID")) {
			t.Errorf("%s: the log does not carry request id %s", path, res.Header.Get("X-Request-ID"))
		}
	}
	if !strings.Contains(logs.String(), "secret_table") || !strings.Contains(logs.String(), "SQLSTATE 42601") {
		t.Errorf("the operator's log lacks the causes: %s", logs.String())
	}
}

// syncBuffer is a log destination that a test may read while the server
// writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestClientGoneIsNotServerError: a request whose client hangs up while it
// runs fails with whatever the database makes of the canceled context; that
// is logged as status 499 at WARN, counted as 499, and never as an ERROR 500.
func TestClientGoneIsNotServerError(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			var logs syncBuffer
			m := metrics.New()
			svc := service.New(testdb.MustOpen(t, engine), service.Options{})
			s := New(Config{Service: svc, Logger: slog.New(slog.NewJSONHandler(&logs, nil)), Metrics: m})
			started := make(chan string, 1)
			// held runs work once its client is gone, as a request whose
			// client hangs up halfway does.
			held := func(name string, work func(ctx context.Context) error) {
				s.mux.Handle("GET /held/"+name, s.endpoint(route{pattern: "GET /held/" + name, public: true, handle: func(w http.ResponseWriter, r *http.Request) error {
					started <- name
					<-r.Context().Done()
					return work(r.Context())
				}}))
			}
			held("list", func(ctx context.Context) error {
				admin := &stockroom.Principal{ClientID: "admin", Permissions: stockroom.AllPermissions, Scope: stockroom.Scope{All: true}}
				_, err := svc.ListItems(ctx, admin, false, service.Request[stockroom.PageRequest]{In: stockroom.PageRequest{Page: 1, PageSize: 10}})
				return err
			})
			held("commit", func(ctx context.Context) error {
				return fmt.Errorf("receive: commit: %w", sql.ErrTxDone)
			})
			srv := httptest.NewServer(s)
			defer srv.Close()
			for _, name := range []string{"list", "commit"} {
				ctx, cancel := context.WithCancel(context.Background())
				req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/held/"+name, nil)
				req.Header.Set("X-Request-ID", "gone-"+name)
				done := make(chan error, 1)
				go func() {
					res, err := http.DefaultTransport.RoundTrip(req)
					if err == nil {
						res.Body.Close()
					}
					done <- err
				}()
				<-started
				cancel()
				if err := <-done; err == nil {
					t.Fatalf("%s: the request finished before the client hung up", name)
				}
				line := waitForLog(t, &logs, `"request_id":"gone-`+name+`","method"`)
				var entry struct {
					Level  string
					Status int
				}
				if err := json.Unmarshal([]byte(line), &entry); err != nil {
					t.Fatal(err)
				}
				if entry.Status != 499 || entry.Level != "WARN" {
					t.Errorf("%s: access log %s, want status 499 at WARN", name, line)
				}
			}
			if strings.Contains(logs.String(), `"level":"ERROR"`) {
				t.Errorf("a client's hang-up is logged as an error:\n%s", logs.String())
			}
			rec := httptest.NewRecorder()
			m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
			for _, name := range []string{"list", "commit"} {
				if want := `stockroom_http_requests_total{code="499",route="GET /held/` + name + `"} 1`; !strings.Contains(rec.Body.String(), want) {
					t.Errorf("metrics lack %s", want)
				}
			}
			if strings.Contains(rec.Body.String(), `code="500"`) {
				t.Errorf("metrics count a 500")
			}
		})
	}
}

// waitForLog returns the first log line containing substr, once the server
// has written it; the request's last line comes after its client has gone.
func waitForLog(t *testing.T, logs *syncBuffer, substr string) string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for line := range strings.SplitSeq(logs.String(), "\n") {
			if strings.Contains(line, substr) {
				return line
			}
		}
	}
	t.Fatalf("no log line with %s in:\n%s", substr, logs.String())
	return ""
}

// TestAddressKey: the key an address's budget is kept under.
func TestAddressKey(t *testing.T) {
	for in, want := range map[string]string{
		"198.51.100.7":                   "198.51.100.7",
		"::ffff:198.51.100.7":            "198.51.100.7",
		"2001:db8:1:2:3:4:5:6":           "2001:db8:1:2::/64",
		"2001:db8:1:2::":                 "2001:db8:1:2::/64",
		"2001:db8:1:3::1":                "2001:db8:1:3::/64",
		"fe80::1%eth0":                   "fe80::/64",
		"::1":                            "::/64",
		"2001:0db8:0001:0002:ffff::ffff": "2001:db8:1:2::/64",
	} {
		if got := addressKey(netip.MustParseAddr(in)); got != want {
			t.Errorf("addressKey(%s) = %s, want %s", in, got, want)
		}
	}
}

package httpapi

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
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

package openapitest_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/internal/openapitest"
)

// dropAnswers stands for a fault above the checker: the server answered, and
// the caller gets only an error.
type dropAnswers struct{ base http.RoundTripper }

var errDropped = errors.New("connection lost (simulated)")

func (d dropAnswers) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := d.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	res.Body.Close()
	return nil, errDropped
}

// TestCheckerSeesBeneathAFault: a response the document forbids is caught
// even when a fault injected above the checker hides it from the caller, and
// one it allows is not.
func TestCheckerSeesBeneathAFault(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-ID", "r-1")
		w.Header().Set("X-API-Version", "v1")
		if r.URL.Query().Get("wrong") != "" {
			w.Write([]byte(`{"status":"fine"}`)) // the document says "ok"
			return
		}
		w.Write([]byte(`{"status":"ok"}`))
	}))
	defer srv.Close()
	c, err := openapitest.New()
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Transport: dropAnswers{c.Transport(http.DefaultTransport)}}

	if _, err := hc.Get(srv.URL + "/healthz"); !errors.Is(err, errDropped) {
		t.Fatalf("the fault did not hide the answer: %v", err)
	}
	if got := c.Mismatches(); c.Checked() != 1 || len(got) != 0 {
		t.Fatalf("a valid answer: %d checked, mismatches %v", c.Checked(), got)
	}
	if _, err := hc.Get(srv.URL + "/healthz?wrong=1"); !errors.Is(err, errDropped) {
		t.Fatalf("the fault did not hide the answer: %v", err)
	}
	if got := c.Mismatches(); c.Checked() != 2 || len(got) != 1 || !strings.Contains(got[0], "GET /healthz?wrong=1 -> 200") {
		t.Fatalf("a wrong answer beneath the fault: %d checked, mismatches %v", c.Checked(), got)
	}
}

// TestTransportNeedsRun: outside Run there is no checker to hand responses
// to, and Transport says so rather than let them pass unchecked.
func TestTransportNeedsRun(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Transport outside Run did not panic")
		}
	}()
	openapitest.Transport(http.DefaultTransport)
}

package httpapi_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

// rawConn opens a plain TCP connection to the test server, for requests that
// http.Client would not send the way some clients do.
func (a *api) rawConn(t *testing.T) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(a.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	// A guard against a hung test, not a measurement.
	_ = c.SetDeadline(time.Now().Add(time.Minute))
	return c
}

// readRaw reads one response from c, as a client that only now starts
// reading would.
func readRaw(t *testing.T, c net.Conn, req *http.Request) (response, *http.Response) {
	t.Helper()
	res, err := http.ReadResponse(bufio.NewReader(c), req)
	if err != nil {
		t.Fatalf("no response: %v", err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("response body: %v", err)
	}
	return response{status: res.StatusCode, header: res.Header, body: b}, res
}

// TestLargeBodyAnsweredWhenSentFirst: a client that writes its whole request
// before it reads the answer gets the 413 error object, not a reset
// connection, whether the body's size is declared or found while reading it.
// The connection is closed after the answer.
func TestLargeBodyAnsweredWhenSentFirst(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := a.token(t, a.adminID, a.adminSecret)
		body := func(n int) []byte {
			b := bytes.Repeat([]byte(" "), n)
			b[0], b[n-1] = '{', '}'
			return b
		}
		for _, tc := range []struct {
			name    string
			size    int
			chunked bool
			headers string
		}{
			{"ContentLength2MiB", 2 << 20, false, ""},
			{"ContentLength5MiB", 5 << 20, false, ""},
			{"Chunked2MiB", 2 << 20, true, ""},
			{"Chunked5MiB", 5 << 20, true, ""},
			{"ChunkedIdempotent", 3 << 20, true, "Idempotency-Key: big-1\r\n"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				c := a.rawConn(t)
				var req bytes.Buffer
				fmt.Fprintf(&req, "POST /api/v1/Inventory/Receive HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n%s", tok, tc.headers)
				b := body(tc.size)
				if tc.chunked {
					req.WriteString("Transfer-Encoding: chunked\r\n\r\n")
					for chunk := range slicesChunk(b, 64<<10) {
						fmt.Fprintf(&req, "%x\r\n%s\r\n", len(chunk), chunk)
					}
					req.WriteString("0\r\n\r\n")
				} else {
					fmt.Fprintf(&req, "Content-Length: %d\r\n\r\n", len(b))
					req.Write(b)
				}
				if _, err := c.Write(req.Bytes()); err != nil {
					t.Fatalf("writing the request: %v", err)
				}
				r, res := readRaw(t, c, &http.Request{Method: "POST"})
				wantError(t, r, 413, stockroom.ETOOLARGE)
				if !res.Close {
					t.Errorf("the connection is kept open after a refused body")
				}
				if n, err := c.Read(make([]byte, 1)); n != 0 || err == nil {
					t.Errorf("the server sent more after the answer: %d, %v", n, err)
				}
			})
		}
	})
}

func slicesChunk(b []byte, n int) func(func([]byte) bool) {
	return func(yield func([]byte) bool) {
		for len(b) > 0 {
			k := min(n, len(b))
			if !yield(b[:k]) {
				return
			}
			b = b[k:]
		}
	}
}

// TestLargeBodyEndlessUploadIsCut: the server reads a refused body only up
// to a bound, so an endless upload cannot hold it: the connection is closed.
func TestLargeBodyEndlessUploadIsCut(t *testing.T) {
	a := newAPI(t, "sqlite")
	c := a.rawConn(t)
	if _, err := fmt.Fprintf(c, "POST /api/v1/Item HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", int64(1)<<40); err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 64<<10)
	var sent int64
	var err error
	for sent < 1<<30 {
		var n int
		n, err = c.Write(chunk)
		sent += int64(n)
		if err != nil {
			break
		}
	}
	var ne net.Error
	if err == nil || (errors.As(err, &ne) && ne.Timeout()) {
		t.Fatalf("the server still took the upload after %d MiB (%v)", sent>>20, err)
	}
	if sent > 128<<20 {
		t.Errorf("the server read %d MiB of a refused body before closing", sent>>20)
	}
}

// TestLargeBodyExpectContinue: a client that asks before sending a body
// over the limit is refused at once, without being asked for the body.
func TestLargeBodyExpectContinue(t *testing.T) {
	a := newAPI(t, "sqlite")
	c := a.rawConn(t)
	if _, err := fmt.Fprintf(c, "POST /api/v1/Item HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: %d\r\n\r\n", 2<<20); err != nil {
		t.Fatal(err)
	}
	r, _ := readRaw(t, c, &http.Request{Method: "POST"})
	wantError(t, r, 413, stockroom.ETOOLARGE)
}

package webhook

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
)

var event = Payload{EventID: "ev_42", EventType: "item.created", Body: []byte(`{"id":"ev_42","type":"item.created"}`)}

// receiver is a real HTTP receiver on loopback that records what it got.
type receiver struct {
	*httptest.Server
	requests atomic.Int32
	conns    atomic.Int32 // connections accepted
	last     atomic.Pointer[http.Request]
	body     atomic.Pointer[[]byte]
}

func newReceiver(t *testing.T, answer http.HandlerFunc) *receiver {
	t.Helper()
	r := &receiver{}
	r.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.body.Store(&body)
		r.last.Store(req)
		r.requests.Add(1)
		answer(w, req)
	}))
	r.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			r.conns.Add(1)
		}
	}
	r.Start()
	t.Cleanup(r.Close)
	return r
}

func status(code int) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(code) }
}

func TestDeliverSendsSignedEvent(t *testing.T) {
	rcv := newReceiver(t, status(http.StatusNoContent))
	const secret = "whsec_test"
	res := NewSender(Options{AllowPrivate: true}).Deliver(context.Background(), Target{URL: rcv.URL + "/hook", Secret: secret}, event)
	if !res.OK() || res.Status != http.StatusNoContent || res.Duration <= 0 {
		t.Fatalf("Deliver = %+v, want a success with status 204", res)
	}
	req, body := rcv.last.Load(), *rcv.body.Load()
	for header, want := range map[string]string{
		"Content-Type":         "application/json",
		"User-Agent":           "Stockroom-Webhook/1",
		"Stockroom-Event-Id":   "ev_42",
		"Stockroom-Event-Type": "item.created",
	} {
		if got := req.Header.Get(header); got != want {
			t.Errorf("%s = %q, want %q", header, got, want)
		}
	}
	if req.Method != http.MethodPost || req.URL.Path != "/hook" || !bytes.Equal(body, event.Body) {
		t.Fatalf("receiver got %s %s %q", req.Method, req.URL.Path, body)
	}
	sig := req.Header.Get(client.WebhookSignatureHeader)
	if err := client.VerifyWebhook(secret, sig, body); err != nil {
		t.Fatalf("VerifyWebhook of the delivery: %v", err)
	}
	if err := client.VerifyWebhook(secret, sig, append(body, ' ')); err == nil {
		t.Fatal("VerifyWebhook accepted a changed body")
	}
	if err := client.VerifyWebhook("whsec_other", sig, body); err == nil {
		t.Fatal("VerifyWebhook accepted another secret")
	}
	if err := client.VerifyWebhookAt(secret, sig, body, time.Now().Add(10*time.Minute), 0); err == nil {
		t.Fatal("VerifyWebhook accepted a delivery signed 10 minutes ago")
	}
	later := strings.Replace(sig, "t=", "t=1", 1)
	if err := client.VerifyWebhook(secret, later, body); err == nil {
		t.Fatal("VerifyWebhook accepted a changed timestamp")
	}
}

func TestDeliverSignsWithGivenClock(t *testing.T) {
	rcv := newReceiver(t, status(http.StatusOK))
	at := time.Unix(1700000000, 0)
	NewSender(Options{AllowPrivate: true, Now: func() time.Time { return at }}).Deliver(context.Background(), Target{URL: rcv.URL, Secret: "s"}, event)
	if got, want := rcv.last.Load().Header.Get("Stockroom-Signature"), stockroom.SignWebhook("s", at, event.Body); got != want {
		t.Fatalf("signature %q, want %q", got, want)
	}
}

func TestDeliverFailsOnAnyStatusButSuccess(t *testing.T) {
	for code, wantErr := range map[int]string{
		http.StatusInternalServerError: "HTTP 500",
		http.StatusGone:                "HTTP 410",
		http.StatusFound:               "HTTP 302: redirects are not followed",
	} {
		rcv := newReceiver(t, status(code))
		res := NewSender(Options{AllowPrivate: true}).Deliver(context.Background(), Target{URL: rcv.URL, Secret: "s"}, event)
		if res.OK() || res.Status != code || res.Err != wantErr {
			t.Errorf("answer %d: Deliver = %+v, want a failure %q", code, res, wantErr)
		}
	}
}

func TestDeliverDoesNotFollowRedirects(t *testing.T) {
	elsewhere := newReceiver(t, status(http.StatusOK))
	rcv := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/moved", http.StatusTemporaryRedirect)
	})
	res := NewSender(Options{AllowPrivate: true}).Deliver(context.Background(), Target{URL: rcv.URL, Secret: "s"}, event)
	if res.OK() || res.Status != http.StatusTemporaryRedirect {
		t.Fatalf("Deliver = %+v, want a failed 307", res)
	}
	if n := elsewhere.requests.Load(); n != 0 {
		t.Fatalf("the redirect's target got %d requests, want none", n)
	}
}

// A receiver streaming 10 MiB of answer costs a delivery the cap and a little
// buffering, counted as the bytes the sender's connections read.
func TestDeliverCapsResponseBody(t *testing.T) {
	const streamed = 10 << 20
	rcv := newReceiver(t, func(w http.ResponseWriter, _ *http.Request) {
		chunk := bytes.Repeat([]byte("x"), 32<<10)
		for sent := 0; sent < streamed; sent += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	s := NewSender(Options{AllowPrivate: true})
	var read atomic.Int64
	transport := s.client.Transport.(*http.Transport)
	dial := transport.DialContext
	transport.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := dial(ctx, network, addr)
		return countingConn{conn, &read}, err
	}
	res := s.Deliver(context.Background(), Target{URL: rcv.URL, Secret: "s"}, event)
	if !res.OK() {
		t.Fatalf("Deliver = %+v, want a success: the answer was 200", res)
	}
	if n := read.Load(); n < MaxResponseBytes || n > 4*MaxResponseBytes {
		t.Fatalf("read %d bytes of a %d-byte answer, want about the cap of %d", n, streamed, MaxResponseBytes)
	}
}

type countingConn struct {
	net.Conn
	read *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

func TestDeliverReusesConnection(t *testing.T) {
	rcv := newReceiver(t, func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, `{"ok":true}`) })
	s := NewSender(Options{AllowPrivate: true})
	for range 3 {
		if res := s.Deliver(context.Background(), Target{URL: rcv.URL, Secret: "s"}, event); !res.OK() {
			t.Fatalf("Deliver = %+v", res)
		}
	}
	if n := rcv.conns.Load(); n != 1 {
		t.Fatalf("3 deliveries opened %d connections, want 1", n)
	}
}

func TestDeliverTimesOut(t *testing.T) {
	release := make(chan struct{})
	rcv := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	res := NewSender(Options{AllowPrivate: true, Timeout: 50 * time.Millisecond}).Deliver(context.Background(), Target{URL: rcv.URL, Secret: "s"}, event)
	if res.OK() || res.Status != 0 || res.Err != "no answer within 50ms" {
		t.Fatalf("Deliver = %+v, want a timeout", res)
	}
}

func TestDeliverCanceled(t *testing.T) {
	rcv := newReceiver(t, status(http.StatusOK))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := NewSender(Options{AllowPrivate: true}).Deliver(ctx, Target{URL: rcv.URL, Secret: "s"}, event)
	if res.OK() || res.Err != "delivery canceled" {
		t.Fatalf("Deliver = %+v, want canceled", res)
	}
}

// A name that resolves to loopback passes the URL check and is refused when
// the delivery connects; with private addresses allowed it is delivered.
func TestDeliverRefusesNameResolvingToLoopback(t *testing.T) {
	tlsRcv := httptest.NewTLSServer(status(http.StatusOK))
	defer tlsRcv.Close()
	url := strings.Replace(tlsRcv.URL, "127.0.0.1", "localhost", 1)
	res := NewSender(Options{}).Deliver(context.Background(), Target{URL: url, Secret: "s"}, event)
	if res.OK() || !strings.Contains(res.Err, "address is not public") {
		t.Fatalf("Deliver to %s = %+v, want refused as not public", url, res)
	}

	rcv := newReceiver(t, status(http.StatusOK))
	url = strings.Replace(rcv.URL, "127.0.0.1", "localhost", 1)
	if res := NewSender(Options{AllowPrivate: true}).Deliver(context.Background(), Target{URL: url, Secret: "s"}, event); !res.OK() {
		t.Fatalf("Deliver to %s with private allowed = %+v", url, res)
	}
}

func TestDeliverRefusesURLBeforeConnecting(t *testing.T) {
	for _, url := range []string{"http://hooks.example.com/", "https://127.0.0.1/", "https://[::ffff:127.0.0.1]/", "https://169.254.169.254/"} {
		if res := NewSender(Options{}).Deliver(context.Background(), Target{URL: url, Secret: "s"}, event); res.OK() || res.Status != 0 {
			t.Errorf("Deliver to %s = %+v, want refused", url, res)
		}
	}
}

// The delivery log shows Result.Err to the subscriber: it must not repeat
// credentials the URL carries, nor the secret.
func TestDeliverErrorHidesURLAndSecret(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	res := NewSender(Options{AllowPrivate: true}).Deliver(context.Background(), Target{URL: "http://user:hunter2@" + addr + "/hook?token=tok123", Secret: "whsec_s3cret"}, event)
	if res.OK() || res.Err == "" {
		t.Fatalf("Deliver to a closed port = %+v, want a failure", res)
	}
	for _, leak := range []string{"hunter2", "tok123", "whsec_s3cret", "/hook"} {
		if strings.Contains(res.Err, leak) {
			t.Errorf("Err %q contains %q", res.Err, leak)
		}
	}
}

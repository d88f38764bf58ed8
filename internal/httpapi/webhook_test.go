package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/testdb"
)

// testWebhooks are the webhook options of the tests: receivers on
// loopback, retries after milliseconds, leases of a second.
var testWebhooks = service.WebhookOptions{AllowPrivate: true, RetryBase: 20 * time.Millisecond, Lease: time.Second, Poll: 50 * time.Millisecond}

// webhookAPI is a server whose webhooks may reach loopback.
func webhookAPI(t *testing.T, engine string, opts service.WebhookOptions) *api {
	t.Helper()
	return newAPIWith(t, testdb.MustOpen(t, engine), service.Options{Webhooks: opts})
}

// receiver is a real HTTP receiver on loopback that keeps the deliveries
// whose signature is valid and answers with what fail says.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	secret string
	got    []stockroom.Event
	bad    int
	fail   func(n int) bool // n: the requests so far
	n      int
}

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{fail: func(int) bool { return false }}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		rc.n++
		if rc.fail(rc.n) {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		if err := client.VerifyWebhook(rc.secret, r.Header.Get(client.WebhookSignatureHeader), body); err != nil {
			rc.bad++
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var e stockroom.Event
		if err := json.Unmarshal(body, &e); err != nil || e.ID != r.Header.Get("Stockroom-Event-Id") {
			rc.bad++
		}
		rc.got = append(rc.got, e)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(rc.Close)
	return rc
}

// events returns the events received so far.
func (rc *receiver) events() []stockroom.Event {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.got)
}

// subscribe creates a subscription to the receiver and keeps its secret.
func (a *api) subscribe(t *testing.T, tok string, rc *receiver, events string) stockroom.Webhook {
	t.Helper()
	r := a.send(t, "POST", "/api/v1/Webhook", tok, map[string]any{"name": "test", "url": rc.URL + "/hook", "events": events, "payloadMode": 1})
	wh := decode[stockroom.Webhook](t, r)
	if r.status != 201 || !strings.HasPrefix(wh.Secret, "whsec_") || r.header.Get("Location") != "/api/v1/Webhook/"+strconv.FormatInt(wh.Rec, 10) {
		t.Fatalf("create: %d %s, Location %q", r.status, r.body, r.header.Get("Location"))
	}
	rc.mu.Lock()
	rc.secret = wh.Secret
	rc.mu.Unlock()
	return wh
}

// runWebhooks runs the delivery worker until the test ends.
func (a *api) runWebhooks(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); a.svc.RunWebhooks(ctx, slog.New(slog.NewTextHandler(io.Discard, nil))) }()
	t.Cleanup(func() { cancel(); <-done })
}

// waitFor waits until cond holds, at most 30 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// eachWebhookEngine runs f against a server of each engine whose webhooks
// may reach loopback.
func eachWebhookEngine(t *testing.T, f func(t *testing.T, a *api)) {
	eachWebhookEngineWith(t, testWebhooks, f)
}

// eachWebhookEngineWith is eachWebhookEngine with other options.
func eachWebhookEngineWith(t *testing.T, opts service.WebhookOptions, f func(t *testing.T, a *api)) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) { f(t, webhookAPI(t, engine, opts)) })
	}
}

func TestWebhookEndpoints(t *testing.T) {
	eachWebhookEngine(t, func(t *testing.T, a *api) {
		tok := a.token(t, a.adminID, a.adminSecret)
		wh := decode[stockroom.Webhook](t, a.send(t, "POST", "/api/v1/Webhook", tok,
			map[string]any{"name": " Shop ", "url": "http://127.0.0.1:1/x", "events": "stocklevel.changed, item.created,item.created", "payloadMode": 2}))
		if wh.Name != "Shop" || wh.Events != "item.created,stocklevel.changed" || !wh.Active || wh.DisableType != 0 || wh.Secret == "" {
			t.Fatalf("created %+v", wh)
		}
		path := "/api/v1/Webhook/" + strconv.FormatInt(wh.Rec, 10)
		got := decode[stockroom.Webhook](t, a.get(t, path, tok))
		if got.Secret != "" || got.Rec != wh.Rec || got.PayloadMode != 2 {
			t.Fatalf("GET shows %+v", got)
		}
		list := decode[map[string]any](t, a.get(t, "/api/v1/Webhook", tok))
		if list["totalCount"] != float64(1) {
			t.Fatalf("list %v", list)
		}
		t.Run("UpdateRotateDisable", func(t *testing.T) {
			up := decode[stockroom.Webhook](t, a.send(t, "PUT", path, tok, map[string]any{"rotateSecret": true, "active": false, "events": "*"}))
			if up.Secret == "" || up.Secret == wh.Secret || up.Active || up.DisableType != 2 || up.Events != "*" {
				t.Fatalf("updated %+v", up)
			}
			up = decode[stockroom.Webhook](t, a.send(t, "PUT", path, tok, map[string]any{"active": true}))
			if up.Secret != "" || !up.Active || up.DisableType != 0 {
				t.Fatalf("enabled %+v", up)
			}
		})
		t.Run("Validation", func(t *testing.T) {
			v := wantError(t, a.send(t, "POST", "/api/v1/Webhook", tok, map[string]any{"url": "ftp://x", "events": "nope", "payloadMode": 3}), 400, stockroom.EINVALID)
			if f := detailFields(v); !slices.Equal(f, []string{"events", "name", "payloadMode", "url"}) {
				t.Fatalf("fields %v", f)
			}
			v = wantError(t, a.send(t, "PUT", path, tok, map[string]any{"name": "", "events": ""}), 400, stockroom.EINVALID)
			if f := detailFields(v); !slices.Equal(f, []string{"events", "name"}) {
				t.Fatalf("fields %v", f)
			}
		})
		t.Run("Forbidden", func(t *testing.T) {
			id, secret := a.addClient(t, service.NewClient{Permissions: []stockroom.Permission{stockroom.PermItemRead}, Scope: stockroom.Scope{All: true}})
			other := a.token(t, id, secret)
			wantError(t, a.get(t, "/api/v1/Webhook", other), 403, stockroom.EFORBIDDEN)
			wantError(t, a.send(t, "POST", "/api/v1/Webhook", other, map[string]any{}), 403, stockroom.EFORBIDDEN)
			wantError(t, a.send(t, "DELETE", path, other, nil), 403, stockroom.EFORBIDDEN)
		})
		t.Run("AnotherClientsIsNotFound", func(t *testing.T) {
			id, secret := a.addClient(t, service.NewClient{Permissions: []stockroom.Permission{stockroom.PermWebhooks}, Scope: stockroom.Scope{All: true}})
			other := a.token(t, id, secret)
			for _, p := range []string{path, path + "/log", "/api/v1/Webhook/99999", "/api/v1/Webhook/x"} {
				wantError(t, a.get(t, p, other), 404, stockroom.ENOTFOUND)
			}
			wantError(t, a.send(t, "PUT", path, other, map[string]any{"name": "mine"}), 404, stockroom.ENOTFOUND)
			wantError(t, a.send(t, "POST", path+"/test", other, nil), 404, stockroom.ENOTFOUND)
			wantError(t, a.send(t, "DELETE", path, other, nil), 404, stockroom.ENOTFOUND)
			if l := decode[map[string]any](t, a.get(t, "/api/v1/Webhook", other)); l["totalCount"] != float64(0) {
				t.Fatalf("another client lists %v", l)
			}
		})
		t.Run("TestSendIsLogged", func(t *testing.T) {
			rc := newReceiver(t)
			sub := a.subscribe(t, tok, rc, "*")
			p := "/api/v1/Webhook/" + strconv.FormatInt(sub.Rec, 10)
			d := decode[stockroom.WebhookDelivery](t, a.send(t, "POST", p+"/test", tok, nil))
			if !d.Success || d.Status != 204 || d.Type != stockroom.EventWebhookTest || len(rc.events()) != 1 {
				t.Fatalf("test send %+v, receiver got %d", d, len(rc.events()))
			}
			log := decode[struct{ Value []stockroom.WebhookDelivery }](t, a.get(t, p+"/log", tok))
			if len(log.Value) != 1 || log.Value[0].EventID != d.EventID || !log.Value[0].Success || log.Value[0].Attempt != 1 {
				t.Fatalf("log %+v", log.Value)
			}
		})
		t.Run("Delete", func(t *testing.T) {
			if r := a.send(t, "DELETE", path, tok, nil); r.status != 204 {
				t.Fatalf("delete: %d %s", r.status, r.body)
			}
			wantError(t, a.get(t, path, tok), 404, stockroom.ENOTFOUND)
		})
	})
}

// Without --webhook-allow-private a loopback, private or link-local URL,
// and plain http, is refused naming url.
func TestWebhookAddressGuard(t *testing.T) {
	a := webhookAPI(t, "sqlite", service.WebhookOptions{})
	tok := a.token(t, a.adminID, a.adminSecret)
	for _, url := range []string{"https://127.0.0.1/x", "https://10.1.2.3/x", "https://169.254.169.254/latest", "https://[::1]/x", "https://localhost/x", "http://example.com/x"} {
		v := wantError(t, a.send(t, "POST", "/api/v1/Webhook", tok, map[string]any{"name": "n", "url": url, "events": "*", "payloadMode": 1}), 400, stockroom.EINVALID)
		if f := detailFields(v); !slices.Equal(f, []string{"url"}) {
			t.Fatalf("%s: fields %v", url, f)
		}
	}
}

package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/httpapi"
	"github.com/stockroom/stockroom/internal/openapitest"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// TestMain holds every response the tests receive to the OpenAPI document.
func TestMain(m *testing.M) { os.Exit(openapitest.Run(m)) }

// api is a real server on a loopback port over a fresh real database.
type api struct {
	url         string
	db          *store.DB
	svc         *service.Service
	skew        atomic.Int64 // added to the service clock, in nanoseconds
	adminID     string
	adminSecret string
}

const testTTL = time.Hour

// eachEngine runs f against SQLite, and PostgreSQL when configured.
func eachEngine(t *testing.T, f func(t *testing.T, a *api)) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) { f(t, newAPI(t, engine)) })
	}
}

func newAPI(t testing.TB, engine string) *api {
	t.Helper()
	return newAPIWith(t, testdb.MustOpen(t, engine), service.Options{})
}

// newAPIWith serves db with the given options; the clock and token lifetime
// are the harness's.
func newAPIWith(t testing.TB, db *store.DB, opts service.Options, configure ...func(*httpapi.Config)) *api {
	t.Helper()
	a := &api{db: db}
	opts.TokenTTL = testTTL
	opts.Now = func() time.Time { return stockroom.Now().Add(time.Duration(a.skew.Load())) }
	a.svc = service.New(a.db, opts)
	id, secret, ok, err := a.svc.Bootstrap(context.Background())
	if err != nil {
		t.Fatalf("bootstrap: %v", err)
	}
	if ok {
		a.adminID, a.adminSecret = id, secret
	}
	cfg := httpapi.Config{Service: a.svc}
	for _, f := range configure {
		f(&cfg)
	}
	srv := httptest.NewServer(httpapi.New(cfg))
	t.Cleanup(srv.Close)
	a.url = srv.URL
	return a
}

// advance moves the server's clock forward.
func (a *api) advance(d time.Duration) { a.skew.Add(int64(d)) }

// addClient creates a client through the service, as the admin command does.
func (a *api) addClient(t *testing.T, nc service.NewClient) (id, secret string) {
	t.Helper()
	if nc.Name == "" {
		nc.Name = "test client"
	}
	id, secret, err := a.svc.AddClient(context.Background(), service.Operator, nc)
	if err != nil {
		t.Fatalf("add client: %v", err)
	}
	return id, secret
}

// response is a received response with its body read.
type response struct {
	status int
	header http.Header
	body   []byte
}

// json decodes the body into a generic value.
func (r response) json(t testing.TB) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("body %q is not a JSON object: %v", r.body, err)
	}
	return v
}

// doBody is do with a body given as text.
func (a *api) doBody(t testing.TB, method, path, body string, headers ...string) response {
	t.Helper()
	return a.do(t, method, path, strings.NewReader(body), headers...)
}

// do sends a request; headers come as name, value pairs, and a name given
// twice is sent twice.
func (a *api) do(t testing.TB, method, path string, body io.Reader, headers ...string) response {
	t.Helper()
	req, err := http.NewRequest(method, a.url+path, body)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.Header.Get("X-API-Version") != "v1" {
		t.Errorf("%s %s: X-API-Version %q, want v1", method, path, res.Header.Get("X-API-Version"))
	}
	if res.Header.Get("X-Request-ID") == "" {
		t.Errorf("%s %s: no X-Request-ID", method, path)
	}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		// Every JSON answer (contract §14); the OpenAPI document, the same
		// for everyone, may be cached.
		cache := "no-store"
		if path == "/api/v1/openapi.json" {
			cache = "public, max-age=300"
		}
		if res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("Cache-Control") != cache {
			t.Errorf("%s %s: %d with X-Content-Type-Options %q and Cache-Control %q, want nosniff and %s", method, path,
				res.StatusCode, res.Header.Get("X-Content-Type-Options"), res.Header.Get("Cache-Control"), cache)
		}
	}
	return response{status: res.StatusCode, header: res.Header, body: b}
}

// postForm posts form fields to /Token.
func (a *api) postToken(t testing.TB, form url.Values, headers ...string) response {
	t.Helper()
	return a.do(t, "POST", "/api/v1/Token", strings.NewReader(form.Encode()),
		append([]string{"Content-Type", "application/x-www-form-urlencoded"}, headers...)...)
}

// token gets a bearer token for the given credentials.
func (a *api) token(t testing.TB, id, secret string) string {
	t.Helper()
	r := a.postToken(t, url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}})
	if r.status != 200 {
		t.Fatalf("token request: %d %s", r.status, r.body)
	}
	return r.json(t)["access_token"].(string)
}

// get sends an authenticated GET.
func (a *api) get(t *testing.T, path, token string) response {
	t.Helper()
	return a.do(t, "GET", path, nil, "Authorization", "Bearer "+token)
}

// wantError checks that r is the contract's error object with the given
// status and code, and returns it.
func wantError(t *testing.T, r response, status int, code string) map[string]any {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d (%s), want %d", r.status, r.body, status)
	}
	v := r.json(t)
	if v["error"] != code || v["statusCode"] != float64(status) {
		t.Fatalf("error body %s, want error %q statusCode %d", r.body, code, status)
	}
	msg, _ := v["message"].(string)
	if msg == "" {
		t.Fatalf("error body %s has no message", r.body)
	}
	details, present := v["details"]
	if !present {
		t.Fatalf("error body %s has no details field", r.body)
	}
	if code != stockroom.EINVALID && details != nil && !strings.Contains(string(r.body), `"details":{"operations[`) { // an atomic batch's refusal names its operation
		t.Fatalf("error body %s: details set on a %s error", r.body, code)
	}
	if !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
		t.Fatalf("error Content-Type %q", r.header.Get("Content-Type"))
	}
	return v
}

// detailFields returns the field names of a validation error's details.
func detailFields(v map[string]any) []string {
	d, _ := v["details"].(map[string]any)
	var out []string
	for k := range d {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// send sends an authenticated request with a JSON body (a string is sent as
// it is, anything else is marshalled).
func (a *api) send(t *testing.T, method, path, token string, body any) response {
	t.Helper()
	var b []byte
	switch v := body.(type) {
	case nil:
	case string:
		b = []byte(v)
	default:
		var err error
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	return a.do(t, method, path, bytes.NewReader(b), "Authorization", "Bearer "+token, "Content-Type", "application/json")
}

// mustSend is send for a request that must answer status.
func (a *api) mustSend(t *testing.T, method, path, token string, body any, status int) response {
	t.Helper()
	r := a.send(t, method, path, token, body)
	if r.status != status {
		t.Fatalf("%s %s %v: %d %s, want %d", method, path, body, r.status, r.body, status)
	}
	return r
}

// clientToken creates a client with the given permissions on all warehouses
// and returns a token for it.
func (a *api) clientToken(t *testing.T, readOnly bool, perms ...stockroom.Permission) string {
	t.Helper()
	id, secret := a.addClient(t, service.NewClient{Permissions: perms, Scope: stockroom.Scope{All: true}, ReadOnly: readOnly})
	return a.token(t, id, secret)
}

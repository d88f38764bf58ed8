package console_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/console"
	"github.com/stockroom/stockroom/internal/httpapi"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/testdb"
)

// site is a real server, the API with the console mounted, on loopback
// over a fresh real database.
type site struct {
	engine  string
	url     string
	svc     *service.Service
	adminID string
	secret  string
}

func eachEngine(t *testing.T, f func(t *testing.T, s *site)) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) { f(t, newSite(t, engine)) })
	}
}

func newSite(t *testing.T, engine string) *site {
	t.Helper()
	svc := service.New(testdb.MustOpen(t, engine), service.Options{TokenTTL: time.Hour})
	id, secret, _, err := svc.Bootstrap(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	api := httpapi.New(httpapi.Config{Service: svc})
	srv := httptest.NewServer(console.Mount(api, console.New(console.Config{API: api, Service: svc})))
	t.Cleanup(srv.Close)
	return &site{engine: engine, url: srv.URL, svc: svc, adminID: id, secret: secret}
}

// browser is a cookie-keeping client that does not follow redirects, so
// that a test sees each answer.
type browser struct {
	t    *testing.T
	s    *site
	c    *http.Client
	csrf string
}

func (s *site) browser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, s: s, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

type page struct {
	status int
	header http.Header
	body   string
}

func (b *browser) do(method, path string, form url.Values, origin string) page {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, b.s.url+path, body)
	if err != nil {
		b.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	p := page{status: res.StatusCode, header: res.Header, body: string(raw)}
	if m := csrfField.FindStringSubmatch(p.body); m != nil {
		b.csrf = m[1]
	}
	return p
}

var csrfField = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

func (b *browser) get(path string) page { b.t.Helper(); return b.do(http.MethodGet, path, nil, "") }

// post sends a console form as its page would: from this origin, with the
// session's token.
func (b *browser) post(path string, form url.Values) page {
	b.t.Helper()
	form.Set("csrf", b.csrf)
	return b.do(http.MethodPost, path, form, b.s.url)
}

func (b *browser) signIn(id, secret string) {
	b.t.Helper()
	p := b.do(http.MethodPost, "/console/signin", url.Values{"client_id": {id}, "client_secret": {secret}, "next": {"/console/levels"}}, b.s.url)
	if p.status != http.StatusSeeOther {
		b.t.Fatalf("sign in: %d %s", p.status, p.body)
	}
	b.get("/console/levels")
}

// apiCall sends one request to the JSON API as the administrator.
func (s *site) apiCall(t *testing.T, method, path, body string) map[string]any {
	t.Helper()
	tok := s.token(t, s.adminID, s.secret)
	req, _ := http.NewRequest(method, s.url+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	if res.StatusCode >= 300 {
		t.Fatalf("%s %s: %d %v", method, path, res.StatusCode, out)
	}
	return out
}

func (s *site) token(t *testing.T, id, secret string) string {
	t.Helper()
	tok, err := s.svc.IssueToken(context.Background(), id, secret)
	if err != nil {
		t.Fatal(err)
	}
	return tok.AccessToken
}

func (s *site) addClient(t *testing.T, nc service.NewClient) (string, string) {
	t.Helper()
	nc.Name = "console test"
	id, secret, err := s.svc.AddClient(context.Background(), service.Operator, nc)
	if err != nil {
		t.Fatal(err)
	}
	return id, secret
}

var everything = stockroom.Scope{All: true}

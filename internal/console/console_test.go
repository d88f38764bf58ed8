package console_test

import (
	"bufio"
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

func TestConsoleWithoutSessionAsksToSignIn(t *testing.T) {
	s := newSite(t, "sqlite")
	b := s.browser(t)
	for _, c := range []struct{ method, path, want string }{
		{http.MethodGet, "/console/levels?item=X", "/console/signin?next=%2Fconsole%2Flevels%3Fitem%3DX"},
		{http.MethodPost, "/console/stock/receive", "/console/signin?next=%2Fconsole%2F"},
		{http.MethodGet, "/console/live", "/console/signin?next=%2Fconsole%2F"},
		{http.MethodGet, "/console/", "/console/signin?next=%2Fconsole%2F"},
	} {
		p := b.do(c.method, c.path, url.Values{}, s.url)
		if p.status != http.StatusSeeOther || p.header.Get("Location") != c.want {
			t.Errorf("%s %s: %d to %q, want 303 to %q", c.method, c.path, p.status, p.header.Get("Location"), c.want)
		}
	}
	p := b.get("/console/signin")
	if p.status != http.StatusOK || !strings.Contains(p.body, `name="client_secret"`) {
		t.Fatalf("sign-in page: %d", p.status)
	}
	if csp := p.header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "unsafe") {
		t.Errorf("CSP %q", csp)
	}
}

func TestConsoleSignIn(t *testing.T) {
	eachEngine(t, testSignIn)
}

func testSignIn(t *testing.T, s *site) {
	b := s.browser(t)
	p := b.do(http.MethodPost, "/console/signin", url.Values{"client_id": {s.adminID}, "client_secret": {"wrong"}}, s.url)
	if p.status != http.StatusUnauthorized || !strings.Contains(p.body, stockroom.MsgInvalidClient) {
		t.Fatalf("wrong secret: %d, want 401 with the API's message", p.status)
	}
	p = b.do(http.MethodPost, "/console/signin", url.Values{"client_id": {s.adminID}, "client_secret": {s.secret}, "next": {"https://evil.example/"}}, s.url)
	if p.status != http.StatusSeeOther || p.header.Get("Location") != "/console/" {
		t.Fatalf("sign in: %d to %q, want 303 to /console/ (never another site)", p.status, p.header.Get("Location"))
	}
	c := p.header.Get("Set-Cookie")
	for _, want := range []string{"HttpOnly", "SameSite=Strict", "Path=/console", "Max-Age=3600"} {
		if !strings.Contains(c, want) {
			t.Errorf("cookie %q lacks %s", c, want)
		}
	}
	if p := b.get("/console/levels"); p.status != http.StatusOK || b.csrf == "" {
		t.Fatalf("levels after sign-in: %d", p.status)
	}
	u, _ := url.Parse(s.url + "/console/")
	token := b.c.Jar.Cookies(u)[0].Value
	if p := b.post("/console/signout", url.Values{}); p.status != http.StatusSeeOther || !strings.Contains(p.header.Get("Set-Cookie"), "Max-Age=0") {
		t.Fatalf("sign out: %d %q", p.status, p.header.Get("Set-Cookie"))
	}
	if p := b.get("/console/levels"); p.status != http.StatusSeeOther {
		t.Fatalf("levels after sign-out: %d, want 303 to sign in", p.status)
	}
	if _, err := s.svc.Authenticate(context.Background(), token); stockroom.ErrorCode(err) != stockroom.EUNAUTHORIZED {
		t.Fatalf("the signed-out session's token: %v, want it revoked", err)
	}
}

func TestConsoleRefusesFormsWithoutItsToken(t *testing.T) {
	s := newSite(t, "sqlite")
	s.apiCall(t, http.MethodPost, "/api/v1/Item", `{"shortID":"BOLT"}`)
	b := s.browser(t)
	b.signIn(s.adminID, s.secret)
	receive := url.Values{"itemID": {"BOLT"}, "units": {"5"}, "wid": {"1"}, "reasonCode": {"1"}}
	for name, p := range map[string]page{
		"no token":      b.do(http.MethodPost, "/console/stock/receive", receive, s.url),
		"wrong token":   b.do(http.MethodPost, "/console/stock/receive", url.Values{"csrf": {strings.Repeat("0", 32)}, "itemID": {"BOLT"}}, s.url),
		"other origin":  b.do(http.MethodPost, "/console/stock/receive", url.Values{"csrf": {b.csrf}, "itemID": {"BOLT"}}, "https://evil.example"),
		"sign-out only": b.do(http.MethodPost, "/console/signout", url.Values{}, s.url),
	} {
		if p.status != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", name, p.status)
		}
	}
	if p := b.get("/console/levels?item=BOLT"); strings.Contains(p.body, `data-item="BOLT"`) {
		t.Fatal("a refused form received stock")
	}
	if p := b.post("/console/stock/receive", receive); p.status != http.StatusSeeOther {
		t.Fatalf("the page's own form: %d %s", p.status, p.body)
	}
	if p := b.get("/console/levels?item=BOLT"); !strings.Contains(p.body, `data-figure="inStock">5<`) {
		t.Fatal("the level does not show the receipt")
	}
}

func TestConsoleShowsTheServiceRefusals(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *site) {
		s.apiCall(t, http.MethodPost, "/api/v1/Item", `{"shortID":"BOLT"}`)
		b := s.browser(t)
		b.signIn(s.adminID, s.secret)
		b.get("/console/stock/issue")
		p := b.post("/console/stock/issue", url.Values{"itemID": {"BOLT"}, "units": {"7"}, "wid": {"1"}, "reasonCode": {"20"}})
		if p.status != http.StatusConflict || !strings.Contains(p.body, "Insufficient stock: 7 units requested, 0 available.") {
			t.Errorf("issue beyond stock: %d, want 409 with the service's sentence", p.status)
		}
		p = b.post("/console/stock/issue", url.Values{"itemID": {"BOLT"}, "units": {"many"}, "wid": {"1"}})
		if p.status != http.StatusBadRequest || !strings.Contains(p.body, `<p class="field-error" id="e-units">`) ||
			!strings.Contains(p.body, `<p class="field-error" id="e-reasonCode">is required</p>`) {
			t.Errorf("bad fields: %d, want 400 with messages beside units and reasonCode", p.status)
		}

		id, secret := s.addClient(t, service.NewClient{Permissions: []stockroom.Permission{stockroom.PermItemRead}, Scope: everything})
		reader := s.browser(t)
		reader.signIn(id, secret)
		p = reader.post("/console/stock/receive", url.Values{"itemID": {"BOLT"}, "units": {"1"}, "wid": {"1"}, "reasonCode": {"1"}})
		if p.status != http.StatusForbidden || !strings.Contains(p.body, stockroom.MsgNoPermission) {
			t.Errorf("receive without permission 95: %d, want the service's 403", p.status)
		}
		p = reader.get("/console/levels?wid=9")
		if p.status != http.StatusNotFound && p.status != http.StatusForbidden {
			t.Errorf("levels of a warehouse that is not there: %d", p.status)
		}
	})
}

func TestConsoleOwnerLimitedClientSeesOnlyItsOwner(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *site) {
		acme := s.apiCall(t, http.MethodPost, "/api/v1/Customer", `{"shortID":"ACME","name":"Acme"}`)
		s.apiCall(t, http.MethodPost, "/api/v1/Customer", `{"shortID":"BETA","name":"Beta"}`)
		s.apiCall(t, http.MethodPost, "/api/v1/Item", `{"shortID":"BOLT"}`)
		s.apiCall(t, http.MethodPost, "/api/v1/Inventory/Receive", `{"itemID":"BOLT","units":3,"wid":1,"reasonCode":1,"owner":"BETA"}`)
		acmeID := int64(acme["customerID"].(float64))
		id, secret := s.addClient(t, service.NewClient{Permissions: stockroom.AllPermissions, Scope: everything, Owners: &stockroom.Scope{IDs: []int64{acmeID}}})
		b := s.browser(t)
		b.signIn(id, secret)
		if p := b.get("/console/levels"); p.status != http.StatusOK || strings.Contains(p.body, `data-item=`) {
			t.Errorf("levels of an ACME-only client: %d, showing BETA's stock", p.status)
		}
		if p := b.get("/console/levels?owner=BETA"); p.status == http.StatusOK {
			t.Errorf("levels of BETA for an ACME-only client: %d", p.status)
		}
	})
}

func TestConsoleLiveFollowsTheFeed(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *site) {
		s.apiCall(t, http.MethodPost, "/api/v1/Item", `{"shortID":"BOLT"}`)
		s.apiCall(t, http.MethodPost, "/api/v1/Inventory/Receive", `{"itemID":"BOLT","units":3,"wid":1,"reasonCode":1}`)
		b := s.browser(t)
		b.signIn(s.adminID, s.secret)
		req, _ := http.NewRequest(http.MethodGet, s.url+"/console/live", nil)
		res, err := b.c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Fatalf("live: %d %s", res.StatusCode, ct)
		}
		// Messages until the one of the receipt made after the stream
		// opened (lot 2). On SQLite the stream starts exactly at the feed's
		// end; on PostgreSQL at the last event below the horizon, so events
		// committed just before may still come (store.EventHead).
		got := make(chan []string, 1)
		go func() {
			var seen []string
			sc := bufio.NewScanner(res.Body)
			for sc.Scan() {
				if strings.HasPrefix(sc.Text(), "data: ") {
					seen = append(seen, sc.Text())
					if strings.Contains(sc.Text(), `"lot:2"`) {
						got <- seen
						return
					}
				}
			}
		}()
		time.Sleep(200 * time.Millisecond) // the stream's position is taken when it opens
		s.apiCall(t, http.MethodPost, "/api/v1/Inventory/Receive", `{"itemID":"BOLT","units":4,"wid":1,"reasonCode":1}`)
		select {
		case seen := <-got:
			if s.engine == "sqlite" && (len(seen) != 1 || strings.Contains(seen[0], `"lot:1"`)) {
				t.Fatalf("live messages %q: want only the receipt made after the stream opened", seen)
			}
		case <-time.After(15 * time.Second): // PostgreSQL: the feed waits for every older transaction of the cluster (ARCHITECTURE.md)
			t.Fatal("no live message within 15 s of a receipt")
		}
	})
}

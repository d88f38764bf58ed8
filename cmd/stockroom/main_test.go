package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

func TestServeEndToEnd(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			dsn := testdb.DSN(t, engine)
			s := startServe(t, dsn, nil, "--auth-cache", "1s")
			if s.adminID == "" || s.adminSecret == "" {
				t.Fatalf("first start printed no administrator credential on standard output: %s", s.stdout)
			}
			// Standard error holds only the JSON log lines, none with the
			// secret.
			wantOnlyJSONLines(t, s.stderr.String())
			if strings.Contains(s.stderr.String(), s.adminSecret) {
				t.Fatalf("the secret is in the log: %s", s.stderr)
			}

			// The README's walk-through: printed credential → token → list,
			// here through the SDK.
			admin := sdk(t, s.url, s.adminID, s.adminSecret)
			whs, err := admin.ListWarehouses(ctx, client.ListOptions{})
			if err != nil || len(whs.Value) != 1 || whs.Value[0] != (stockroom.Warehouse{ID: 1, Name: "Main", Active: true}) {
				t.Fatalf("GET /Warehouse: %+v %v", whs, err)
			}

			// Admin commands work on the database while the server runs.
			mustAdmin(t, dsn, "warehouse", "add", "--id", "2", "--name", "North")
			out := mustAdmin(t, dsn, "client", "add", "--name", "Picker", "--permissions", "11,88", "--warehouses", "2", "--id", "picker")
			id, secret := credID.FindStringSubmatch(out), credSecret.FindStringSubmatch(out)
			if id == nil || secret == nil || id[1] != "picker" {
				t.Fatalf("client add printed %q", out)
			}
			picker := sdk(t, s.url, "picker", secret[1])
			if whs, err := picker.ListWarehouses(ctx, client.ListOptions{}); err != nil || len(whs.Value) != 1 || whs.Value[0].ID != 2 {
				t.Fatalf("scoped client sees %+v (%v), want only warehouse 2", whs, err)
			}
			if out := mustAdmin(t, dsn, "warehouse", "list"); !strings.Contains(out, "North") || !strings.Contains(out, "Main") {
				t.Fatalf("warehouse list: %s", out)
			}
			out = mustAdmin(t, dsn, "client", "list")
			if !strings.Contains(out, "picker") || !strings.Contains(out, s.adminID) || strings.Contains(out, secret[1]) || strings.Contains(out, s.adminSecret) {
				t.Fatalf("client list (must list both and show no secret): %s", out)
			}
			mustAdmin(t, dsn, "reasoncode", "add", "--code", "77", "--description", "Quality hold", "--direction", "issue")
			if out := mustAdmin(t, dsn, "reasoncode", "list"); !strings.Contains(out, "Quality hold") || !strings.Contains(out, "Purchase order receipt") {
				t.Fatalf("reasoncode list: %s", out)
			}
			rcs, err := admin.ListReasonCodes(ctx, client.ListOptions{Sort: "code", Direction: stockroom.DirectionDesc, PageSize: 1})
			if err != nil || len(rcs.Value) != 1 || rcs.Value[0].Code != 77 || rcs.Value[0].Direction != "issue" {
				t.Fatalf("the API does not show the new reason code: %+v %v", rcs, err)
			}

			// Disabling stops the client's tokens; enabling lets it in again;
			// rotation replaces the secret.
			mustAdmin(t, dsn, "client", "disable", "--id", "picker")
			// The server trusts a checked token for --auth-cache (1s here).
			// (The SDK, refused, asks for a new token once, which is refused
			// too.)
			deadline := time.Now().Add(5 * time.Second)
			for _, err := picker.ListWarehouses(ctx, client.ListOptions{}); statusOf(err) != 401; _, err = picker.ListWarehouses(ctx, client.ListOptions{}) {
				if time.Now().After(deadline) {
					t.Fatalf("disabled client's token still works after 5s (--auth-cache 1s): %v", err)
				}
				time.Sleep(100 * time.Millisecond)
			}
			if status, _ := getToken(t, s.url, "picker", secret[1]); status != 401 {
				t.Fatalf("disabled client got a token: %d", status)
			}
			mustAdmin(t, dsn, "client", "enable", "--id", "picker")
			out = mustAdmin(t, dsn, "client", "rotate-secret", "--id", "picker")
			newSecret := credSecret.FindStringSubmatch(out)
			if newSecret == nil || newSecret[1] == secret[1] {
				t.Fatalf("rotate-secret printed %q", out)
			}
			if status, _ := getToken(t, s.url, "picker", secret[1]); status != 401 {
				t.Fatalf("old secret after rotation: %d, want 401", status)
			}
			mustToken(t, s.url, "picker", newSecret[1])

			// A second start on the same database prints no secret.
			if code := s.wait(); code != 0 {
				t.Fatalf("serve exited %d after the stop signal: %s", code, s.stderr)
			}
			again := startServe(t, dsn, nil)
			if strings.Contains(again.stdout.String()+again.stderr.String(), "client_secret") {
				t.Fatalf("second start printed a secret: %s%s", again.stdout, again.stderr)
			}
			mustToken(t, again.url, s.adminID, s.adminSecret)
		})
	}
}

func TestInstancesStartingTogetherCreateOneAdministrator(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			dsn := testdb.DSN(t, engine)
			var wg sync.WaitGroup
			servers := make([]*server, 3)
			for i := range servers {
				wg.Go(func() { servers[i] = startServe(t, dsn, nil) })
			}
			wg.Wait()
			printed := 0
			for _, s := range servers {
				if s.adminID != "" {
					printed++
					for _, other := range servers {
						mustToken(t, other.url, s.adminID, s.adminSecret)
					}
				}
			}
			if printed != 1 {
				t.Fatalf("%d instances printed an administrator credential, want exactly 1", printed)
			}
		})
	}
}

func TestConfigurationFromEnvironment(t *testing.T) {
	dsn := testdb.DSN(t, "sqlite")
	s := startServe(t, "", []string{"STOCKROOM_DB=" + dsn, "STOCKROOM_TOKEN_TTL=90m", "STOCKROOM_ADDR=127.0.0.1:0"})
	if _, tb := getToken(t, s.url, s.adminID, s.adminSecret); tb.ExpiresIn != 5400 {
		t.Fatalf("STOCKROOM_TOKEN_TTL=90m gave expires_in %d, want 5400", tb.ExpiresIn)
	}
	// A flag beats its variable.
	s2 := startServe(t, "", []string{"STOCKROOM_DB=" + dsn, "STOCKROOM_TOKEN_TTL=90m"}, "--token-ttl", "2h")
	if _, tb := getToken(t, s2.url, s.adminID, s.adminSecret); tb.ExpiresIn != 7200 {
		t.Fatalf("--token-ttl 2h gave expires_in %d, want 7200", tb.ExpiresIn)
	}
}

func TestBadArguments(t *testing.T) {
	dsn := testdb.DSN(t, "sqlite")
	mustAdmin(t, dsn, "migrate") // some arguments are checked against the data
	for _, tc := range []struct {
		args []string
		env  []string
	}{
		{args: []string{"bogus"}},
		{args: []string{"warehouse", "frobnicate"}},
		{args: []string{"warehouse", "add", "--name", "X", "--db", dsn}},
		{args: []string{"warehouse", "add", "--id", "0", "--name", "X", "--db", dsn}},
		{args: []string{"warehouse", "add", "--id", "x", "--name", "X", "--db", dsn}},
		{args: []string{"client", "add", "--name", "x", "--permissions", "12", "--warehouses", "all", "--db", dsn}},
		{args: []string{"client", "add", "--name", "x", "--permissions", "11", "--db", dsn}},
		{args: []string{"client", "add", "--name", "x", "--permissions", "11", "--warehouses", "all", "--secret", "short", "--db", dsn}},
		{args: []string{"client", "disable", "--db", dsn}},
		{args: []string{"reasoncode", "add", "--code", "5", "--description", "d", "--direction", "up", "--db", dsn}},
		{args: []string{"serve", "--token-ttl", "banana"}},
		{args: []string{"serve", "--rate-limit", "0"}},
		{args: []string{"serve", "--auth-cache", "2m"}},
		{args: []string{"serve", "--redis", "no-port"}},
		{args: []string{"serve", "stray"}},
		{args: []string{"serve"}, env: []string{"STOCKROOM_TOKEN_TTL=banana"}},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tc.args, getenv(tc.env), &stdout, &stderr)
		first, _, _ := strings.Cut(stderr.String(), "\n")
		if code != 2 || !strings.HasPrefix(first, "stockroom") || !strings.Contains(stderr.String(), "Usage: stockroom") {
			t.Errorf("%v %v: exit %d, stderr %q; want 2 with a one-line error and usage", tc.args, tc.env, code, stderr.String())
		}
	}
	// Well-formed but refused by the data: exit 1, no usage.
	mustAdmin(t, dsn, "warehouse", "add", "--id", "5", "--name", "Five")
	code, _, errOut := admin(t, dsn, "warehouse", "add", "--id", "5", "--name", "Again")
	if code != 1 || !strings.Contains(errOut, "already exists") {
		t.Errorf("duplicate warehouse: exit %d %q, want 1", code, errOut)
	}
	code, _, errOut = admin(t, dsn, "client", "add", "--name", "x", "--permissions", "11", "--warehouses", "9")
	if code != 2 || !strings.Contains(errOut, "warehouse 9 does not exist") {
		t.Errorf("client on a missing warehouse: exit %d %q, want 2", code, errOut)
	}
}

// TestGracefulShutdown stops the server while a request is half received,
// and proves the three things a graceful stop promises: the server stops
// accepting connections at once, the request in flight still gets its
// answer, and the command then returns, cleanly.
func TestGracefulShutdown(t *testing.T) {
	s := startServe(t, testdb.DSN(t, "sqlite"), nil)
	addr := strings.TrimPrefix(s.url, "http://")
	body := url.Values{"grant_type": {"client_credentials"}, "client_id": {s.adminID}, "client_secret": {s.adminSecret}}.Encode()
	// The body comes through a pipe: the headers go out at once, the rest
	// only when the test writes it.
	pr, pw := io.Pipe()
	req, err := http.NewRequest("POST", s.url+"/api/v1/Token", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = int64(len(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	type answer struct {
		res  *http.Response
		body []byte
		err  error
	}
	answered := make(chan answer, 1)
	go func() {
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			answered <- answer{err: err}
			return
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		answered <- answer{res, b, err}
	}()
	if _, err := io.WriteString(pw, body[:10]); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // let the handler start reading the body
	s.stop()

	// New connections are refused while the request is still in flight,
	// and the command waits for it.
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the server still accepts connections 5s after the stop signal")
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case <-s.done:
		t.Fatalf("the command returned (exit %d) before the request in flight was answered: %s", s.code, s.stderr)
	case a := <-answered:
		t.Fatalf("the request in flight was answered before its body was sent: %+v", a)
	default:
	}

	if _, err := io.WriteString(pw, body[10:]); err != nil {
		t.Fatalf("the rest of the body: %v", err)
	}
	pw.Close()
	var a answer
	select {
	case a = <-answered:
	case <-time.After(10 * time.Second):
		t.Fatal("no answer to the request in flight 10s after its body was complete")
	}
	if a.err != nil {
		t.Fatalf("in-flight request cut off by shutdown: %v", a.err)
	}
	var tb tokenBody
	if err := json.Unmarshal(a.body, &tb); err != nil || a.res.StatusCode != 200 || tb.AccessToken == "" {
		t.Fatalf("in-flight request: %d %s (%v), want 200 with a token", a.res.StatusCode, a.body, err)
	}

	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("the command did not return 10s after its last request was answered: %s", s.stderr)
	}
	if s.code != 0 {
		t.Fatalf("exit %d after graceful shutdown: %s", s.code, s.stderr)
	}
	if !strings.Contains(s.stderr.String(), `"msg":"stopped"`) {
		t.Fatalf("no clean stop logged: %s", s.stderr)
	}
}

func TestDemoLoadsItems(t *testing.T) {
	dsn := testdb.DSN(t, "sqlite")
	mustAdmin(t, dsn, "migrate")
	if out := mustAdmin(t, dsn, "demo", "--items", "1234"); !strings.Contains(out, "1234 requested, 1234 new") {
		t.Fatalf("demo: %q", out)
	}
	if out := mustAdmin(t, dsn, "demo", "--items", "1300"); !strings.Contains(out, "1300 requested, 66 new") {
		t.Fatalf("second demo run: %q", out)
	}
	s := startServe(t, dsn, nil)
	tok := mustToken(t, s.url, s.adminID, s.adminSecret)
	req, err := http.NewRequest("GET", s.url+"/api/v1/Item?pageSize=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var page struct {
		TotalCount int
		Value      []struct{ ShortID string }
	}
	if err := json.NewDecoder(res.Body).Decode(&page); err != nil || page.TotalCount != 1300 || page.Value[0].ShortID != "DEMO-0000001" {
		t.Fatalf("after demo: %+v %v", page, err)
	}
}

func TestAuditCommand(t *testing.T) {
	dsn := testdb.DSN(t, "sqlite")
	mustAdmin(t, dsn, "migrate")
	if out := mustAdmin(t, dsn, "audit"); !strings.Contains(out, "every invariant holds") {
		t.Fatalf("audit of an empty database: %q", out)
	}
	s := startServe(t, dsn, nil)
	c := sdk(t, s.url, s.adminID, s.adminSecret)
	if _, err := c.CreateItem(ctx, client.ItemInput{ShortID: "AUD-1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Receive(ctx, client.ReceiveRequest{ItemID: "AUD-1", Units: stockroom.Whole(10), WID: 1, ReasonCode: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Issue(ctx, client.IssueRequest{ItemID: "AUD-1", Units: stockroom.Whole(4), WID: 1, ReasonCode: 20}); err != nil {
		t.Fatal(err)
	}
	if out := mustAdmin(t, dsn, "audit"); !strings.Contains(out, "every invariant holds") {
		t.Fatalf("audit after transactions: %q", out)
	}
	// Damage the data behind the service's back: the audit reports it and fails.
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.ExecForTest(context.Background(), "UPDATE lots SET units = units + 1"); err != nil {
		t.Fatal(err)
	}
	code, out, _ := admin(t, dsn, "audit")
	if code != 1 || !strings.Contains(out, "discrepancies") {
		t.Fatalf("audit of damaged data: exit %d %q", code, out)
	}
}

func TestMetrics(t *testing.T) {
	dsn := testdb.DSN(t, "sqlite")
	s := startServe(t, dsn, nil, "--rate-limit", "6")
	tok := mustToken(t, s.url, s.adminID, s.adminSecret)
	if status, b, _ := call("POST", s.url+"/api/v1/Item", tok, `{"shortID":"M-1","description":"metered"}`); status != 201 {
		t.Fatalf("create item: %d %s", status, b)
	}
	if status, b, _ := call("POST", s.url+"/api/v1/Inventory/Receive", tok, `{"itemID":"M-1","wid":1,"units":3,"reasonCode":1}`); status != 201 {
		t.Fatalf("receive: %d %s", status, b)
	}
	var statuses []int
	for range 6 {
		status, _, _ := call("GET", s.url+"/api/v1/Warehouse", tok, "")
		statuses = append(statuses, status)
	}
	if !slices.Equal(statuses, []int{200, 200, 200, 200, 429, 429}) {
		t.Fatalf("six GETs on a budget of 6 with 2 spent: %v, want four 200 then two 429", statuses)
	}
	body := getMetrics(t, s.url)
	for _, want := range []string{
		`stockroom_http_requests_total{code="201",route="POST /api/v1/Inventory/Receive"} 1`,
		`stockroom_http_requests_total{code="200",route="GET /api/v1/Warehouse"} 4`,
		`stockroom_http_requests_total{code="429",route="GET /api/v1/Warehouse"} 2`,
		`stockroom_http_request_duration_seconds_count{route="POST /api/v1/Item"} 1`,
		`stockroom_rate_limit_rejections_total{budget="client"} 2`,
		`stockroom_stock_transactions_total{type="receive"} 1`,
		`stockroom_rate_limit_redis_up 0`,
		"stockroom_write_batches_total 0\n", // one request at a time: never a batch
		`stockroom_write_alone_total `,
		`go_sql_open_connections{db_name="sqlite-write"}`,
		`go_goroutines`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if t.Failed() {
		t.Log(body)
	}
}

func TestMetricsOnTheirOwnAddress(t *testing.T) {
	s := startServe(t, testdb.DSN(t, "sqlite"), nil, "--metrics-addr", "127.0.0.1:0")
	m := regexp.MustCompile(`"msg":"metrics listening","addr":"([^"]+)"`).FindStringSubmatch(s.stderr.String())
	if m == nil {
		t.Fatalf("no metrics address logged: %s", s.stderr)
	}
	if !strings.Contains(getMetrics(t, "http://"+m[1]), "stockroom_rate_limit_redis_up") {
		t.Fatal("the metrics address serves no Stockroom metrics")
	}
	res, err := http.Get(s.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 404 {
		t.Fatalf("GET /metrics on the API address: %d, want 404", res.StatusCode)
	}
}

func getMetrics(t *testing.T, base string) string {
	t.Helper()
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET /metrics: %d %s (%v)", res.StatusCode, b, err)
	}
	return string(b)
}

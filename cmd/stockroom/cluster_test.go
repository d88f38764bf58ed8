package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stockroom/stockroom/internal/openapitest"
	"github.com/stockroom/stockroom/internal/testdb"
)

// Several instances as separate operating-system processes, so one can be
// killed with SIGKILL. The test binary doubles as the server: run with
// STOCKROOM_TEST_MAIN=1 it is `stockroom`.

// TestMain also holds every response the tests receive to the OpenAPI
// document.
func TestMain(m *testing.M) {
	if os.Getenv("STOCKROOM_TEST_MAIN") == "1" {
		main()
		return
	}
	os.Exit(openapitest.Run(m))
}

// proc is a `stockroom serve` process.
type proc struct {
	t      *testing.T
	args   []string
	cmd    *exec.Cmd
	stdout *syncBuffer // the first start's administrator credential
	stderr *syncBuffer
	addr   string // host:port, kept across restarts
	url    string
	exited chan struct{}
}

// startProc starts `stockroom serve` with args on a free loopback port.
func startProc(t *testing.T, args ...string) *proc {
	t.Helper()
	p := &proc{t: t, args: args, addr: "127.0.0.1:0"}
	p.start()
	t.Cleanup(p.kill)
	return p
}

// start runs the process on p.addr and waits until it listens. The first
// start asks the kernel for a port; restarts keep it.
func (p *proc) start() {
	p.t.Helper()
	p.stdout, p.stderr = &syncBuffer{}, &syncBuffer{}
	p.exited = make(chan struct{})
	p.cmd = exec.Command(os.Args[0], append([]string{"serve", "--addr", p.addr}, p.args...)...)
	p.cmd.Env = append(os.Environ(), "STOCKROOM_TEST_MAIN=1")
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	go func() { _ = p.cmd.Wait(); close(p.exited) }()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); {
		if addr := listeningAddr(p.stderr.String()); addr != "" {
			p.addr, p.url = addr, "http://"+addr
			return
		}
		select {
		case <-p.exited:
			p.t.Fatalf("serve exited: %s", p.stderr)
		case <-time.After(20 * time.Millisecond):
		}
	}
	p.t.Fatalf("serve did not listen: %s", p.stderr)
}

// administrator returns the administrator's credential that the first start
// printed. The process writes it before it listens, but its stdout and
// stderr are copied by two goroutines of exec, so the credential may reach
// p.stdout after start has seen the listening line on p.stderr: wait for it.
func (p *proc) administrator() (id, secret string) {
	p.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		out := p.stdout.String()
		if id, secret := credID.FindStringSubmatch(out), credSecret.FindStringSubmatch(out); id != nil && secret != nil {
			return id[1], secret[1]
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("no administrator printed: %s", out)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// kill ends the process with SIGKILL: no shutdown, no cleanup.
func (p *proc) kill() {
	if p.cmd.Process != nil {
		_ = p.cmd.Process.Signal(syscall.SIGKILL)
		<-p.exited
	}
}

// restart starts the process again on the same port.
func (p *proc) restart() { p.start() }

// startCluster starts n instances on one PostgreSQL database, sharing the
// Redis at redis when it is not empty, and returns them with the
// administrator's credentials.
func startCluster(t *testing.T, n int, dsn, redis string, args ...string) (procs []*proc, adminID, adminSecret string) {
	t.Helper()
	args = append([]string{"--db", dsn}, args...)
	if redis != "" {
		args = append(args, "--redis", redis)
	}
	for i := range n {
		p := startProc(t, args...)
		if i == 0 {
			adminID, adminSecret = p.administrator()
		}
		procs = append(procs, p)
	}
	return procs, adminID, adminSecret
}

// call sends one request and returns its status and body; a transport error,
// also one while the body is read, is status 0 with the error as the body.
func call(method, url, token, body string, headers ...string) (int, []byte, http.Header) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return 0, nil, nil
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	// Go's transport silently sends a request with an Idempotency-Key again
	// when its kept-alive connection breaks before an answer, to the same
	// (dead) address: without a way to rewind the body it cannot, and the
	// caller sees the break, as a client of an instance that died does.
	req.GetBody = nil
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, []byte(err.Error()), nil
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, []byte(err.Error()), nil
	}
	return res.StatusCode, b, res.Header
}

// newClientToken adds a client with every permission and returns a token
// for it from the instance at url.
func newClientToken(t *testing.T, dsn, url string) string {
	t.Helper()
	out := mustAdmin(t, dsn, "client", "add", "--name", testdb.UniqueName("c-"), "--permissions", "all", "--warehouses", "all")
	id, secret := credID.FindStringSubmatch(out), credSecret.FindStringSubmatch(out)
	if id == nil || secret == nil {
		t.Fatalf("client add printed %q", out)
	}
	return mustToken(t, url, id[1], secret[1])
}

// spread sends n GET requests for one client, round robin over the
// instances, from a few goroutines, and counts the statuses.
func spread(t *testing.T, procs []*proc, token string, n int) map[int]int {
	t.Helper()
	var (
		mu     sync.Mutex
		counts = map[int]int{}
		next   atomic.Int64
		wg     sync.WaitGroup
	)
	for range 4 {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(n); i = next.Add(1) - 1 {
				status, body, h := call("GET", procs[int(i)%len(procs)].url+"/api/v1/Warehouse", token, "")
				mu.Lock()
				counts[status]++
				mu.Unlock()
				if status == 429 && (h.Get("Retry-After") == "" || !bytes.HasPrefix(body, []byte(`{"message":"Rate limit exceeded.`))) {
					t.Errorf("429 without Retry-After or with body %s", body)
				}
			}
		})
	}
	wg.Wait()
	return counts
}

// refillBound is the most requests a budget of perMinute can have refilled
// over d: GCRA adds one every minute/perMinute.
func refillBound(perMinute int, d time.Duration) int {
	return int(d/(time.Minute/time.Duration(perMinute))) + 1
}

// TestClusterSharesTheRateLimit: three processes, one PostgreSQL, one Redis.
// A client sending 300 requests over the three gets its limit of 100, plus
// at most what the algorithm refilled while they were sent, and 429 for the
// rest.
func TestClusterSharesTheRateLimit(t *testing.T) {
	redis := testdb.RequireRedis(t)
	dsn := testdb.DSN(t, "postgres")
	procs, _, _ := startCluster(t, 3, dsn, redis, "--rate-limit", "100")
	token := newClientToken(t, dsn, procs[0].url)
	start := time.Now()
	counts := spread(t, procs, token, 300)
	elapsed := time.Since(start)
	bound := refillBound(100, elapsed)
	t.Logf("300 requests over 3 instances in %v: %v (refill bound %d)", elapsed.Round(time.Millisecond), counts, bound)
	if counts[200] < 100 || counts[200] > 100+bound || counts[200]+counts[429] != 300 {
		t.Fatalf("statuses %v: want 100 (+%d refilled at most) of 200 and the rest 429", counts, bound)
	}
}

// delivery is what became of a request sent until answered.
type delivery struct {
	status   int
	body     []byte
	failed   int  // attempts that got no answer, or a 5xx
	cut      int  // of those, attempts cut off in flight rather than refused a connection
	held     int  // attempts told the key was still held (409 with Retry-After)
	replayed bool // the answer was the stored one of an earlier attempt
	answered bool // false if the deadline passed first
}

// deliver sends one stock request with an Idempotency-Key until it gets an
// answer, as a careful client would: when the instance fails under it (no
// answer, a broken connection, a 5xx), it sends the same key and body to the
// next instance; while the key is held by an attempt that has not finished
// (409 with Retry-After) it waits as told.
func deliver(urls []string, first int, path, token, key, body string, deadline time.Time) delivery {
	var d delivery
	for i := first; ; i++ {
		status, resp, h := call("POST", urls[i%len(urls)]+"/api/v1/Inventory/"+path, token, body, "Idempotency-Key", key)
		d.status, d.body = status, resp
		wait := 20 * time.Millisecond
		switch {
		case status == 0 || status >= 500:
			d.failed++
			if !bytes.Contains(resp, []byte("connection refused")) {
				d.cut++
			}
		case status == 409 && h.Get("Retry-After") != "":
			d.held++
			if secs, err := strconv.Atoi(h.Get("Retry-After")); err == nil {
				wait = time.Duration(secs) * time.Second
			}
		default:
			d.replayed, d.answered = h.Get("Idempotent-Replayed") == "true", true
			return d
		}
		if time.Now().Add(wait).After(deadline) {
			return d
		}
		time.Sleep(wait)
	}
}

// TestClusterSurvivesKill: three instances under concurrent receives, moves
// and issues, each request with an Idempotency-Key; one instance is killed
// with SIGKILL midway and started again. A request that fails because its
// instance died is retried with the same key and body on another instance
// until it is answered. Then every request is in the ledger at most once;
// each answered 2xx is there exactly once, as the transaction it was told;
// each refusal is not there; and the invariant audit finds nothing.
func TestClusterSurvivesKill(t *testing.T) {
	redis := testdb.RequireRedis(t)
	dsn := testdb.DSN(t, "postgres")
	procs, _, _ := startCluster(t, 3, dsn, redis, "--rate-limit", "10000000")
	mustAdmin(t, dsn, "warehouse", "add", "--id", "2", "--name", "Second")
	token := newClientToken(t, dsn, procs[0].url)
	items := []string{"K-1", "K-2", "K-3"}
	for _, it := range items {
		if s, b, _ := call("POST", procs[0].url+"/api/v1/Item", token, `{"shortID":"`+it+`","description":"kill test"}`); s != 201 {
			t.Fatalf("create item: %d %s", s, b)
		}
	}

	// A restarted instance keeps its port, so its URL holds throughout.
	urls := []string{procs[0].url, procs[1].url, procs[2].url}
	type outcome struct {
		delivery
		ref  string
		txID int64
	}
	var (
		mu       sync.Mutex
		outcomes []outcome
		seq      atomic.Int64
		stop     atomic.Bool
		wg       sync.WaitGroup
	)
	for w := range 32 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for !stop.Load() {
				n := seq.Add(1)
				ref := fmt.Sprintf("op-%d", n)
				item, wid := items[rng.IntN(len(items))], 1+rng.IntN(2)
				var path, body string
				switch r := rng.IntN(10); {
				case r < 4:
					path, body = "Receive", fmt.Sprintf(`{"itemID":%q,"wid":%d,"units":%d,"reasonCode":1,"reference":%q}`, item, wid, 1+rng.IntN(5), ref)
				case r < 7:
					path, body = "Issue", fmt.Sprintf(`{"itemID":%q,"wid":%d,"units":%d,"reasonCode":20,"reference":%q}`, item, wid, 1+rng.IntN(3), ref)
				default:
					path, body = "Move", fmt.Sprintf(`{"itemID":%q,"wid":%d,"units":%d,"shipToWid":%d,"toSpot":"M","reference":%q}`, item, wid, 1+rng.IntN(3), 3-wid, ref)
				}
				// A key whose instance died is free as soon as its
				// database session ends: seconds, not a lease.
				o := outcome{delivery: deliver(urls, int(n), path, token, "key-"+ref, body, time.Now().Add(30*time.Second)), ref: ref}
				status, resp := o.status, o.body
				switch {
				case !o.answered:
					t.Errorf("%s %s: no answer in 30 s; last %d %s", path, ref, status, resp)
				case status/100 == 2:
					var v struct{ TransactionID int64 }
					if err := json.Unmarshal(resp, &v); err != nil || v.TransactionID == 0 {
						t.Errorf("%s answered %d with %s", path, status, resp)
					}
					o.txID = v.TransactionID
				case status == 409 && bytes.Contains(resp, []byte("applied")):
					// The answer is recorded with the change: a repeat
					// gets it, never this.
					t.Errorf("%s %s: %s", path, ref, resp)
				case status == 409:
				default:
					t.Errorf("%s: %d %s", path, status, resp)
				}
				mu.Lock()
				outcomes = append(outcomes, o)
				mu.Unlock()
			}
		})
	}
	answered := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(outcomes)
	}
	waitFor := func(n int) {
		for deadline := time.Now().Add(2 * time.Minute); answered() < n && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
	}
	// Killed twice: each kill cuts off a few requests in flight, and it is
	// those, committed or not when the instance died, that must not be
	// applied twice.
	waitFor(1000)
	procs[1].kill()
	killedAt := answered()
	waitFor(killedAt + 500)
	procs[1].restart()
	restartedAt := answered()
	waitFor(restartedAt + 700)
	procs[1].kill()
	waitFor(answered() + 300)
	procs[1].restart()
	waitFor(answered() + 800)
	stop.Store(true)
	wg.Wait()

	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ledger := map[string][]int64{}
	rows, err := db.Query(`SELECT reference, id FROM transactions WHERE reference LIKE 'op-%'`)
	if err != nil {
		t.Fatal(err)
	}
	entries := 0
	for rows.Next() {
		var (
			ref string
			id  int64
		)
		if err := rows.Scan(&ref, &id); err != nil {
			t.Fatal(err)
		}
		ledger[ref] = append(ledger[ref], id)
		entries++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	counts := map[int]int{}
	retried, cut, held, replayed, inLedger := 0, 0, 0, 0, 0
	for _, o := range outcomes {
		counts[o.status]++
		if o.cut > 0 {
			cut++
		}
		if o.failed > 0 {
			retried++
			if o.replayed {
				replayed++
			}
		}
		if o.held > 0 {
			held++
		}
		ids := ledger[o.ref]
		inLedger += len(ids)
		switch {
		case len(ids) > 1:
			t.Errorf("%s is in the ledger %d times", o.ref, len(ids))
		case o.status/100 == 2 && (len(ids) != 1 || ids[0] != o.txID):
			t.Errorf("%s answered %d with transaction %d; the ledger has %v", o.ref, o.status, o.txID, ids)
		case o.status == 409 && len(ids) != 0:
			t.Errorf("%s answered 409 but is in the ledger", o.ref)
		}
	}
	t.Logf("%d requests: %v; %d retried after an attempt got no answer (%d cut off in flight), %d of them answered by a replay; "+
		"%d waited for a key held by a dead attempt; first killed after %d, restarted after %d",
		len(outcomes), counts, retried, cut, replayed, held, killedAt, restartedAt)
	if cut == 0 {
		t.Errorf("the kill cut off no request in flight")
	}
	if entries != inLedger {
		t.Errorf("the ledger has %d op- entries, %d of them for requests sent", entries, inLedger)
	}
	if out := mustAdmin(t, dsn, "audit"); !strings.Contains(out, "every invariant holds") {
		t.Fatalf("audit: %s", out)
	}
}

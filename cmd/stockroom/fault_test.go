package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/testdb"
)

// Fault tests stop and start this machine's PostgreSQL and Redis. They run
// only when STOCKROOM_TEST_FAULTS=1, in a step of their own after every other
// test (see .ci/run), and always start the service again when they end.
// The commands are those that start the services on machines of this kind.

const faultsEnv = "STOCKROOM_TEST_FAULTS"

func requireFaults(t *testing.T) {
	t.Helper()
	if os.Getenv(faultsEnv) != "1" {
		t.Skipf("%s is not 1; tests that stop PostgreSQL and Redis are skipped", faultsEnv)
	}
}

func sh(t *testing.T, script string) {
	t.Helper()
	if out, err := exec.Command("sh", "-c", script).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
}

const (
	pgCluster = `pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main`
	pgStop    = pgCluster + ` stop -m fast`
	pgStart   = pgCluster + ` start; for i in $(seq 1 60); do pg_isready -h 127.0.0.1 -p 5432 -q && exit 0; sleep 0.5; done; exit 1`
	redisStop = `redis-cli -h 127.0.0.1 -p 6379 shutdown nosave; for i in $(seq 1 60); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || exit 0; sleep 0.2; done; exit 1`
	redisUp   = `mkdir -p /var/lib/redis /var/log/redis; redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log; ` +
		`for i in $(seq 1 60); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && exit 0; sleep 0.2; done; exit 1`
)

// TestFaultPostgresRestart: PostgreSQL stops for a few seconds under load.
// Meanwhile requests fail with 503 "unavailable", never 500, never with
// internal text, never later than the request timeout; afterwards every
// instance serves again without being restarted.
func TestFaultPostgresRestart(t *testing.T) {
	requireFaults(t)
	redis := testdb.RequireRedis(t)
	dsn := testdb.DSN(t, "postgres")
	const timeout = 5 * time.Second
	procs, _, _ := startCluster(t, 2, dsn, redis, "--rate-limit", "10000000", "--request-timeout", timeout.String())
	token := newClientToken(t, dsn, procs[0].url)
	if s, b, _ := call("POST", procs[0].url+"/api/v1/Item", token, `{"shortID":"PG-1","description":"outage"}`); s != 201 {
		t.Fatalf("create item: %d %s", s, b)
	}
	t.Cleanup(func() { sh(t, pgStart) })

	type result struct {
		proc   int
		status int
		body   string
		took   time.Duration
		at     time.Time
	}
	var (
		mu      sync.Mutex
		results []result
		stop    atomic.Bool
		wg      sync.WaitGroup
	)
	for w := range 8 {
		wg.Go(func() {
			for i := 0; !stop.Load(); i++ {
				pi := (w + i) % len(procs)
				method, path, body := "GET", "/api/v1/Inventory/StockLevels", ""
				if i%2 == 1 {
					method, path, body = "POST", "/api/v1/Inventory/Receive", `{"itemID":"PG-1","wid":1,"units":1,"reasonCode":1}`
				}
				start := time.Now()
				status, b, _ := call(method, procs[pi].url+path, token, body)
				mu.Lock()
				results = append(results, result{pi, status, string(b), time.Since(start), start})
				mu.Unlock()
				time.Sleep(5 * time.Millisecond)
			}
		})
	}
	time.Sleep(time.Second)
	sh(t, pgStop)
	stoppedAt := time.Now()
	time.Sleep(4 * time.Second)
	sh(t, pgStart)
	startedAt := time.Now()
	// Run on until every instance has served again, for at most a minute.
	recovered := func() bool {
		mu.Lock()
		defer mu.Unlock()
		ok := map[int]bool{}
		for _, r := range results {
			if r.at.After(startedAt) && r.status/100 == 2 {
				ok[r.proc] = true
			}
		}
		return len(ok) == len(procs)
	}
	for deadline := time.Now().Add(time.Minute); !recovered() && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)
	stop.Store(true)
	wg.Wait()

	counts := map[int]int{}
	for _, r := range results {
		counts[r.status]++
		switch {
		case r.status/100 == 2:
		case r.status == 503:
			var e struct {
				StatusCode     int
				Error, Message string
			}
			if err := json.Unmarshal([]byte(r.body), &e); err != nil || e.Error != stockroom.EUNAVAILABLE || e.StatusCode != 503 ||
				e.Message != stockroom.MsgDatabaseOffline {
				t.Errorf("503 body %s", r.body)
			}
		default:
			t.Errorf("status %d during the outage: %s", r.status, r.body)
		}
		if r.took > timeout+time.Second {
			t.Errorf("a request took %v, past the %v timeout", r.took, timeout)
		}
	}
	t.Logf("%d requests: %v; PostgreSQL down for %v", len(results), counts, startedAt.Sub(stoppedAt).Round(time.Millisecond))
	if counts[503] == 0 {
		t.Errorf("no 503 while PostgreSQL was down")
	}
	if !recovered() {
		t.Fatalf("not every instance served again after PostgreSQL came back")
	}
	for i, p := range procs {
		if strings.Contains(p.stderr.String(), `"status":500`) {
			t.Errorf("instance %d logged a 500", i)
		}
	}
	if out := mustAdmin(t, dsn, "audit"); !strings.Contains(out, "every invariant holds") {
		t.Fatalf("audit: %s", out)
	}
}

// TestFaultRedisRestart: Redis stops and starts again. While it is down each
// instance limits in process (its own budget), logs that once and never
// fails a request; once it is back the budget is shared again.
func TestFaultRedisRestart(t *testing.T) {
	requireFaults(t)
	redis := testdb.RequireRedis(t)
	dsn := testdb.DSN(t, "postgres")
	const limit = 60
	procs, _, _ := startCluster(t, 2, dsn, redis, "--rate-limit", fmt.Sprint(limit))
	t.Cleanup(func() { sh(t, redisUp) })

	// shared checks that a fresh client gets one budget over both
	// instances.
	shared := func(phase string) {
		t.Helper()
		token := newClientToken(t, dsn, procs[0].url)
		start := time.Now()
		counts := spread(t, procs, token, 3*limit)
		bound := refillBound(limit, time.Since(start))
		if counts[200] < limit || counts[200] > limit+bound || counts[200]+counts[429] != 3*limit {
			t.Fatalf("%s: statuses %v, want %d (+%d) of 200 over both instances and the rest 429", phase, counts, limit, bound)
		}
		t.Logf("%s: %v", phase, counts)
	}
	// Load from another client runs throughout, so Redis stops and starts
	// with requests in flight; none of them may fail.
	var (
		stop   atomic.Bool
		wg     sync.WaitGroup
		mu     sync.Mutex
		during = map[int]int{}
	)
	background := newClientToken(t, dsn, procs[0].url)
	for w := range 4 {
		wg.Go(func() {
			for i := 0; !stop.Load(); i++ {
				status, _, _ := call("GET", procs[(w+i)%len(procs)].url+"/api/v1/Warehouse", background, "")
				mu.Lock()
				during[status]++
				mu.Unlock()
			}
		})
	}
	defer func() {
		stop.Store(true)
		wg.Wait()
		t.Logf("background load: %v", during)
		for status := range during {
			if status != 200 && status != 429 {
				t.Errorf("background load got statuses other than 200 and 429: %v", during)
			}
		}
	}()
	shared("before")

	sh(t, redisStop)
	token := newClientToken(t, dsn, procs[0].url)
	start := time.Now()
	counts := spread(t, procs, token, 4*limit)
	bound := refillBound(limit, time.Since(start))
	// Each instance now has a budget of its own.
	if counts[200] < 2*limit || counts[200] > 2*limit+2*bound || counts[200]+counts[429] != 4*limit {
		t.Fatalf("Redis down: statuses %v, want %d (+%d) of 200 (a budget per instance) and the rest 429", counts, 2*limit, 2*bound)
	}
	t.Logf("Redis down: %v", counts)
	for i, p := range procs {
		if n := strings.Count(p.stderr.String(), "Redis is unreachable"); n != 1 {
			t.Fatalf("instance %d logged the outage %d times: %s", i, n, p.stderr)
		}
	}

	sh(t, redisUp)
	// Each instance tries Redis again within a second of a request.
	probe := newClientToken(t, dsn, procs[0].url)
	for deadline := time.Now().Add(30 * time.Second); ; {
		back := 0
		for _, p := range procs {
			call("GET", p.url+"/api/v1/Warehouse", probe, "")
			if strings.Contains(p.stderr.String(), "Redis is reachable again") {
				back++
			}
		}
		if back == len(procs) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("instances did not return to Redis")
		}
		time.Sleep(200 * time.Millisecond)
	}
	shared("after")
	for i, p := range procs {
		if strings.Contains(p.stderr.String(), `"status":500`) {
			t.Errorf("instance %d logged a 500", i)
		}
	}
}

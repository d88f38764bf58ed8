package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// ledgerRow is one stock transaction as stored.
type ledgerRow struct {
	ID, PartNo, Units int64
	Type              string
}

// readLedger returns the ledger of the SQLite file at path, in id order.
func readLedger(t *testing.T, path string) []ledgerRow {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT id, part_no, units, type FROM transactions ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []ledgerRow
	for rows.Next() {
		var r ledgerRow
		if err := rows.Scan(&r.ID, &r.PartNo, &r.Units, &r.Type); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// runProcess runs the test binary as `stockroom args...` and returns its exit
// status and combined output.
func runProcess(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "STOCKROOM_TEST_MAIN=1")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

// TestBackupWhileServing copies a SQLite database with `stockroom backup`, in
// a process of its own, three times while a `stockroom serve` process receives
// and issues stock for several clients at once. Each copy passes the audit,
// and its ledger is a snapshot: the first transactions of the live ledger,
// without a gap, including every one acknowledged before that backup began.
// A last backup, taken when the writes have stopped, holds every one of them.
// (A plain copy of the database file misses what is still only in the
// write-ahead log: at rest that is nearly always something.)
func TestBackupWhileServing(t *testing.T) {
	dir := t.TempDir()
	live := filepath.Join(dir, "live.db")
	p := startProc(t, "--db", "sqlite:"+live, "--rate-limit", "60000000")
	id, secret := p.administrator()
	tok := mustToken(t, p.url, id, secret)
	const items = 4
	for i := range items {
		if status, b, _ := call("POST", p.url+"/api/v1/Item", tok, fmt.Sprintf(`{"shortID":"BK-%d"}`, i)); status != 201 {
			t.Fatalf("create item: %d %s", status, b)
		}
	}
	l := startStockLoad(t, p.url, tok, items)
	const backups = 3
	var paths []string
	for i := range backups {
		l.waitAcked(t, l.acked.Load()+200)
		path := filepath.Join(dir, fmt.Sprintf("backup-%d.db", i))
		l.epoch.Store(int64(2*i + 1))
		code, out := runProcess(t, "backup", "--db", "sqlite:"+live, "--to", path)
		l.epoch.Store(int64(2*i + 2))
		if code != 0 || !strings.Contains(out, "written to "+path) {
			l.finish(t)
			t.Fatalf("backup %d: exit %d: %s", i, code, out)
		}
		paths = append(paths, path)
	}
	l.waitAcked(t, l.acked.Load()+200)
	l.finish(t)

	if out := mustAdmin(t, "sqlite:"+live, "audit"); !strings.Contains(out, "every invariant holds") {
		t.Fatalf("audit of the live database: %s", out)
	}
	all := readLedger(t, live)
	// Once the writes stop, a backup holds all of them, also those still
	// only in the write-ahead log.
	final := filepath.Join(dir, "backup-final.db")
	if code, out := runProcess(t, "backup", "--db", "sqlite:"+live, "--to", final); code != 0 {
		t.Fatalf("final backup: exit %d: %s", code, out)
	}
	if got := readLedger(t, final); !slices.Equal(got, all) {
		t.Fatalf("the backup taken at rest holds %d transactions, the database %d", len(got), len(all))
	}
	for i, path := range paths {
		if code, out := runProcess(t, "audit", "--db", "sqlite:"+path); code != 0 || !strings.Contains(out, "every invariant holds") {
			t.Fatalf("audit of backup %d: exit %d: %s", i, code, out)
		}
		copied := readLedger(t, path)
		if len(copied) == 0 || len(copied) >= len(all) {
			t.Fatalf("backup %d holds %d transactions of %d; want a part taken while writes went on", i, len(copied), len(all))
		}
		for j, r := range copied {
			if r.ID != int64(j+1) || r != all[j] {
				t.Fatalf("backup %d: transaction %d is %+v; the live ledger has %+v there", i, j+1, r, all[j])
			}
		}
		before := 0
		for _, a := range l.acks {
			if a.epoch <= int64(2*i) {
				before++
				if a.id > int64(len(copied)) {
					t.Fatalf("transaction %d was acknowledged before backup %d began but is not in it (it holds 1..%d)", a.id, i, len(copied))
				}
			}
		}
		t.Logf("backup %d holds transactions 1..%d of %d; %d were acknowledged before it began", i, len(copied), len(all), before)
	}
}

// stockLoad is several clients receiving and issuing stock until finished.
type stockLoad struct {
	// epoch is a counter the test moves forward around each backup. A
	// worker reads it after its answer arrived, so an acknowledgement seen
	// in an epoch committed before the next epoch began.
	epoch, acked atomic.Int64
	stop         chan struct{}
	wg           sync.WaitGroup
	mu           sync.Mutex
	acks         []stockAck
	failures     []string
}

type stockAck struct{ id, epoch int64 }

func startStockLoad(t *testing.T, base, tok string, items int) *stockLoad {
	t.Helper()
	l := &stockLoad{stop: make(chan struct{})}
	for w := range 6 {
		l.wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for {
				select {
				case <-l.stop:
					return
				default:
				}
				item := fmt.Sprintf("BK-%d", rng.IntN(items))
				path, body := "/api/v1/Inventory/Receive", fmt.Sprintf(`{"itemID":%q,"units":%d,"wid":1,"reasonCode":1}`, item, 1+rng.IntN(5))
				if rng.IntN(10) < 4 {
					path, body = "/api/v1/Inventory/Issue", fmt.Sprintf(`{"itemID":%q,"units":%d,"wid":1,"reasonCode":20}`, item, 1+rng.IntN(3))
				}
				status, b, _ := call("POST", base+path, tok, body)
				epoch := l.epoch.Load()
				var res struct{ TransactionID int64 }
				l.mu.Lock()
				switch {
				case status == 409: // too little stock for an issue: nothing changed
				case (status == 200 || status == 201) && json.Unmarshal(b, &res) == nil && res.TransactionID > 0:
					l.acks = append(l.acks, stockAck{res.TransactionID, epoch})
					l.acked.Add(1)
				default:
					l.failures = append(l.failures, fmt.Sprintf("%s: %d %s", path, status, b))
					l.mu.Unlock()
					return
				}
				l.mu.Unlock()
			}
		})
	}
	return l
}

// waitAcked waits until n writes have been acknowledged.
func (l *stockLoad) waitAcked(t *testing.T, n int64) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); l.acked.Load() < n; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			l.finish(t)
			t.Fatalf("only %d of %d writes acknowledged", l.acked.Load(), n)
		}
	}
}

// finish stops the load and fails the test if any request failed.
func (l *stockLoad) finish(t *testing.T) {
	t.Helper()
	select {
	case <-l.stop:
	default:
		close(l.stop)
	}
	l.wg.Wait()
	if len(l.failures) > 0 {
		t.Fatalf("the load failed: %v", l.failures)
	}
}

func TestBackupRefusals(t *testing.T) {
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "stockroom.db")
	mustAdmin(t, dsn, "migrate")
	taken := filepath.Join(t.TempDir(), "taken.db")
	if err := os.WriteFile(taken, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	wantRefusal(t, dsn, []string{"backup", "--to", taken}, taken+" already exists")
	if b, _ := os.ReadFile(taken); string(b) != "keep me" {
		t.Fatalf("an existing target was changed: %q", b)
	}
	wantRefusal(t, "postgres://postgres@127.0.0.1:5432/test", []string{"backup", "--to", filepath.Join(t.TempDir(), "x.db")}, "pg_dump")
	noDir := filepath.Join(t.TempDir(), "missing", "x.db")
	code, _, errOut := admin(t, dsn, "backup", "--to", noDir)
	if _, err := os.Stat(noDir); code != 1 || !errNotExist(err) {
		t.Fatalf("backup into a missing directory: exit %d %q, stat %v", code, errOut, err)
	}
	if code, _, errOut := admin(t, dsn, "backup"); code != 2 || !strings.Contains(errOut, "--to is required") {
		t.Fatalf("backup without --to: exit %d %q, want 2", code, errOut)
	}
}

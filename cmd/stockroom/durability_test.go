package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// TestAcknowledgedWritesSurviveKill: a 2xx is durable (contract §14). A
// burst of receives from 16 goroutines, each with a reference of its own, is
// followed at once by SIGKILL of the server process; the database, opened
// again, has every acknowledged receive in its ledger exactly once, under the
// transaction id the answer gave, and the audit finds nothing.
//
// What this proves, and what it cannot: a killed process loses what it had
// not yet handed to the operating system, so the test shows that nothing is
// acknowledged before it is committed. It cannot show that a commit survives
// a power cut, which would take the kernel's page cache with it; no test on
// this machine can cut the power. That part rests on the setting, which the
// test therefore checks on SQLite: synchronous=FULL in WAL mode fsyncs the
// WAL at every commit, where NORMAL syncs only at checkpoints (see the
// README's "Durability" section and https://sqlite.org/pragma.html#pragma_synchronous).
// PostgreSQL follows its own synchronous_commit.
func TestAcknowledgedWritesSurviveKill(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			dsn, p, token := startDurability(t, engine)
			acked := receiveBurst(t, p.url, token, 16, 200)
			p.kill() // at once: the last answer has just arrived

			db, err := store.Open(context.Background(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if engine == store.SQLite {
				w := db.Pools()["sqlite-write"]
				if w == nil {
					t.Fatalf("no sqlite-write pool in %v", db.Pools())
				}
				var mode int
				if err := w.QueryRow("PRAGMA synchronous").Scan(&mode); err != nil || mode != 2 {
					t.Errorf("the writer runs with synchronous=%d (%v); want 2 (FULL), or a 2xx can vanish on power loss", mode, err)
				}
			}
			if ledger := checkAcked(t, db, dsn, "dur-", acked); len(ledger) != len(acked) {
				t.Errorf("the ledger has %d dur- references for %d acknowledged receives", len(ledger), len(acked))
			}
		})
	}
}

// receiveBurst sends n receives of one unit of DUR-1, each with reference
// dur-N, from workers goroutines, and returns the transaction id of each
// acknowledged one by reference. Every receive must be acknowledged.
func receiveBurst(t *testing.T, base, token string, workers, n int) map[string]int64 {
	t.Helper()
	var (
		acked acks
		wg    sync.WaitGroup
	)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				ref := fmt.Sprintf("dur-%d", i)
				txID, status, resp := receiveOne(base, token, ref)
				if txID == 0 {
					t.Errorf("receive %s: %d %s", ref, status, resp)
					continue
				}
				acked.add(ref, txID)
			}
		})
	}
	wg.Wait()
	if acked.len() != n {
		t.Fatalf("%d of %d receives acknowledged", acked.len(), n)
	}
	return acked.byRef
}

// acks gathers, from many workers, the transaction id of each acknowledged
// receive by its reference.
type acks struct {
	mu    sync.Mutex
	byRef map[string]int64
}

func (a *acks) add(ref string, txID int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.byRef == nil {
		a.byRef = map[string]int64{}
	}
	a.byRef[ref] = txID
}

func (a *acks) len() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.byRef)
}

// ledgerByReference reads the transaction ids of every ledger entry whose
// reference starts with prefix.
func ledgerByReference(t *testing.T, db *store.DB, prefix string) map[string][]int64 {
	t.Helper()
	pools := db.Pools() // one on PostgreSQL; a writer and a reader on SQLite
	pool := pools[db.Engine()]
	if pool == nil {
		pool = pools[db.Engine()+"-read"]
	}
	rows, err := pool.Query(`SELECT reference, id FROM transactions WHERE reference LIKE $1`, prefix+"%")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	ledger := map[string][]int64{}
	for rows.Next() {
		var (
			ref string
			id  int64
		)
		if err := rows.Scan(&ref, &id); err != nil {
			t.Fatal(err)
		}
		ledger[ref] = append(ledger[ref], id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return ledger
}

// TestKillDuringBatchedLoad: SIGKILL of the server while 16 workers keep
// receiving, once the metrics show that writes are being committed in
// batches (group commit). Every receive answered 2xx before the kill is in
// the ledger exactly once, under the transaction id its answer gave, and the
// audit finds nothing. Requests cut off by the kill may or may not have
// committed; the test asks nothing of them.
func TestKillDuringBatchedLoad(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) {
			dsn, p, token := startDurability(t, engine)
			var (
				acked acks
				wg    sync.WaitGroup
			)
			for w := range 32 {
				wg.Go(func() {
					for i := 0; ; i++ {
						ref := fmt.Sprintf("kill-%d-%d", w, i)
						txID, status, resp := receiveOne(p.url, token, ref)
						if status == 0 {
							return // the server is gone
						}
						if txID == 0 {
							t.Errorf("receive %s: %d %s", ref, status, resp)
							return
						}
						acked.add(ref, txID)
					}
				})
			}
			deadline := time.Now().Add(30 * time.Second)
			for batched := false; !batched; {
				if time.Now().After(deadline) {
					p.kill()
					t.Fatal("no batch in 30 s of load from 32 workers")
				}
				time.Sleep(20 * time.Millisecond)
				m := getMetrics(t, p.url)
				batched = acked.len() >= 200 && !strings.Contains(m, "stockroom_write_batches_total 0\n") && strings.Contains(m, "stockroom_write_batches_total ")
			}
			p.kill()
			wg.Wait()

			db, err := store.Open(context.Background(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			ledger := checkAcked(t, db, dsn, "kill-", acked.byRef)
			for ref, ids := range ledger {
				if len(ids) != 1 {
					t.Errorf("%s is in the ledger %d times", ref, len(ids))
				}
			}
			t.Logf("%d receives answered before the kill, %d in the ledger", acked.len(), len(ledger))
		})
	}
}

// startDurability starts a server on a fresh database of engine, with a
// client's token and the item DUR-1.
func startDurability(t *testing.T, engine string) (dsn string, p *proc, token string) {
	t.Helper()
	dsn = testdb.DSN(t, engine)
	p = startProc(t, "--db", dsn, "--rate-limit", "10000000")
	token = newClientToken(t, dsn, p.url)
	if s, b, _ := call("POST", p.url+"/api/v1/Item", token, `{"shortID":"DUR-1","description":"durability test"}`); s != 201 {
		t.Fatalf("create item: %d %s", s, b)
	}
	return dsn, p, token
}

// checkAcked fails the test unless every acknowledged receive (by
// reference) is in the ledger once, under the transaction id its answer
// gave, and the audit finds nothing. It returns the ledger's transactions
// by reference, of the references that start with prefix.
func checkAcked(t *testing.T, db *store.DB, dsn, prefix string, acked map[string]int64) map[string][]int64 {
	t.Helper()
	ledger := ledgerByReference(t, db, prefix)
	for ref, txID := range acked {
		if ids := ledger[ref]; len(ids) != 1 || ids[0] != txID {
			t.Errorf("%s was answered with transaction %d; the ledger has %v", ref, txID, ids)
		}
	}
	if out := mustAdmin(t, dsn, "audit"); !strings.Contains(out, "every invariant holds") {
		t.Errorf("audit: %s", out)
	}
	return ledger
}

// receiveOne sends a receive of one unit of DUR-1 with reference ref and
// returns the transaction id of its 201 answer, 0 for any other answer
// (status 0: none came).
func receiveOne(base, token, ref string) (txID int64, status int, resp []byte) {
	body := fmt.Sprintf(`{"itemID":"DUR-1","wid":1,"units":1,"reasonCode":1,"reference":%q}`, ref)
	status, resp, _ = call("POST", base+"/api/v1/Inventory/Receive", token, body)
	var v struct{ TransactionID int64 }
	if status != 201 || json.Unmarshal(resp, &v) != nil {
		return 0, status, resp
	}
	return v.TransactionID, status, resp
}

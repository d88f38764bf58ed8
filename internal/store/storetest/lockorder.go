package storetest

import (
	"strings"
	"testing"

	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// testLevelLockOrder runs the owners' mix on one item, so that every
// transaction wants that item's level rows, and proves that no transaction
// lost a deadlock. On PostgreSQL the planner is kept from nested loops and
// merge joins, as over a small table it would be by cost: a statement that
// joined several existing rows of levels to their VALUES would then take
// them in the order they lie in the heap, not in the order of their keys,
// and transactions would wait for each other's rows. Each row that shrinks
// is therefore one UPDATE by its key, and rows that may grow one upsert,
// which takes them in the order of its VALUES (store/levels.go). (Measured:
// with an issue's level rows as one UPDATE joined to VALUES, this test
// failed, transactions losing deadlocks until they gave up.)
func (h *harness) testLevelLockOrder(t *testing.T) {
	dsn := h.newDSN(t)
	if strings.HasPrefix(dsn, "postgres") {
		// Without jit=off, a plan the settings price at their penalty
		// (a receipt's lot, whose one-row join they forbid to nest) is
		// compiled by JIT at every run: 140 ms alone, over a second under
		// the load. Batches then held their rows that long, a lone
		// transaction waiting for one ran PostgreSQL's deadlock check
		// (after deadlock_timeout, a second), and it found a cycle a batch
		// member's lock_timeout would have broken within 20 ms: one run
		// in about twenty lost a deadlock for no fault of the lock order.
		dsn += "&enable_nestloop=off&enable_mergejoin=off&jit=off"
	}
	s := stockOn(t, mustOpen(t, dsn))
	m := newMixState(s.ownersMix()...)
	steps := 15
	if testdb.Race {
		steps = 10
	}
	before := s.WriteStats()
	s.runMix(m, []int64{s.a.PartNo}, mixWorkers, steps, 50)
	if t.Failed() {
		return
	}
	// Not checkBatched: on one contended item most writes run alone, and
	// some runs see very few batches (4 of 300 writes under the race
	// detector); the lone transactions' order is what this test is about.
	after := s.logWrites(before)
	if n := after.Deadlocks - before.Deadlocks; n != 0 {
		t.Errorf("%d transactions lost a deadlock over one item's rows", n)
	}
	s.audit()
	s.checkLedgerByReference(m.outcomes)
	if s.Engine() == store.Postgres {
		s.checkHashJoin()
	}
}

// checkHashJoin fails the test unless the planner settings of
// testLevelLockOrder reached the store's connections: unless an UPDATE
// joined to VALUES, as a change of several rows of levels is, is planned as
// a hash join over a scan of levels.
func (s *stockDB) checkHashJoin() {
	s.t.Helper()
	rows, err := s.Pools()[store.Postgres].QueryContext(ctx, `EXPLAIN
		WITH v (part_no, wid, owner) AS (VALUES (CAST(1 AS BIGINT), CAST(1 AS BIGINT), CAST(0 AS BIGINT)),
			(CAST(1 AS BIGINT), CAST(2 AS BIGINT), CAST(0 AS BIGINT)))
		UPDATE levels SET modified = levels.modified FROM v
		WHERE levels.part_no = v.part_no AND levels.wid = v.wid AND levels.owner = v.owner`)
	must(s.t, err)
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var line string
		must(s.t, rows.Scan(&line))
		plan = append(plan, line)
	}
	must(s.t, rows.Err())
	if !strings.Contains(strings.Join(plan, "\n"), "Hash Join") {
		s.t.Errorf("the load's plan of a change of several level rows was not a hash join:\n%s", strings.Join(plan, "\n"))
	}
}

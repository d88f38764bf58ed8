package txn

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"sync/atomic"
	"time"
)

// runBatch applies a batch's members in one transaction on lane, each in a
// savepoint of its own, and commits them together. A batch of one is a
// transaction of its own, as when there is no batching at all.
func (e *Engine) runBatch(lane int, ms []*member) {
	if len(ms) == 1 {
		e.runAlone(lane, ms[0])
		return
	}
	stats := &e.batch.stats
	stats.batches.Add(1)
	stats.batched.Add(int64(len(ms)))
	ctx, cancel := context.WithTimeout(context.Background(), batchTimeout)
	defer cancel()
	err := e.onLane(ctx, lane, func(t *Tx) error {
		if err := t.runMembers(ms, stats); err != nil {
			t.rollback()
			return err
		}
		if err := t.commit(); err != nil {
			t.rollback()
			return err
		}
		return nil
	})
	settleBatch(ms, err)
}

// runMembers applies a batch's members in t, the batch's transaction: on
// PostgreSQL those that may, in a lockstep, and the others each in a
// savepoint of its own. An error means the transaction cannot go on.
func (t *Tx) runMembers(ms []*member, stats *writeCounts) error {
	lead := t.batchSettings() // sent with the first member's statements
	rest := ms
	if t.pg != nil {
		var step []*member
		if step, rest = lockstepMembers(ms); step != nil {
			failed, err := t.lockstep(step, lead, stats)
			if err != nil {
				return err
			}
			rest, lead = append(failed, rest...), nil
		}
	}
	for i, m := range rest {
		mt := &Tx{ctx: m.ctx, pg: t.pg, lite: t.lite, begun: t.begun, lane: t.lane, queue: slices.Clone(lead), xid: t.xid}
		err := mt.runMember(i, m, t.ctx, &stats.deadlocks)
		t.begun = mt.begun
		if err == nil && m.err == nil && !m.again {
			t.adopt(mt) // what a failed member deferred is rolled back with it
		}
		if mt.sends > 0 {
			lead = nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// settleBatch sets the outcome of a batch's members once its transaction,
// whose error is err, has ended.
func settleBatch(ms []*member, err error) {
	if errors.Is(err, ErrOutcomeUnknown) {
		// The batch may be durable: a member that changed something is
		// answered so, and never run again. The others changed nothing
		// either way, and run again, alone.
		for _, m := range ms {
			switch {
			case m.again:
			case m.err == nil:
				m.err, m.result = err, nil
			default:
				m.err, m.result, m.again = nil, nil, true
			}
		}
		return
	}
	if err != nil {
		// Nothing of the batch is durable, and its members' answers were
		// given against changes that are gone: each runs again, alone.
		for _, m := range ms {
			m.err, m.result, m.again = nil, nil, true
		}
	}
}

// batchTimeout bounds what a batch's own statements (its BEGIN, its
// savepoints' ends and its COMMIT) may take; each member's statements run
// within that member's deadline.
const batchTimeout = 30 * time.Second

// runMember runs m in a savepoint of the batch's transaction and sets its
// error, or marks it to run again alone (a deadlock victim). It returns an
// error only when the transaction cannot go on: when m could not be rolled
// back to its savepoint. The rollback runs within the batch's context,
// batchCtx: m's own deadline may be what ended m. A deadlock it lost is
// counted in deadlocks.
func (t *Tx) runMember(i int, m *member, batchCtx context.Context, deadlocks *atomic.Int64) error {
	sp := "m" + strconv.Itoa(i)
	t.Exec("SAVEPOINT " + sp) // after the batch's lead, which a rollback to sp keeps
	result, err := t.apply(m)
	if err == nil {
		t.Exec("RELEASE SAVEPOINT " + sp)
		if err = t.Flush(); err == nil {
			m.err, m.result = nil, result
			return nil
		}
	}
	t.queue, t.checks = nil, nil
	t.ctx = batchCtx
	if t.sends > 0 {
		t.Exec("ROLLBACK TO SAVEPOINT " + sp)
		t.Exec("RELEASE SAVEPOINT " + sp)
		if rerr := t.Flush(); rerr != nil {
			return rerr
		}
	}
	if isRetryable(err) {
		deadlocks.Add(1)
	}
	if isRetryable(err) || isLockTimeout(err) {
		m.again = true
		return nil
	}
	m.err = err
	return nil
}

// batchLockTimeout bounds a batched member's wait for a row lock
// (PostgreSQL). A member alone takes its locks in the one order of the
// write path (ARCHITECTURE.md, Lock order), but a batch takes its members' one after
// the other, so two batches on different lanes, or a batch and a lone
// transaction, can wait for each other. A member that waits this long is
// rolled back to its savepoint and run again alone after its batch has
// committed, which releases whatever the other was waiting for: a batch
// never waits long, so no cycle of waits lasts, and nobody waits for
// PostgreSQL's deadlock detector (a second).
const batchLockTimeout = "20ms"

// batchSettings are the statements that open a batch's transaction:
// PostgreSQL's lock timeout; SQLite, one writer, waits for nobody.
func (t *Tx) batchSettings() []Stmt {
	if t.pg == nil {
		return nil
	}
	return []Stmt{{SQL: "SET LOCAL lock_timeout = '" + batchLockTimeout + "'"}}
}

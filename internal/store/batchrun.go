package store

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
func (db *DB) runBatch(lane int, ms []*member) {
	if len(ms) == 1 {
		db.runAlone(lane, ms[0])
		return
	}
	db.batch.stats.batches.Add(1)
	db.batch.stats.batched.Add(int64(len(ms)))
	ctx, cancel := context.WithTimeout(context.Background(), batchTimeout)
	defer cancel()
	err := db.onLane(ctx, lane, func(t *Tx) error {
		lead := t.batchSettings() // sent with the first member's statements
		rest := ms
		if t.pg != nil {
			var step []*member
			if step, rest = lockstepMembers(ms); step != nil {
				failed, err := t.lockstep(step, lead, &db.batch.stats)
				if err != nil {
					t.rollback()
					return err
				}
				rest, lead = append(failed, rest...), nil
			}
		}
		for i, m := range rest {
			mt := &Tx{ctx: m.ctx, pg: t.pg, lite: t.lite, begun: t.begun, shard: t.shard, queue: slices.Clone(lead), xid: t.xid}
			err := mt.member(i, m, t.ctx, &db.batch.stats.deadlocks)
			t.begun = mt.begun
			if err == nil && m.err == nil && !m.again {
				t.adopt(mt) // a failed member's counts are rolled back with it
			}
			if mt.sends > 0 {
				lead = nil
			}
			if err != nil {
				t.rollback()
				return err
			}
		}
		if err := t.commit(); err != nil {
			t.rollback()
			return err
		}
		return nil
	})
	if errors.Is(err, errOutcomeUnknown) {
		// The batch may be durable: a member that changed something is
		// answered so, and never run again. The others changed nothing
		// either way, and run again, alone.
		for _, m := range ms {
			switch {
			case m.again:
			case m.err == nil:
				m.err, m.reply = err, nil
			default:
				m.err, m.reply, m.again = nil, nil, true
			}
		}
		return
	}
	if err != nil {
		// Nothing of the batch is durable, and its members' answers were
		// given against changes that are gone: each runs again, alone.
		for _, m := range ms {
			m.err, m.reply, m.again = nil, nil, true
		}
		return
	}
	for _, m := range ms {
		if !m.again {
			m.err = db.classify(m.err)
		}
	}
}

// batchTimeout bounds what a batch's own statements (its BEGIN, its
// savepoints' ends and its COMMIT) may take; each member's statements run
// within that member's deadline.
const batchTimeout = 30 * time.Second

// member runs m in a savepoint of the batch's transaction and sets its
// error, or marks it to run again alone (a deadlock victim). It returns an
// error only when the transaction cannot go on: when m could not be rolled
// back to its savepoint. The rollback runs within the batch's context,
// batchCtx: m's own deadline may be what ended m. A deadlock it lost is
// counted in deadlocks.
func (t *Tx) member(i int, m *member, batchCtx context.Context, deadlocks *atomic.Int64) error {
	sp := "m" + strconv.Itoa(i)
	t.exec("SAVEPOINT " + sp) // after the batch's lead, which a rollback to sp keeps
	reply, err := t.apply(m.key, m.fn)
	if err == nil {
		t.exec("RELEASE SAVEPOINT " + sp)
		if err = t.flush(); err == nil {
			m.err, m.reply = nil, reply
			return nil
		}
	}
	t.queue, t.checks = nil, nil
	t.ctx = batchCtx
	if t.sends > 0 {
		t.exec("ROLLBACK TO SAVEPOINT " + sp)
		t.exec("RELEASE SAVEPOINT " + sp)
		if rerr := t.flush(); rerr != nil {
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

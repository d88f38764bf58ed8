package txn

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Group commit. Every write transaction is a member handed to the batcher.
// A member that finds a lane free runs at once, alone, on its own goroutine,
// exactly as a transaction of its own: no wait for company. Members that
// arrive while every lane is busy queue. When a lane's transaction is done
// and members are queued, the lane passes to a worker, a goroutine that
// keeps it while the queue lasts: each time, the whole queue (up to
// maxBatch) becomes its next batch, applied in one database transaction and
// made durable by one commit. So the batch grows with the load and the
// commits per second stay what the database can do, while each member still
// runs its own statements, in its own savepoint, with its own answer:
//
//   - a member that is refused or fails is rolled back to its savepoint and
//     answered with its error; the members before and after it are untouched;
//   - a member whose statements lost a deadlock (PostgreSQL) is run again
//     after the batch, alone;
//   - every member is answered only after its batch's commit returned, so a
//     2xx still means the change is durable;
//   - when the commit fails, or the transaction cannot be kept (a savepoint
//     cannot be rolled back to), no member of it is answered with success:
//     each is run again alone, as a transaction of its own.
//
// Under load the worker goes from one batch to the next without waiting to
// be scheduled: it answers a batch's members and begins the next at once.
// (When each batch passed to a goroutine of its first member instead, the
// lane stood idle until that goroutine was scheduled: on SQLite's one
// writer a seventh of its time at 16 connections.)
//
// Members run one after the other inside a batch, so they take their locks
// in the order each would alone. Two members with the same idempotency key
// are never in one batch: the second waits for the next.
type batcher struct {
	e     *Engine
	lanes int

	mu    sync.Mutex
	free  []int // lanes without a batch
	queue []*member

	stats writeCounts
}

// writeCounts are the counts behind Stats, kept as the write path goes.
type writeCounts struct {
	batches, batched, alone, again, deadlocks, stepped, stepRetries, mergedLevels atomic.Int64
}

// Stats counts what the write path has done since the engine started.
type Stats struct {
	// Batches is the number of batches of more than one member committed
	// or attempted, and Batched the members they held.
	Batches, Batched int64
	// Alone is the number of transactions run alone: at an idle moment,
	// or run again after their batch.
	Alone int64
	// Again is the number of members run again alone after their batch:
	// they had waited too long for a lock, or their batch failed.
	Again int64
	// Deadlocks is the number of runs, of a transaction or of a batch's
	// member, that PostgreSQL aborted as a deadlock victim or for a
	// serialization failure; each ran again. Row locks taken in one order
	// keep it at 0.
	Deadlocks int64
	// Checkpoints is the number of SQLite checkpoints run beside the
	// writer (sqliteconn.Checkpointer); 0 on PostgreSQL.
	Checkpoints int64
	// Stepped is the number of batch members that ran, and were
	// committed, in a lockstep (lockstep.go; PostgreSQL), and StepRetries
	// the lockstep attempts rolled back because a member failed after
	// writing, each run again without it.
	Stepped, StepRetries int64
	// MergedLevels is the number of rows changed by merged statements,
	// which changed rows of several lockstep members at once (merge.go;
	// PostgreSQL): the level rows, the one kind the store merges. Counted
	// in lockstep attempts committed.
	MergedLevels int64
}

// Stats returns the write path's counts (for metrics and tests).
func (e *Engine) Stats() Stats {
	s := &e.batch.stats
	w := Stats{Batches: s.batches.Load(), Batched: s.batched.Load(), Alone: s.alone.Load(), Again: s.again.Load(), Deadlocks: s.deadlocks.Load(),
		Stepped: s.stepped.Load(), StepRetries: s.stepRetries.Load(),
		MergedLevels: s.mergedLevels.Load()}
	if e.checkpoints != nil {
		w.Checkpoints = e.checkpoints.Runs()
	}
	return w
}

// maxBatch is the largest batch. PostgreSQL keeps up to 64 subtransactions
// of a transaction in shared memory; beyond that every snapshot taken
// elsewhere must look them up on disk, so batches stay below it.
const maxBatch = 32

// member is one write transaction waiting for, or in, a batch.
type member struct {
	ctx context.Context
	w   *Write

	err    error
	result any           // what w.Run returned, in the attempt committed
	done   chan struct{} // closed once answered
	again  bool          // run again alone after the batch (a deadlock victim)
}

func newBatcher(e *Engine, lanes int) *batcher {
	b := &batcher{e: e, lanes: lanes}
	for i := lanes - 1; i >= 0; i-- {
		b.free = append(b.free, i)
	}
	return b
}

// do runs m as one member and returns its error once it is answered.
func (b *batcher) do(m *member) error {
	m.done = make(chan struct{})
	b.mu.Lock()
	if n := len(b.free); n > 0 {
		// A free lane means an empty queue: a lane is freed only once the
		// queue is empty.
		lane := b.free[n-1]
		b.free = b.free[:n-1]
		b.mu.Unlock()
		b.lead(lane, []*member{m})
		b.release(lane)
		return m.err
	}
	b.queue = append(b.queue, m)
	b.mu.Unlock()
	<-m.done
	return m.err
}

// lead runs a batch on its lane and answers its members. Members whose
// answers the commit settled are answered at once; those to run again alone
// follow, on the same lane.
func (b *batcher) lead(lane int, members []*member) {
	b.e.runBatch(lane, members)
	var again []*member
	for _, m := range members {
		if m.again {
			again = append(again, m)
			continue
		}
		close(m.done)
	}
	for _, m := range again {
		m.again = false
		b.stats.again.Add(1)
		b.e.runAlone(lane, m)
		close(m.done)
	}
}

// release frees lane, or, when members are queued, passes it with their
// next batch to a worker.
func (b *batcher) release(lane int) {
	if batch := b.next(lane); batch != nil {
		go b.drain(lane, batch)
	}
}

// drain runs batch on lane, then each next batch while members are queued;
// next frees the lane once the queue is empty.
func (b *batcher) drain(lane int, batch []*member) {
	for ; batch != nil; batch = b.next(lane) {
		b.lead(lane, batch)
	}
}

// next takes the queue's next batch, or frees lane and returns nil when
// nothing is queued.
func (b *batcher) next(lane int) []*member {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.queue) == 0 {
		b.free = append(b.free, lane)
		return nil
	}
	var batch, rest []*member
	keys := map[string]bool{}
	for _, m := range b.queue {
		key := m.w.Key
		if len(batch) == maxBatch || key != "" && keys[key] {
			rest = append(rest, m)
			continue
		}
		if key != "" {
			keys[key] = true
		}
		batch = append(batch, m)
	}
	b.queue = rest
	return batch
}

// writeLanes is how many transactions run at once: one on SQLite, which has
// one writer; two on PostgreSQL, whose backends work in parallel and which
// groups the log flushes of concurrent commits itself, so that under load
// writes queue and form batches, which run their receipts, issues and moves
// in a lockstep (lockstep.go): at 16 connections, against sixteen lanes
// without it (under which nothing was batched), four lanes ran receive
// 1.29x, issue 1.17x and move 1.34x (bench/inventory.sh, three rounds), and
// three and six lanes measured within the spread of four or below it. Two
// lanes against four, the same build otherwise (BASE=HEAD ROUNDS=3
// bench/inventory.sh, 2026-11-27, a day the machine's two cores were
// shared): move 1.24x (1,234-1,279 against 933-1,146 2xx/s, every round of
// two above every round of four), receive 1.07x and issue 1.07x (within the
// spreads), a lone receive's median within the ±0.25 ms that the same
// build read on the two copies in a run of its own. Both cores are busy
// under load, the database's backends with most of it: fewer, larger
// batches spend less of both on commits and round trips per request.
// (Before the lockstep, when a batch ran its members one after the other,
// a round trip each, sixteen lanes were the fastest: with eight, a third
// of the requests were batched and receive and issue ran 4-5% slower.)
func writeLanes(postgres bool) int {
	if !postgres {
		return 1
	}
	return 2
}

// HoldForTest takes every lane once it is free, so that the writes that
// follow queue; queued tells how many are waiting, and release runs them on
// one lane in the order queued, as one batch when they are no more than a
// batch holds (what a batch leaves runs after it). The store's tests use it
// to make a batch of their choice; nothing else should.
func (e *Engine) HoldForTest() (queued func() int, release func()) {
	b := e.batch
	var lanes []int
	for len(lanes) < b.lanes {
		b.mu.Lock()
		lanes = append(lanes, b.free...)
		b.free = nil
		b.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
	queued = func() int {
		b.mu.Lock()
		defer b.mu.Unlock()
		return len(b.queue)
	}
	release = func() {
		b.mu.Lock()
		b.free = append(b.free, lanes[1:]...)
		b.mu.Unlock()
		b.release(lanes[0])
	}
	return queued, release
}

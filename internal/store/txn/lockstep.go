package txn

import (
	"cmp"
	"errors"
	"iter"
	"slices"
	"strings"
)

// Lockstep: a batch's members sent together on PostgreSQL.
//
// A batch runs its members one after the other, each in a savepoint, and
// each of a member's flushes is a round trip: a batch of eight receipts
// was sixteen round trips and sixteen savepoint statements, on one
// connection, where sixteen lanes ran eight lone transactions side by side
// in two round trips each. So on PostgreSQL batches lost to lanes, and
// nothing was batched at 16 connections.
//
// Members whose writes are all of one scope (Write.Scope: in the store a
// receipt, an issue, a move, of one item: the item's lots and levels,
// besides appends to the ledger, increments of the counts and the keys'
// answers, which any order of the members leaves the same) and of
// different scopes touch no row in common. Any order of
// such members gives the same data and the same answers, and so does any
// interleaving of their statements; and every order is a valid one, for
// all the members of a batch were in flight at once. A lockstep runs them
// so: each member's fn runs as a coroutine of the coordinator (iter.Pull),
// with a Tx whose flush hands the member's queued statements back to the
// coordinator; once every member still running has stopped so, the
// coordinator sends all their statements, member after member, as one
// pipeline, hands each its results, and runs each on to its next flush.
// A batch of receipts is then two round trips however many they are, with
// no savepoints.
//
// Members are isolated without a savepoint each, as follows. Their keys
// are claimed first, in a pipeline of their own, and a member whose key is
// answered already, in progress or reused is answered so and takes no
// further part. A member refused before it sent a write (an issue short of
// stock decides that before it writes) is answered with its refusal; its
// reads and row locks change nothing. Any other failure of a member (an
// error of its statement, which on PostgreSQL aborts the transaction, or a
// refusal after a write) rolls the lockstep back to the one savepoint it
// runs in, and it runs again without that member, which then runs in a
// savepoint of its own after it (or alone after the batch, when it waited
// too long for a lock). Members are taken in scope order, so concurrent
// batches lock the scopes they share in one order.
//
// SQLite runs a batch on its one writer in the process, where a round trip
// costs nothing: it keeps the savepoints.

// stepper is a member of a lockstep.
type stepper struct {
	m  *member
	tx *Tx
	// next runs the member's fn on until it stops at a flush (true) or
	// returns (false); its flush stops by calling yield. The switch goes
	// straight from the coordinator to the member and back (a coroutine
	// of iter.Pull), not through the scheduler's run queues, as a
	// goroutine woken at each step would.
	next  func() (struct{}, bool)
	yield func(struct{}) bool
	// resume is what the member's stopped flush returns: nil, or
	// errLockstepAbandoned once stop has set it.
	resume error
	done   bool
	wrote  bool // a statement of it that writes has been sent
	result any
	err    error
	// failure is the error of its statement that failed its attempt.
	failure error
}

// errLockstepAbandoned stops the members of an abandoned lockstep.
var errLockstepAbandoned = errors.New("txn: the lockstep batch was abandoned")

// lockstepMembers splits a batch into the members that run in a lockstep,
// in scope order, and the others, in the order queued: one member per
// scope (the first queued), and none when fewer than two would.
func lockstepMembers(ms []*member) (step, rest []*member) {
	seen := map[int64]bool{}
	for _, m := range ms {
		if sc := m.w.Scope; sc != 0 && !seen[sc] {
			seen[sc] = true
			step = append(step, m)
			continue
		}
		rest = append(rest, m)
	}
	if len(step) < 2 {
		return nil, ms
	}
	slices.SortStableFunc(step, func(a, b *member) int { return cmp.Compare(a.w.Scope, b.w.Scope) })
	return step, rest
}

// lockstep runs ms together in t, the batch's transaction on PostgreSQL,
// sending lead with its first pipeline, and sets the answer of each member
// it ran. It leaves their last statements queued on t, for its commit, and
// returns the members it did not run: those that failed after a write (or
// whose statement failed), to run in a savepoint of their own, and those
// marked to run again alone. The members run inside a savepoint of the
// lockstep: when one fails after writing, the others are rolled back to
// it and run again without it. An error means the transaction cannot go
// on.
func (t *Tx) lockstep(ms []*member, lead []Stmt, stats *writeCounts) (rest []*member, err error) {
	run, err := t.claimKeys(ms, lead)
	if err != nil {
		return nil, err
	}
	t.Exec("SAVEPOINT lockstep")
	merge := true
	for len(run) > 0 {
		steps := make([]*stepper, len(run))
		for i, m := range run {
			steps[i] = &stepper{m: m}
			steps[i].tx = &Tx{ctx: m.ctx, pg: t.pg, begun: true, lane: t.lane, step: steps[i]}
		}
		a, err := t.steps(steps, merge)
		if err != nil {
			return nil, err
		}
		if len(a.failed) == 0 && !a.mergeFailed {
			for _, s := range steps {
				s.m.result, s.m.err = s.result, s.err
				if s.err == nil {
					t.adopt(s.tx)
				}
			}
			t.Exec("RELEASE SAVEPOINT lockstep")
			stats.stepped.Add(int64(len(steps)))
			stats.mergedLevels.Add(int64(a.merged))
			return rest, nil
		}
		stats.stepRetries.Add(1)
		t.queue = append(t.queue[:0], Stmt{SQL: "ROLLBACK TO SAVEPOINT lockstep"})
		if a.mergeFailed { // the same members again, no statement merged
			merge = false
			continue
		}
		run = run[:0:0]
		for _, s := range steps {
			err := cmp.Or(s.failure, s.err)
			switch {
			case !a.failed[s]:
				run = append(run, s.m)
			case isRetryable(err) || isLockTimeout(err):
				if isRetryable(err) {
					stats.deadlocks.Add(1)
				}
				s.m.again = true
			default:
				rest = append(rest, s.m)
			}
		}
	}
	t.Exec("RELEASE SAVEPOINT lockstep")
	return rest, nil
}

// attempt is the outcome of one attempt of a lockstep.
type attempt struct {
	// failed are the members that failed after a write, or whose
	// statement failed, with their errors set.
	failed map[*stepper]bool
	// mergeFailed: a merged statement failed, which names no member.
	mergeFailed bool
	// merged counts the rows changed by merged statements.
	merged int
}

// steps runs one attempt of a lockstep: every member's fn, each a
// coroutine, their flushes sent together, with their statements merged
// (merge.go) when merge is true. It returns which members failed after a
// write, or whose statement failed (the first of a pipeline's errors:
// PostgreSQL ignores what follows it), or that a merged statement failed;
// an error when the transaction cannot go on. Once it returns, no member's
// fn is running.
func (t *Tx) steps(steps []*stepper, merge bool) (attempt, error) {
	for _, s := range steps {
		s.next, _ = iter.Pull(func(yield func(struct{}) bool) {
			s.yield = yield
			s.result, s.err = s.m.w.Run(s.tx)
			s.done = true
		})
	}
	a := attempt{failed: map[*stepper]bool{}}
	active := steps
	for len(active) > 0 {
		for _, s := range active {
			s.next()
		}
		var flushing []*stepper
		for _, s := range active {
			switch {
			case !s.done:
				flushing = append(flushing, s)
			case s.err != nil && s.wrote:
				a.failed[s] = true
			}
		}
		if len(a.failed) > 0 || len(flushing) == 0 {
			t.stop(flushing)
			return a, nil
		}
		b := t.pipeline()
		var (
			culprit *stepper
			own     error // of a statement of the batch's own
		)
		for _, st := range t.queue { // the lead or the savepoint
			st.queueOn(b, func(err error) {
				if culprit == nil && own == nil {
					own = err
				}
			})
		}
		t.queue = t.queue[:0]
		var mergedErr error // of a merged statement, which names no member
		merged := queueStep(flushing, merge, func(s *stepper, st Stmt) {
			st.queueOn(b, func(err error) {
				switch {
				case culprit != nil || own != nil || mergedErr != nil:
				case s == nil:
					mergedErr = err
				default:
					culprit, s.failure = s, err
				}
			})
		})
		t.readXactID(b)
		err := t.pg.SendBatch(t.ctx, b).Close()
		switch {
		case own != nil:
			t.stop(flushing)
			return a, own
		case culprit != nil:
			t.stop(flushing)
			a.failed[culprit] = true
			return a, nil
		case mergedErr != nil:
			t.stop(flushing)
			a.mergeFailed = true
			return a, nil
		case err != nil:
			t.stop(flushing)
			return a, err
		}
		a.merged += merged
		active = flushing
	}
	return a, nil
}

// claimKeys claims the keys of the members that have one, with lead, in a
// pipeline of their own (the first of the transaction, with its BEGIN),
// answers those whose claim fails, and returns the others. With no key to
// claim, lead stays queued for the first pipeline of the members.
func (t *Tx) claimKeys(ms []*member, lead []Stmt) ([]*member, error) {
	t.queue = append(t.queue, lead...)
	claims := make([]*Tx, len(ms))
	for i, m := range ms {
		if m.w.Claim != nil {
			claims[i] = &Tx{pg: t.pg, lane: t.lane}
			m.w.Claim(claims[i])
			t.queue = append(t.queue, claims[i].queue...)
		}
	}
	if slices.ContainsFunc(claims, func(c *Tx) bool { return c != nil }) {
		if err := t.Flush(); err != nil {
			return nil, err
		}
	}
	var run []*member
	for i, m := range ms {
		if c := claims[i]; c != nil {
			if err := c.check(); err != nil {
				m.err = err
				continue
			}
		}
		run = append(run, m)
	}
	return run, nil
}

// stop runs the members stopped at a flush on to their end: each of
// their flushes returns errLockstepAbandoned.
func (t *Tx) stop(waiting []*stepper) {
	for _, s := range waiting {
		s.resume = errLockstepAbandoned
		for _, more := s.next(); more; _, more = s.next() {
		}
	}
}

// stepFlush is Tx.Flush for a member of a lockstep: the member's queue is
// sent by the coordinator with the others', and its checks run once it
// has been.
func (t *Tx) stepFlush() error {
	if err := ended(t.ctx); err != nil {
		t.queue = t.queue[:0]
		return err
	}
	t.step.yield(struct{}{})
	if err := t.step.resume; err != nil {
		return err
	}
	return t.check()
}

// writes reports whether a statement may change data: all but a SELECT
// (which here only reads, or locks rows or a key).
func writes(query string) bool {
	return !strings.HasPrefix(strings.TrimSpace(query), "SELECT")
}

package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store"
)

// testBatchMembersFail makes one batch whose members depend on one another
// and some of which must fail, and checks that each member got the answer
// it would have got alone, in the batch's order, and that the refusals
// changed nothing and undid nothing of the others.
func (h *harness) testBatchMembersFail(t *testing.T) {
	s := h.openStock(t)
	gone := newItem("GONE", t0)
	gone.Discontinued = true
	must(t, s.CreateItem(ctx, nil, &gone))
	first, err := s.Receive(ctx, nil, stockroom.Receipt{PartNo: s.a.PartNo, ReceiveRequest: stockroom.ReceiveRequest{WID: 1, Units: u(10)}}, s.entry())
	must(t, err)
	huge := u(4_500_000_000_000) // a second one passes the largest figure kept, 8e12
	keyed := func(n int) *stockroom.IdempotencyKey { return batchKey(fmt.Sprint("batch-", n)) }
	receive := func(part, wid int64, units stockroom.Units, key *stockroom.IdempotencyKey) func(e stockroom.LedgerEntry) (int64, error) {
		return s.receiveOp(ctx, part, wid, units, key)
	}
	// A member whose deadline passes while it waits in the queue: it is
	// refused with its deadline, and its savepoint is rolled back within
	// the batch's own time, not the member's, so the batch goes on. Its
	// deadline starts when it runs, so it surely joins the queue in time,
	// and the batch is released once the deadline has fired (lateDone), not
	// at a time that races the deadline's timer.
	lateDone := make(chan (<-chan struct{}), 1)
	receiveLate := func(e stockroom.LedgerEntry) (int64, error) {
		late, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		lateDone <- late.Done()
		return s.receiveOp(late, s.b.PartNo, 1, u(7), nil)(e)
	}
	draw := func(typ stockroom.TxType, units stockroom.Units) func(e stockroom.LedgerEntry) (int64, error) {
		return s.drawOp(typ, s.a.PartNo, units)
	}
	members := []batchMember{
		{"issue 4 of 10", draw(stockroom.TxIssue, u(4)), nil},
		{"issue 10 of the 6 left", draw(stockroom.TxIssue, u(10)), isCode(stockroom.ECONFLICT)},
		{"receive of a discontinued item", receive(gone.PartNo, 1, u(1), nil), isErr(stockroom.ErrDiscontinued)},
		{"huge receive", receive(s.b.PartNo, 2, huge, keyed(1)), nil},
		{"second huge receive", receive(s.b.PartNo, 2, huge, nil), isErr(stockroom.ErrFigureTooLarge)},
		{"the first key again", receive(s.b.PartNo, 2, huge, keyed(1)), isReplay},
		{"move 6 to warehouse 2", draw(stockroom.TxMove, u(6)), nil},
		{"issue 1 of none left", draw(stockroom.TxIssue, u(1)), isCode(stockroom.ECONFLICT)},
		{"receive 3 of B", receive(s.b.PartNo, 1, u(3), nil), nil},
		{"receive past its deadline", receiveLate, isErr(context.DeadlineExceeded)},
		{"receive 2 of A after it", receive(s.a.PartNo, 2, u(2), nil), nil},
	}
	before := s.WriteStats()
	outcomes := s.runBatchOf(members, func() { <-<-lateDone })
	after := s.WriteStats()
	if after.Batches-before.Batches < 1 || after.Batched-before.Batched < int64(len(members)-1) {
		t.Fatalf("write stats %+v then %+v: the members were not batched", before, after)
	}
	if after.Again != before.Again {
		t.Errorf("write stats %+v then %+v: members ran again alone; the batch should have held", before, after)
	}
	// The lot received before the batch is the ledger's one more entry.
	outcomes = append(outcomes, outcome{ref: "ref", op: "first receive", ok: true, txID: first.TransactionID})
	s.checkLedgerByReference(outcomes)
	for _, c := range []struct {
		part, wid int64
		want      stockroom.Units
	}{{s.a.PartNo, 1, u(0)}, {s.a.PartNo, 2, u(8)}, {s.b.PartNo, 2, huge}, {s.b.PartNo, 1, u(3)}, {gone.PartNo, 1, u(0)}} {
		if got := s.level(c.part, c.wid).InStock; got != c.want {
			t.Errorf("item %d warehouse %d: inStock %s, want %s", c.part, c.wid, got, c.want)
		}
	}
	s.audit()
}

// batchKey is an idempotency key whose answer is a 201.
func batchKey(key string) *stockroom.IdempotencyKey {
	return &stockroom.IdempotencyKey{ClientID: "c", Key: key, RequestHash: "h", Time: t0, Status: 201}
}

// receiveOp is a batch member receiving units of item part into warehouse
// wid, within ctx.
func (s *stockDB) receiveOp(ctx context.Context, part, wid int64, units stockroom.Units, key *stockroom.IdempotencyKey) func(e stockroom.LedgerEntry) (int64, error) {
	return func(e stockroom.LedgerEntry) (int64, error) {
		res, err := s.Receive(ctx, key, stockroom.Receipt{PartNo: part, ReceiveRequest: stockroom.ReceiveRequest{WID: wid, Units: units}}, e)
		return res.TransactionID, err
	}
}

// drawOp is a batch member issuing units of item part from warehouse 1, or
// moving them to warehouse 2's spot M.
func (s *stockDB) drawOp(typ stockroom.TxType, part int64, units stockroom.Units) func(e stockroom.LedgerEntry) (int64, error) {
	return func(e stockroom.LedgerEntry) (int64, error) {
		res, err := s.Withdraw(ctx, nil, stockroom.Withdrawal{Type: typ, PartNo: part, WID: 1, Units: units, ToWID: 2, ToSpot: "M"}, e)
		return res.TransactionID, err
	}
}

// batchMember is a request of a batch a test makes: what it runs, with the
// ledger entry it is given, and the refusal it must get (nil: it
// succeeds).
type batchMember struct {
	name string
	run  func(e stockroom.LedgerEntry) (int64, error)
	want func(error) bool
}

// runBatchOf queues the members, each in its turn, then runs them as one
// batch (HoldWritesForTest), once ready returns, and checks each answer. It
// returns each member's outcome; a member's ledger entry has the reference
// "member-N", N its place (in a second batch "2-member-N", and so on).
func (s *stockDB) runBatchOf(members []batchMember, ready func()) []outcome {
	t := s.t
	t.Helper()
	prefix := ""
	if n := s.batches.Add(1); n > 1 {
		prefix = fmt.Sprint(n, "-")
	}
	queued, release := s.HoldWritesForTest()
	type answer struct {
		txID int64
		err  error
	}
	answers := make([]answer, len(members))
	var wg sync.WaitGroup
	for i, m := range members {
		e := s.entry()
		e.Reference = fmt.Sprint(prefix, "member-", i)
		wg.Go(func() {
			txID, err := m.run(e)
			answers[i] = answer{txID, err}
		})
		for queued() < i+1 { // each joins the queue in its turn: the batch's order
			time.Sleep(time.Millisecond)
		}
	}
	if ready != nil {
		ready()
	}
	release()
	wg.Wait()
	var outcomes []outcome
	for i, m := range members {
		a := answers[i]
		switch {
		case m.want == nil && a.err != nil:
			t.Errorf("%s: %v, want success", m.name, a.err)
		case m.want != nil && !m.want(a.err):
			t.Errorf("%s: %v, want another refusal", m.name, a.err)
		}
		o := outcome{ref: fmt.Sprint(prefix, "member-", i), op: m.name, ok: a.err == nil}
		if a.err == nil {
			o.txID = a.txID
		}
		outcomes = append(outcomes, o)
	}
	return outcomes
}

func isCode(code string) func(error) bool {
	return func(err error) bool { return stockroom.ErrorCode(err) == code }
}

func isErr(want error) func(error) bool {
	return func(err error) bool { return errors.Is(err, want) }
}

func isReplay(err error) bool {
	var r *stockroom.Replayed
	return errors.As(err, &r) && r.Answer.Status == 201
}

// checkBatched fails the test unless some of the writes since before were
// committed as members of batches, and on PostgreSQL some in a lockstep: a
// concurrency test is to prove the batched write path (group commit), not
// only transactions run alone.
func (s *stockDB) checkBatched(before store.WriteStats) {
	s.t.Helper()
	after := s.logWrites(before)
	if after.Batches == before.Batches {
		s.t.Errorf("write stats %+v then %+v: no batch; the test did not run the batched path", before, after)
	}
	if s.Engine() == store.Postgres && after.Stepped == before.Stepped {
		s.t.Errorf("write stats %+v then %+v: no member ran in a lockstep", before, after)
	}
}

// logWrites logs what the write path did since before, and returns its
// counts now.
func (s *stockDB) logWrites(before store.WriteStats) store.WriteStats {
	s.t.Helper()
	after := s.WriteStats()
	s.t.Logf("writes: %d batches of %d members (%d in a lockstep, %d lockstep retries, %d level rows merged), %d alone, %d run again",
		after.Batches-before.Batches, after.Batched-before.Batched, after.Stepped-before.Stepped,
		after.StepRetries-before.StepRetries, after.MergedLevels-before.MergedLevels, after.Alone-before.Alone, after.Again-before.Again)
	return after
}

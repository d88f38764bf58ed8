package storetest

import (
	"fmt"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store"
)

// testLockstepBatch makes one batch of receipts, issues and moves of
// different items, which PostgreSQL runs in a lockstep (store/lockstep.go),
// with members refused before they write and after, a key answered
// already, and a member of an item another has: each gets the answer it
// would get alone, the refusals change nothing, and nothing of the others
// is undone. On PostgreSQL the batch ran in a lockstep, rolled back once,
// for the member refused after writing, and no member ran again alone;
// the level rows its issue and its move shrink were changed by one
// statement (store/levelmerge.go).
func (h *harness) testLockstepBatch(t *testing.T) {
	s := h.openStock(t)
	items := make([]stockroom.Item, 4)
	for i := range items {
		items[i] = newItem(fmt.Sprint("STEP-", i), t0)
		must(t, s.CreateItem(ctx, nil, &items[i]))
	}
	gone := newItem("GONE", t0)
	gone.Discontinued = true
	must(t, s.CreateItem(ctx, nil, &gone))
	var outcomes []outcome
	before := func(part int64, units stockroom.Units, key *stockroom.IdempotencyKey) {
		outcomes = append(outcomes, s.receiptBefore(len(outcomes), part, units, key))
	}
	before(s.b.PartNo, u(5), nil)
	before(items[0].PartNo, u(3), nil)
	before(items[1].PartNo, u(1), nil)
	answered := batchKey("answered")
	before(items[2].PartNo, u(1), answered)

	members := []batchMember{
		{"receive 4 of A", s.receiveOp(ctx, s.a.PartNo, 1, u(4), batchKey("new")), nil},
		{"issue 2 of the 5 of B", s.drawOp(stockroom.TxIssue, s.b.PartNo, u(2)), nil},
		{"move 1 of the 3 of item 0", s.drawOp(stockroom.TxMove, items[0].PartNo, u(1)), nil},
		{"issue 9 of the 1 of item 1", s.drawOp(stockroom.TxIssue, items[1].PartNo, u(9)), isCode(stockroom.ECONFLICT)},
		{"receive of a discontinued item", s.receiveOp(ctx, gone.PartNo, 1, u(1), nil), isErr(stockroom.ErrDiscontinued)},
		{"the answered key again", s.receiveOp(ctx, items[2].PartNo, 1, u(1), answered), isReplay},
		{"receive 2 of item 3", s.receiveOp(ctx, items[3].PartNo, 2, u(2), nil), nil},
		{"issue 3 of A after its receipt", s.drawOp(stockroom.TxIssue, s.a.PartNo, u(3)), nil},
	}
	was := s.WriteStats()
	outcomes = append(outcomes, s.runBatchOf(members, nil)...)
	now := s.WriteStats()
	if now.Again != was.Again {
		t.Errorf("write stats %+v then %+v: members ran again alone; the batch should have held", was, now)
	}
	stepped, retries := now.Stepped-was.Stepped, now.StepRetries-was.StepRetries
	// In the lockstep: the first member of each item but the one whose key
	// was answered; the discontinued receipt fails after writing, so the
	// lockstep runs again without it, and its five others commit.
	if s.Engine() == store.Postgres && (stepped != 5 || retries != 1) || s.Engine() == store.SQLite && (stepped != 0 || retries != 0) {
		t.Errorf("on %s: %d members stepped in %d retries, want 5 in 1 on PostgreSQL, none on SQLite", s.Engine(), stepped, retries)
	}
	// B's issue changes its four rows; item 0's move the two of warehouse
	// 1, which come before those it creates in warehouse 2.
	if merged := now.MergedLevels - was.MergedLevels; s.Engine() == store.Postgres && merged != 6 || s.Engine() == store.SQLite && merged != 0 {
		t.Errorf("on %s: %d level rows merged, want 6 on PostgreSQL, none on SQLite", s.Engine(), merged)
	}
	s.checkLedgerByReference(outcomes)
	for _, c := range []struct {
		part, wid int64
		want      stockroom.Units
	}{
		{s.a.PartNo, 1, u(1)}, {s.b.PartNo, 1, u(3)}, {items[0].PartNo, 1, u(2)}, {items[0].PartNo, 2, u(1)},
		{items[1].PartNo, 1, u(1)}, {items[2].PartNo, 1, u(1)}, {items[3].PartNo, 2, u(2)}, {gone.PartNo, 1, u(0)},
	} {
		if got := s.level(c.part, c.wid).InStock; got != c.want {
			t.Errorf("item %d warehouse %d: inStock %s, want %s", c.part, c.wid, got, c.want)
		}
	}
	s.audit()
}

// testMergedLevelsRefused makes a lockstep batch in which the statement
// that changes the level rows of several members fails for one of them: a
// damaged level row of item D says 1 in stock where its lot holds 5, so
// an issue of 2 takes the row below zero, against its CHECK. The lockstep
// runs again with no statement merged, where the failing member is found
// and run apart; it fails alone, and the others are answered as if it had
// not been there.
func (h *harness) testMergedLevelsRefused(t *testing.T) {
	s := h.openStock(t)
	items := make([]stockroom.Item, 3)
	var outcomes []outcome
	for i := range items {
		items[i] = newItem(fmt.Sprint("MERGE-", i), t0)
		must(t, s.CreateItem(ctx, nil, &items[i]))
		outcomes = append(outcomes, s.receiptBefore(i, items[i].PartNo, u(5), nil))
	}
	d := items[1].PartNo
	damaged := fmt.Sprintf("UPDATE levels SET in_stock = %%d WHERE part_no = %d AND wid = 1 AND owner = -1", d)
	must(t, s.ExecForTest(ctx, fmt.Sprintf(damaged, u(1).Micros())))
	members := []batchMember{
		{"issue 2 of item 0", s.drawOp(stockroom.TxIssue, items[0].PartNo, u(2)), nil},
		{"issue 2 of item D, whose level row says 1", s.drawOp(stockroom.TxIssue, d, u(2)), func(err error) bool { return err != nil }},
		{"move 1 of item 2", s.drawOp(stockroom.TxMove, items[2].PartNo, u(1)), nil},
	}
	was := s.WriteStats()
	outcomes = append(outcomes, s.runBatchOf(members, nil)...)
	now := s.WriteStats()
	stepped, retries, merged := now.Stepped-was.Stepped, now.StepRetries-was.StepRetries, now.MergedLevels-was.MergedLevels
	// On PostgreSQL: the merged attempt, then the attempt that finds D.
	if s.Engine() == store.Postgres && (stepped != 2 || retries != 2 || merged != 0) || s.Engine() == store.SQLite && (stepped != 0 || retries != 0) {
		t.Errorf("on %s: %d members stepped in %d retries, %d level rows merged; want 2 in 2 and none merged on PostgreSQL, none on SQLite",
			s.Engine(), stepped, retries, merged)
	}
	s.checkLedgerByReference(outcomes)
	must(t, s.ExecForTest(ctx, fmt.Sprintf(damaged, u(5).Micros())))
	for _, c := range []struct {
		part, wid int64
		want      stockroom.Units
	}{
		{items[0].PartNo, 1, u(3)}, {d, 1, u(5)}, {items[2].PartNo, 1, u(4)}, {items[2].PartNo, 2, u(1)},
	} {
		if got := s.level(c.part, c.wid).InStock; got != c.want {
			t.Errorf("item %d warehouse %d: inStock %s, want %s", c.part, c.wid, got, c.want)
		}
	}
	s.audit()
}

// receiptBefore receives units of part in warehouse 1 before a test's
// batch, with the reference "before-N", and returns its outcome.
func (s *stockDB) receiptBefore(n int, part int64, units stockroom.Units, key *stockroom.IdempotencyKey) outcome {
	s.t.Helper()
	e := s.entry()
	e.Reference = fmt.Sprint("before-", n)
	id, err := s.receiveOp(ctx, part, 1, units, key)(e)
	must(s.t, err)
	return outcome{ref: e.Reference, op: "receipt before the batch", ok: true, txID: id}
}

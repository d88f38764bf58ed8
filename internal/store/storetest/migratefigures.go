package storetest

import (
	"testing"

	"github.com/stockroom/stockroom"
)

// testFiguresMigration: migration 15, which gives each ledger figure its
// item, keeps the figures there are: undone (Down) and done again (Up) on a
// ledger with a purchase order's figures, every figure reads with its
// entry's item and the audit finds nothing. (Down drops the figures of an
// entry's other items, a completion's components, which the earlier shape
// cannot hold; none are made here.)
func (h *harness) testFiguresMigration(t *testing.T) {
	s := h.openPurchase(t)
	o := s.mustPlace("PO-1", line(s.a.PartNo, 1, u(10), u(1)), line(s.b.PartNo, 2, u(5), u(2)))
	must(t, firstErr(s.receiveOn(o, 1, u(4))))
	before := s.ledgerOf(stockroom.TxOrder)
	must(t, s.MigrateDownForTest(ctx, 13))
	_, to, err := s.Migrate(ctx)
	must(t, err)
	if to < 15 {
		t.Fatalf("migrated up to %d", to)
	}
	after := s.ledgerOf(stockroom.TxOrder)
	if len(after) != 2 || len(before) != 2 {
		t.Fatalf("order entries %d before, %d after", len(before), len(after))
	}
	for i, e := range after {
		if got, want := entryFigures(e), entryFigures(before[i]); got != want || e.Figures[0].PartNo != e.PartNo {
			t.Errorf("entry %d's figures %s after Down and Up, %s before", e.ID, got, want)
		}
	}
	receipt := s.ledgerOf(stockroom.TxReceive)
	if len(receipt) != 1 || entryFigures(receipt[0]) != "A 1 onOrder -4" {
		t.Fatalf("the receipt's figures %+v", receipt)
	}
	s.audit()
}

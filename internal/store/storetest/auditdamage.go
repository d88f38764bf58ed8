package storetest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/internal/store"
)

// testAuditDamage damages a lot, a level and a counter each in a way the
// audit reports.
func (h *harness) testAuditDamage(t *testing.T) {
	s := h.openStock(t)
	l := s.receive(s.a.PartNo, 1, "X", u(5))
	s.receive(s.b.PartNo, 2, "X", u(5))
	s.audit()
	for _, damage := range []struct{ query, want string }{
		{fmt.Sprintf("UPDATE lots SET units = units + 1 WHERE rec_no = %d", l.RecNo), "ledger lines sum"},
		{"UPDATE levels SET on_hold = 1 WHERE wid = 2 AND owner = -1", "onHold"},
		{fmt.Sprintf("UPDATE lots SET active = false WHERE rec_no = %d", l.RecNo), "marked inactive or shipped"},
		{"UPDATE counters SET value = value + 3 WHERE name = 'lots_in_stock:2'", "count lots_in_stock:2"},
	} {
		s.auditFinds(damage.query, damage.want)
	}
}

// testLevelSumAudit damages each grain of the levels (per item and
// warehouse, per item and owner, per item; rows of the one table levels,
// migration 13) in each way a sum can be wrong:
// a figure changed, a kept row whose finer rows are gone, finer rows with
// no kept row beside them; the audit reports each.
func (h *harness) testLevelSumAudit(t *testing.T) {
	s := h.openStock(t)
	s.receive(s.a.PartNo, 1, "X", u(5))
	s.receive(s.b.PartNo, 2, "X", u(5))
	s.audit()
	a, b := s.a.PartNo, s.b.PartNo
	for _, tc := range []struct {
		damage string
		want   []string
	}{
		{fmt.Sprintf("UPDATE levels SET committed = committed + 1000000 WHERE part_no = %d AND wid <> 0 AND owner = -1", b), []string{
			fmt.Sprintf("item %d in warehouse 2: committed 1, owners sum to 0", b),
			fmt.Sprintf("item %d: all-warehouse committed 0, warehouses sum to 1", b),
		}},
		{fmt.Sprintf("UPDATE levels SET packed = packed + 2000000 WHERE part_no = %d AND wid = 0 AND owner <> -1", b), []string{
			fmt.Sprintf("item %d, owner 0: all-warehouse packed 2, warehouses sum to 0", b),
		}},
		{fmt.Sprintf("DELETE FROM levels WHERE part_no = %d AND wid <> 0 AND owner <> -1", a), []string{
			fmt.Sprintf("item %d in warehouse 1: in_stock 5, owners sum to 0", a),
			fmt.Sprintf("item %d, owner 0: all-warehouse in_stock 5, warehouses sum to 0", a),
		}},
		{fmt.Sprintf(`INSERT INTO levels (part_no, wid, owner, in_stock, on_hold, committed, packed, on_order, asn, modified)
			SELECT part_no, 1, 7, 0, 0, 0, 0, 0, 3000000, modified FROM owner_levels WHERE part_no = %d`, b), []string{
			fmt.Sprintf("item %d in warehouse 1: asn 0, owners sum to 3", b),
			fmt.Sprintf("item %d, owner 7: all-warehouse asn 0, warehouses sum to 3", b),
		}},
		{fmt.Sprintf("DELETE FROM levels WHERE part_no = %d AND wid = 0 AND owner = -1", a), []string{
			fmt.Sprintf("item %d: all-warehouse in_stock 0, warehouses sum to 5", a),
		}},
	} {
		s.auditFinds(tc.damage, tc.want...)
	}
}

// testReferenceAudit: on PostgreSQL, where no foreign key guards them
// (migration 10), a lot naming a missing warehouse and a ledger line naming
// a missing lot are reported by the audit; on SQLite its foreign keys
// refuse the damage.
func (h *harness) testReferenceAudit(t *testing.T) {
	s := h.openStock(t)
	l := s.receive(s.a.PartNo, 1, "X", u(5))
	s.audit()
	for _, damage := range []struct{ query, want string }{
		{fmt.Sprintf("UPDATE lots SET wid = 99 WHERE rec_no = %d", l.RecNo), "warehouse 99, which does not exist"},
		{fmt.Sprintf(`INSERT INTO transaction_lines (transaction_id, line, rec_no, part_no, wid, spot, units)
			SELECT transaction_id, 2, 999999, part_no, wid, spot, 0 FROM transaction_lines WHERE rec_no = %d`, l.RecNo),
			"names lot 999999, and one of the two does not exist"},
	} {
		if s.Engine() == store.SQLite {
			if err := s.ExecForTest(ctx, damage.query); err == nil {
				t.Errorf("SQLite took %q", damage.query)
			}
			continue
		}
		s.auditFinds(damage.query, damage.want)
	}
}

// auditFinds damages the database with the statement damage and fails the
// test unless the audit then reports each of want (a part of a report).
func (s *stockDB) auditFinds(damage string, want ...string) {
	s.t.Helper()
	must(s.t, s.ExecForTest(ctx, damage))
	found, err := s.Audit(ctx)
	must(s.t, err)
	var all []string
	for _, d := range found {
		all = append(all, d.What)
	}
	for _, w := range want {
		if !strings.Contains(strings.Join(all, "\n"), w) {
			s.t.Errorf("after %q the audit found %q, want %q", damage, all, w)
		}
	}
}

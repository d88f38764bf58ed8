package txn

import (
	"fmt"
	"slices"
	"testing"
)

// joinAll merges statements by joining their parts' names: "merged(a,b)".
type joinAll struct{}

func (joinAll) Merge(parts []any) (*Stmt, int) {
	sql := "merged("
	for i, p := range parts {
		if i > 0 {
			sql += ","
		}
		sql += p.(string)
	}
	return &Stmt{SQL: sql + ")"}, len(parts)
}

// stepOf is a lockstep member whose flush queued stmts.
func stepOf(stmts ...Stmt) *stepper {
	return &stepper{tx: &Tx{queue: stmts}}
}

func mergeable(part string) Stmt { return Stmt{SQL: "SELECT " + part, Merger: joinAll{}, Part: part} }

// sent queues a step and returns what went, member by member.
func sent(merge bool, steps ...*stepper) ([]string, int) {
	var out []string
	rows := queueStep(steps, merge, func(s *stepper, st Stmt) {
		who := "merged"
		if s != nil {
			who = fmt.Sprint(slices.Index(steps, s))
		}
		out = append(out, who+": "+st.SQL)
	})
	return out, rows
}

// TestQueueStep: a kind's statements of two or more members go as one,
// where the first of them was; a member's statements after one of the kind
// marked not to merge stay its own; one member's alone are not merged.
func TestQueueStep(t *testing.T) {
	barrier := Stmt{SQL: "SELECT grow", Merger: joinAll{}}
	plain := Stmt{SQL: "SELECT plain"}
	for _, tc := range []struct {
		name  string
		merge bool
		steps []*stepper
		want  []string
		rows  int
	}{
		{"two members", true, []*stepper{stepOf(plain, mergeable("a")), stepOf(mergeable("b"), plain)},
			[]string{"0: SELECT plain", "merged: merged(a,b)", "1: SELECT plain"}, 2},
		{"one member", true, []*stepper{stepOf(mergeable("a"), mergeable("b")), stepOf(plain)},
			[]string{"0: SELECT a", "0: SELECT b", "1: SELECT plain"}, 0},
		{"after a barrier", true, []*stepper{stepOf(mergeable("a")), stepOf(barrier, mergeable("b")), stepOf(mergeable("c"))},
			[]string{"merged: merged(a,c)", "1: SELECT grow", "1: SELECT b"}, 2},
		{"not merging", false, []*stepper{stepOf(mergeable("a")), stepOf(mergeable("b"))},
			[]string{"0: SELECT a", "1: SELECT b"}, 0},
	} {
		got, rows := sent(tc.merge, tc.steps...)
		if !slices.Equal(got, tc.want) || rows != tc.rows {
			t.Errorf("%s: sent %q (%d rows), want %q (%d)", tc.name, got, rows, tc.want, tc.rows)
		}
	}
}

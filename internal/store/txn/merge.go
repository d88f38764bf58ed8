package txn

// Statements of a lockstep's members merged into one (PostgreSQL).
//
// In a lockstep (lockstep.go) every member's statements go in one
// pipeline, but PostgreSQL still runs each as a statement of its own, and
// what it spends per statement (starting its executor, preparing the
// table's constraints, sending its result) can be much of what it spends
// on a change of one row. So a kind of statement that two or more members
// send in one step may go as one statement, which its Merger makes from
// each statement's Part and which reads each one's rows as it would have
// read them alone: one statement instead of N. The engine knows nothing of
// what such a statement changes; the store marks its level rows' changes
// so (levelmerge.go).
//
// Lock order. The merged statement is sent where the first of its
// statements was queued, and the Merger's statement locks its rows in the
// order the members would have one after another. A member's own
// statements keep their order: one joins only when no statement of its
// member marked as not to be merged (Part nil) comes before it in the
// step.
//
// Isolation. When the merged statement fails, no one member is to blame:
// the lockstep is rolled back and run again with no statement merged,
// where the member whose statement fails is found as before.

// A Merger makes one statement of the statements of its kind that several
// members of a lockstep send in one step. Its values must be comparable
// (a pointer, or a struct of comparable fields): statements of one kind
// share one.
type Merger interface {
	// Merge returns one statement that does what the statements whose
	// Parts are given (in the order queued) do, and reads its rows into
	// each as that statement's own Read would have, with the number of
	// rows it changes; nil for none to send.
	Merge(parts []any) (merged *Stmt, rows int)
}

// queueStep queues the statements of a lockstep step's members, member
// after member, each by queue(s, st). When merge is true and the
// statements of a kind of two or more members may join (joinsMerged),
// those go as one, where the first of them was, by queue(nil, merged). It
// returns the number of rows the merged statements change.
func queueStep(flushing []*stepper, merge bool, queue func(*stepper, Stmt)) int {
	var (
		joins  [][]bool
		merged map[Merger]*Stmt
		rows   int
	)
	if merge {
		joins, merged, rows = mergeStep(flushing)
	}
	for i, s := range flushing {
		for j, st := range s.tx.queue {
			s.wrote = s.wrote || writes(st.SQL)
			switch {
			case joins == nil || !joins[i][j]:
				queue(s, st)
			case merged[st.Merger] != nil:
				queue(nil, *merged[st.Merger])
				merged[st.Merger] = nil
			}
		}
		s.tx.queue = s.tx.queue[:0]
	}
	return rows
}

// kindMerge gathers the statements of one kind that a step may merge.
type kindMerge struct {
	parts   []any
	members int // how many members have one
	last    int // the last member that had one, from 1
}

// mergeStep returns, for each statement of each member of a step, whether
// it joins a merged statement; those statements, by kind; and the number
// of rows they change. A kind's statements join only when two or more
// members have one that may (joinsMerged).
func mergeStep(flushing []*stepper) (joins [][]bool, merged map[Merger]*Stmt, rows int) {
	joins = make([][]bool, len(flushing))
	var kinds map[Merger]*kindMerge
	for i, s := range flushing {
		joins[i] = joinsMerged(s.tx.queue)
		for j, st := range s.tx.queue {
			if !joins[i][j] {
				continue
			}
			if kinds == nil {
				kinds = map[Merger]*kindMerge{}
			}
			k := kinds[st.Merger]
			if k == nil {
				k = &kindMerge{}
				kinds[st.Merger] = k
			}
			k.parts = append(k.parts, st.Part)
			if k.last != i+1 {
				k.members, k.last = k.members+1, i+1
			}
		}
	}
	if kinds == nil {
		return nil, nil, 0 // nothing to merge
	}
	merged = map[Merger]*Stmt{}
	for m, k := range kinds {
		if k.members >= 2 {
			var n int
			merged[m], n = m.Merge(k.parts)
			rows += n
		}
	}
	for i, s := range flushing {
		for j, st := range s.tx.queue {
			joins[i][j] = joins[i][j] && kinds[st.Merger].members >= 2
		}
	}
	return joins, merged, rows
}

// joinsMerged returns, for each statement of a member's flush, whether it
// may join a merged statement: one of a Merger's kind with a Part, with no
// statement of a Merger's kind without one before it (which, not joining,
// would otherwise lock its rows after the member's next rows).
func joinsMerged(queue []Stmt) []bool {
	joins := make([]bool, len(queue))
	for i, st := range queue {
		if st.Merger == nil {
			continue
		}
		if st.Part == nil {
			break
		}
		joins[i] = true
	}
	return joins
}

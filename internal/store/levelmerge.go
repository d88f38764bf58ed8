package store

import (
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/stockroom/stockroom"
)

// Level rows of a lockstep's members, changed by one statement
// (PostgreSQL).
//
// In a lockstep (lockstep.go) every member's statements go in one
// pipeline, but PostgreSQL still runs each as a statement of its own, and
// what it spends per statement (starting its executor, preparing the
// table's CHECK constraints and generated column, sending its result) is
// much of what it spends on a change of one row. An issue changes four
// level rows, a move two besides those it may create, each by changeLevel.
// So when two or more members of a step send changeLevel statements, those
// go as one: mergedChangeLevel, whose rows come back each with its key and
// are handed to the statement each came from, as if it had run alone.
//
// Lock order. The merged statement locks its rows in the order of their
// keys in levels (its locking subquery sorts them), which, members being in
// item order, is the order the members would lock them one after another.
// It is sent where the first of its statements was queued, so a later
// member's rows are locked before the statements the members ahead of it
// sent after theirs: rows of lots already locked at an earlier step, new
// lots and ledger lines, which no other transaction can hold, and the
// level rows those members may create (growLevels). A member's own rows
// keep their order: a changeLevel statement joins only when no level
// statement of its member comes before it in the step. The rows a member
// may create can thus be locked after a later member's, as a batch run in
// savepoints already locks one member's rows after another's (ARCHITECTURE:
// Lock order), and the batch's lock_timeout ends any wait that makes.
//
// Isolation. When the merged statement fails (a row's CHECK, a lock
// timeout), no one member is to blame: the lockstep is rolled back and run
// again with no statement merged, where the member whose statement fails is
// found as before.

// mergedChangeLevel changes many rows of levels: $1..$3 their keys, $4..$9
// the changes to their figures (levelFigures) and $10 the times, each an
// array with one element per row. It returns each row changed as
// changeLevel does: its key, then its figures afterwards.
var mergedChangeLevel = mergedLevelStatement()

func mergedLevelStatement() string {
	cols := []string{"part_no", "wid", "owner"}
	cols = append(cols, levelFigures...)
	cols = append(cols, "modified")
	arrays := make([]string, len(cols))
	for i := range arrays {
		arrays[i] = fmt.Sprintf("$%d::bigint[]", i+1)
	}
	changed := make([]string, len(levelFigures))
	returned := []string{"levels.part_no", "levels.wid", "levels.owner"}
	for i, f := range levelFigures {
		changed[i] = f + " = levels." + f + " + v." + f
		returned = append(returned, "levels."+f)
	}
	return `
		WITH v AS MATERIALIZED (SELECT * FROM unnest(` + strings.Join(arrays, ", ") + `) AS v(` + strings.Join(cols, ", ") + `)),
		locked AS MATERIALIZED (
			SELECT levels.part_no, levels.wid, levels.owner FROM levels
			JOIN v ON levels.part_no = v.part_no AND levels.wid = v.wid AND levels.owner = v.owner
			ORDER BY levels.part_no, levels.wid, levels.owner
			FOR UPDATE OF levels)
		UPDATE levels SET
			` + strings.Join(changed, ",\n\t\t\t") + `,
			modified = CASE WHEN v.modified > levels.modified THEN v.modified ELSE levels.modified + 1 END
		FROM v JOIN locked ON locked.part_no = v.part_no AND locked.wid = v.wid AND locked.owner = v.owner
		WHERE levels.part_no = v.part_no AND levels.wid = v.wid AND levels.owner = v.owner
		RETURNING ` + strings.Join(returned, ", ")
}

// isGrowLevels reports whether query is a growLevels statement.
func isGrowLevels(query string) bool { return slices.Contains(growStatements[1:], query) }

// queueStep queues the statements of a lockstep step's members, member
// after member, each by queue. When merge is true and the statements of
// two or more members may join (joinsMerged), those go as one, by
// queueMerged, where the first of them was. It returns the number of rows
// that statement changes.
func queueStep(flushing []*stepper, merge bool, queue func(*stepper, stmt), queueMerged func(stmt)) (int, error) {
	joins := make([][]bool, len(flushing))
	var joined []stmt
	members := 0
	for i, s := range flushing {
		if merge {
			joins[i] = joinsMerged(s.tx.queue)
		}
		if slices.Contains(joins[i], true) {
			members++
		}
	}
	if members < 2 {
		clear(joins)
	}
	for i, s := range flushing {
		for j, st := range s.tx.queue {
			if joins[i] != nil && joins[i][j] {
				joined = append(joined, st)
			}
		}
	}
	var merged stmt
	if len(joined) > 0 {
		var err error
		if merged, err = mergeLevelStatements(joined); err != nil {
			return 0, err
		}
	}
	for i, s := range flushing {
		for j, st := range s.tx.queue {
			s.wrote = s.wrote || writes(st.sql)
			switch {
			case joins[i] == nil || !joins[i][j]:
				queue(s, st)
			case merged.sql != "":
				queueMerged(merged)
				merged.sql = ""
			}
		}
		s.tx.queue = s.tx.queue[:0]
	}
	return len(joined), nil
}

// joinsMerged returns, for each statement of a member's flush, whether it
// may join a merged statement: a changeLevel statement with no growLevels
// statement of the member before it (which, not joining, would otherwise
// lock its row after the member's next rows).
func joinsMerged(queue []stmt) []bool {
	joins := make([]bool, len(queue))
	for i, st := range queue {
		if isGrowLevels(st.sql) {
			break
		}
		joins[i] = st.sql == changeLevel
	}
	return joins
}

// mergeLevelStatements returns one statement of changeLevel statements,
// whose rows it hands to each of them to read.
func mergeLevelStatements(stmts []stmt) (stmt, error) {
	arrays := make([][]int64, 3+len(levelFigures)+1)
	for _, st := range stmts {
		if len(st.args) != len(arrays) {
			return stmt{}, fmt.Errorf("store: changeLevel with %d parameters, not %d", len(st.args), len(arrays))
		}
		for i, a := range st.args {
			switch v := a.(type) {
			case int64:
				arrays[i] = append(arrays[i], v)
			case stockroom.Units:
				arrays[i] = append(arrays[i], v.Micros())
			default:
				return stmt{}, fmt.Errorf("store: changeLevel parameter %d is a %T", i+1, a)
			}
		}
	}
	args := make([]any, len(arrays))
	for i := range arrays {
		args[i] = arrays[i]
	}
	return stmt{sql: mergedChangeLevel, args: args, read: func(rs rows) error {
		byKey := map[[3]int64][]int64{}
		for rs.Next() {
			row := make([]int64, 3+len(levelFigures))
			dest := make([]any, len(row))
			for i := range row {
				dest[i] = &row[i]
			}
			if err := rs.Scan(dest...); err != nil {
				return err
			}
			byKey[[3]int64(row[:3])] = row
		}
		if err := rs.Err(); err != nil {
			return err
		}
		for i, st := range stmts {
			var own keptRows
			if row, ok := byKey[[3]int64{arrays[0][i], arrays[1][i], arrays[2][i]}]; ok {
				own.rows = [][]int64{row}
			}
			if err := st.read(&own); err != nil {
				return err
			}
		}
		return nil
	}}, nil
}

// keptRows are rows already read, offered again as rows: the part of a
// merged statement's result that one of its statements returned.
type keptRows struct {
	rows [][]int64
	at   int // the current row, from 1; 0 before the first Next
}

func (k *keptRows) Next() bool {
	k.at++
	return k.at <= len(k.rows)
}

func (k *keptRows) Err() error { return nil }

// Scan reads the current row into dest as database/sql would: into an
// int64, or through a Scanner (stockroom.Units).
func (k *keptRows) Scan(dest ...any) error {
	row := k.rows[k.at-1]
	if len(dest) != len(row) {
		return fmt.Errorf("store: %d columns scanned into %d destinations", len(row), len(dest))
	}
	for i, d := range dest {
		switch d := d.(type) {
		case *int64:
			*d = row[i]
		case sql.Scanner:
			if err := d.Scan(row[i]); err != nil {
				return err
			}
		default:
			return fmt.Errorf("store: cannot scan a kept row's column into %T", d)
		}
	}
	return nil
}

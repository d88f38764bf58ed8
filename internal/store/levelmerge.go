package store

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stockroom/stockroom/internal/store/txn"
)

// Level rows of a lockstep's members, changed by one statement
// (PostgreSQL).
//
// In a lockstep (txn: lockstep.go) every member's statements go in one
// pipeline, but PostgreSQL still runs each as a statement of its own, and
// what it spends per statement (starting its executor, preparing the
// table's CHECK constraints and generated column, sending its result) is
// much of what it spends on a change of one row. An issue changes four
// level rows, a move two besides those it may create, each by changeLevel.
// So when two or more members of a step send changeLevel statements, those
// go as one (the engine's merge, txn.Merger): mergedChangeLevel, whose rows
// come back each with its key and are read into the level row of that key
// of the statement it came from, as if that had run alone.
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
// array with one element per row, in changeLevel's order of parameters. It
// returns each row changed as changeLevel does: its key, then its figures
// afterwards.
var mergedChangeLevel = func() string {
	cols := slices.Concat([]string{"part_no", "wid", "owner"}, levelFigures, []string{"modified"})
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
}()

// levelMerger merges the changeLevel statements of a lockstep's members
// (txn.Merger): each Part is a *levelStmt.
type levelMerger struct{}

// Merge returns mergedChangeLevel for the rows of the changeLevel
// statements whose levelStmt are parts.
func (levelMerger) Merge(parts []any) (*txn.Stmt, int) {
	ls := make([]*levelStmt, len(parts))
	for i, p := range parts {
		ls[i] = p.(*levelStmt)
	}
	return mergeLevelStatements(ls)
}

// mergeLevelStatements returns mergedChangeLevel for the rows of the
// changeLevel statements ls, which reads each returned row into the level
// row of that key, and the number of rows; nil for none.
func mergeLevelStatements(ls []*levelStmt) (*txn.Stmt, int) {
	arrays := make([][]int64, 3+len(levelFigures)+1)
	byKey := map[[3]int64]*levelRow{}
	for _, l := range ls {
		for i := range l.rows {
			r := &l.rows[i]
			byKey[r.key] = r
			for c, v := range r.values(l.mod) {
				arrays[c] = append(arrays[c], v)
			}
		}
	}
	if len(byKey) == 0 {
		return nil, 0
	}
	args := make([]any, len(arrays))
	for i := range arrays {
		args[i] = arrays[i]
	}
	return &txn.Stmt{SQL: mergedChangeLevel, Args: args, Read: func(rs rows) error {
		return readLevelRows(rs, func(key [3]int64) *levelRow { return byKey[key] })
	}}, len(byKey)
}

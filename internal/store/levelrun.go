package store

import (
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store/txn"
)

// Level rows of a run of receipts, one statement each (PostgreSQL; see
// receiverun.go). A run of receipts of many items grows many neighbouring
// level rows and appends a stocklevel.changed for each of its rows of
// item, warehouse and owner. On PostgreSQL the rows a change may create,
// beyond maxGrowRows in a row, go as one upsert over arrays
// (growManyLevels), inserted in their order in the key, which is the lock
// order; and the events as one insert in their order (appendLevelEvents).

// growManyLevels is growLevels over arrays: $1..$3 the rows' keys, $4..$9
// their figures' changes, $10 their times, one element per row, changed in
// the arrays' order.
var growManyLevels = func() string {
	cols := append(append([]string{"part_no", "wid", "owner"}, levelFigures...), "modified")
	arrays := make([]string, len(cols))
	for i := range cols {
		arrays[i] = "$" + strconv.Itoa(i+1) + "::bigint[]"
	}
	grown := make([]string, len(levelFigures))
	for i, f := range levelFigures {
		grown[i] = f + " = levels." + f + " + excluded." + f
	}
	list := strings.Join(cols, ", ")
	return `
		INSERT INTO levels (` + list + `)
		SELECT ` + prefixed("v", list) + `
		FROM unnest(` + strings.Join(arrays, ", ") + `) WITH ORDINALITY AS v(` + list + `, ord)
		ORDER BY v.ord
		ON CONFLICT (` + levelKeys + `) DO UPDATE SET
			` + strings.Join(grown, ",\n\t\t\t") + `,
			modified = CASE WHEN excluded.modified > levels.modified THEN excluded.modified ELSE levels.modified + 1 END
		RETURNING ` + levelKeys + `, ` + strings.Join(levelFigures, ", ")
}()

// growRows queues the change of level rows lr, each of which may create
// its row, all in one statement, in lr's order.
func (t *Tx) growRows(lr []levelRow, mod int64) {
	arrays := make([][]int64, 3+len(levelFigures)+1)
	byKey := make(map[[3]int64]*levelRow, len(lr))
	for i := range lr {
		byKey[lr[i].key] = &lr[i]
		for c, v := range lr[i].values(mod) {
			arrays[c] = append(arrays[c], v)
		}
	}
	args := make([]any, len(arrays))
	for i := range arrays {
		args[i] = arrays[i]
	}
	// Marked as not to be merged, as a growLevels statement is.
	t.Queue(txn.Stmt{SQL: growManyLevels, Args: args, Merger: levelMerger{}, Read: func(rs rows) error {
		return readLevelRows(rs, func(key [3]int64) *levelRow { return byKey[key] })
	}})
}

// insertLevelEvents is insertLevelEvent for many rows: $1..$3 arrays of
// their keys, appended in the arrays' order.
const insertLevelEvents = levelEventSelect + `
	FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) WITH ORDINALITY AS k(part_no, wid, owner, ord)
	JOIN levels l ON l.part_no = k.part_no AND l.wid = k.wid AND l.owner = k.owner
	JOIN items i ON i.part_no = l.part_no
	ORDER BY k.ord`

// appendLevelEvents queues a stocklevel.changed of each row of levels
// keys names, in that order, made by e's client at e's time.
func (t *Tx) appendLevelEvents(e stockroom.LedgerEntry, keys [][3]int64) {
	cols := [3][]int64{}
	for _, k := range keys {
		for c := range cols {
			cols[c] = append(cols[c], k[c])
		}
	}
	t.Exec(insertLevelEvents, cols[0], cols[1], cols[2], micros(e.Time), e.ClientID)
}

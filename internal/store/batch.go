package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
)

// batch gathers the writes of one step of a transaction, written once for
// both engines. On PostgreSQL they run as one statement, each a
// data-modifying WITH, so a stock transaction costs a few round trips however
// many rows it changes; the statements whose value is read are read in the
// order added, so their row locks are taken in that order. On SQLite, which
// has no data-modifying WITH, they run one by one, in order.
type batch struct {
	pg bool
	// PostgreSQL: the shared parameters, the WITH items, what is read, and
	// which WITH item fills which destination.
	a     args
	with  []string
	reads []string
	dests []any
	names map[*sql.NullInt64]string
	// SQLite: the statements in order, built when they run, so that one may
	// use a value an earlier one returned.
	stmts []batchStmt
}

type batchStmt struct {
	build func(a *args) string
	dest  *sql.NullInt64 // nil: rows not read
}

// maxBatch bounds the statements of one batch: PostgreSQL allows at most
// 1664 columns in a SELECT list and 65535 parameters in a statement.
const maxBatch = 200

// len is the number of statements queued.
func (b *batch) len() int { return len(b.with) + len(b.stmts) }

func (db *DB) newBatch() *batch { return &batch{pg: db.engine == Postgres} }

// add queues a statement built by build, which adds its parameters to a and
// returns at most one row of one integer column. After run, dest holds that
// value, or is not Valid when the statement returned no row.
func (b *batch) add(dest *sql.NullInt64, build func(a *args) string) {
	if !b.pg {
		b.stmts = append(b.stmts, batchStmt{build, dest})
		return
	}
	name := "w" + strconv.Itoa(len(b.with))
	b.with = append(b.with, name+" AS ("+build(&b.a)+")")
	b.reads = append(b.reads, "(SELECT * FROM "+name+")")
	b.dests = append(b.dests, dest)
	if b.names == nil {
		b.names = map[*sql.NullInt64]string{}
	}
	b.names[dest] = name
}

// exec queues a statement whose rows are not read; an empty text is none.
// On PostgreSQL it runs after the statements that are read.
func (b *batch) exec(build func(a *args) string) {
	if !b.pg {
		b.stmts = append(b.stmts, batchStmt{build, nil})
		return
	}
	if text := build(&b.a); text != "" {
		b.with = append(b.with, "w"+strconv.Itoa(len(b.with))+" AS ("+text+")")
	}
}

// value is the SQL for the value that an earlier statement of the batch
// puts in dest, for a later statement to use: a reference to it on
// PostgreSQL, the value itself on SQLite, where the earlier one has run.
func (b *batch) value(a *args, dest *sql.NullInt64) string {
	if b.pg {
		return "(SELECT * FROM " + b.names[dest] + ")"
	}
	return a.add(*dest)
}

// runIfFull runs the batch when it holds maxBatch statements or more, for
// callers that queue rows without bound. Statements queued after it cannot
// use values from before it.
func (b *batch) runIfFull(ctx context.Context, tx *sql.Tx) error {
	if b.len() < maxBatch {
		return nil
	}
	return b.run(ctx, tx)
}

// run executes what was queued, in order, and empties the batch.
func (b *batch) run(ctx context.Context, tx *sql.Tx) error {
	defer func() { *b = batch{pg: b.pg} }()
	if !b.pg {
		for _, s := range b.stmts {
			var a args
			text := s.build(&a)
			switch {
			case text == "":
			case s.dest == nil:
				if _, err := tx.ExecContext(ctx, text, a...); err != nil {
					return err
				}
			default:
				err := tx.QueryRowContext(ctx, text, a...).Scan(s.dest)
				if errors.Is(err, sql.ErrNoRows) {
					*s.dest = sql.NullInt64{}
				} else if err != nil {
					return err
				}
			}
		}
		return nil
	}
	if len(b.with) == 0 {
		return nil
	}
	reads, dests := b.reads, b.dests
	if len(reads) == 0 {
		var ignored int
		reads, dests = []string{"1"}, []any{&ignored}
	}
	return tx.QueryRowContext(ctx, "WITH "+strings.Join(b.with, ",\n")+"\nSELECT "+strings.Join(reads, ", "), b.a...).Scan(dests...)
}

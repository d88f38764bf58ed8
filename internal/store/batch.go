package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
)

// batch gathers the writes of one step of a transaction, each a statement
// that returns at most one row of one integer column. On PostgreSQL they run
// as one statement, each a data-modifying WITH that the final SELECT reads in
// the order added, so row locks are still taken in that order; a stock
// transaction then costs a few round trips however many rows it changes. On
// SQLite, which has no data-modifying WITH, they run one by one.
type batch struct {
	pg bool
	// PostgreSQL: the shared parameters, the WITH items and what is read.
	a     args
	with  []string
	reads []string
	dests []any
	// SQLite: the statements in order.
	stmts []batchStmt
}

type batchStmt struct {
	text string
	args args
	dest *sql.NullInt64
}

// maxBatch bounds the statements of one batch: PostgreSQL allows at most
// 1664 columns in a SELECT list and 65535 parameters in a statement.
const maxBatch = 200

// len is the number of statements queued to be read.
func (b *batch) len() int { return len(b.reads) + len(b.stmts) }

func (db *DB) newBatch() *batch { return &batch{pg: db.engine == Postgres} }

// add queues a statement built by build, which adds its parameters to a.
// After run, dest holds the statement's one value, or is not Valid when it
// returned no row.
func (b *batch) add(dest *sql.NullInt64, build func(a *args) string) {
	if !b.pg {
		var a args
		text := build(&a)
		b.stmts = append(b.stmts, batchStmt{text, a, dest})
		return
	}
	name := b.source(build)
	b.reads = append(b.reads, "(SELECT * FROM "+name+")")
	b.dests = append(b.dests, dest)
}

// source queues a data-modifying statement on PostgreSQL whose rows a later
// statement reads by the returned name, and is not read itself.
func (b *batch) source(build func(a *args) string) string {
	name := "w" + strconv.Itoa(len(b.with))
	b.with = append(b.with, name+" AS ("+build(&b.a)+")")
	return name
}

// run executes what was queued, in order, and empties the batch.
func (b *batch) run(ctx context.Context, tx *sql.Tx) error {
	defer func() { *b = batch{pg: b.pg} }()
	if !b.pg {
		for _, s := range b.stmts {
			err := tx.QueryRowContext(ctx, s.text, s.args...).Scan(s.dest)
			if errors.Is(err, sql.ErrNoRows) {
				*s.dest = sql.NullInt64{}
			} else if err != nil {
				return err
			}
		}
		return nil
	}
	if len(b.reads) == 0 {
		return nil
	}
	return tx.QueryRowContext(ctx, "WITH "+strings.Join(b.with, ",\n")+"\nSELECT "+strings.Join(b.reads, ", "), b.a...).Scan(b.dests...)
}

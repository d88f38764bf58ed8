package service

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/stockroom/stockroom"
)

// Moving in (contract §15, `stockroom import`): the rows of a file, each a
// request of an endpoint (an item's POST /Item, a customer's or vendor's
// POST, a receipt's POST /Inventory/Receive), are judged by that
// endpoint's own checks, every row before any is written; a file with a
// bad row writes nothing and is refused naming every bad row's line and
// field. Otherwise the rows are written ImportRowsPerTx to a transaction,
// in order, so that an import cut short resumes after the rows written.

// ImportRowsPerTx is how many rows of an import one transaction writes.
const ImportRowsPerTx = 1000

// ImportRow is one row of a file being imported: its line in the file, the
// request it makes, and what could not be read of it (a cell that is not
// of its field's type), reported with the row's other problems.
type ImportRow[T any] struct {
	Line     int
	In       T
	Problems stockroom.Validation
}

// RowProblem is one fault of a row of an import: its line, the field
// (empty for a fault that is no one field's) and what is wrong.
type RowProblem struct {
	Line    int
	Field   string
	Message string
}

// ImportRefusal refuses an import with bad rows before anything is
// written: every fault of every bad row, in line order.
type ImportRefusal struct {
	Problems []RowProblem
	BadRows  int
}

// Error implements error.
func (e *ImportRefusal) Error() string {
	return fmt.Sprintf("%d bad rows; nothing was imported", e.BadRows)
}

// add records the refusal err of the row on line; it reports false when
// err is no refusal of the row (the database unreachable, say).
func (e *ImportRefusal) add(line int, err error) bool {
	re, ok := errors.AsType[*stockroom.Error](err)
	if !ok || !rowFault(re.Code) {
		return false
	}
	e.BadRows++
	if len(re.Details) == 0 {
		field := ""
		if at, ok := errors.AsType[*atField](err); ok {
			field = at.field
		}
		e.Problems = append(e.Problems, RowProblem{Line: line, Field: field, Message: re.Message})
		return true
	}
	for _, field := range slices.Sorted(maps.Keys(re.Details)) {
		for _, msg := range re.Details[field] {
			e.Problems = append(e.Problems, RowProblem{Line: line, Field: field, Message: msg})
		}
	}
	return true
}

// rowFault reports whether a refusal of code is a fault of the row (its
// fields, the records it names, their state), not of the import.
func rowFault(code string) bool {
	switch code {
	case stockroom.EINVALID, stockroom.ENOTFOUND, stockroom.ECONFLICT, stockroom.EFORBIDDEN:
		return true
	}
	return false
}

// atField names the field of a refusal that names none (a 404 or a 409,
// whose message names the record): the field that named the record.
type atField struct {
	field string
	err   error
}

func (a *atField) Error() string { return a.err.Error() }
func (a *atField) Unwrap() error { return a.err }

// ImportWriteError is the refusal of a row when it was written, after the
// check of every row passed (the database changed meanwhile): the rows
// before its transaction's are written, and none after.
type ImportWriteError struct {
	// Written is how many rows of the import were written.
	Written int
	// Problems is the row's refusal, when it is one row's.
	Problems []RowProblem
	Err      error
}

func (e *ImportWriteError) Error() string { return e.Err.Error() }
func (e *ImportWriteError) Unwrap() error { return e.Err }

// rowRefused is the refusal of the row at index at of the rows a write
// was given.
type rowRefused struct {
	at  int
	err error
}

func (r *rowRefused) Error() string { return r.err.Error() }
func (r *rowRefused) Unwrap() error { return r.err }

// importer is how an import of rows of requests T, each judged into a
// write X, is done.
type importer[T, X any] struct {
	// judge makes a row's checks, its endpoint's.
	judge func(ctx context.Context, row *ImportRow[T]) (X, error)
	// judgeAll, when not nil, makes the checks of the rows that passed
	// judge together (what their writes would meet in the database): a
	// refusal or nil for each.
	judgeAll func(ctx context.Context, xs []X) ([]error, error)
	// write writes rows in one transaction, all or none, with mark, the
	// record of the import's run, in the same transaction; a refusal of
	// one row is a *rowRefused.
	write func(ctx context.Context, xs []X, mark *stockroom.ImportMark) error
	// now is the clock of the run's record.
	now func() time.Time
}

// run judges every row, and refuses the import (an *ImportRefusal) if any
// is bad; else it writes them, ImportRowsPerTx to a transaction, each
// recording how far the run of start (nil: none) has come, the rows
// before the first row given (start.From) counted as done. It returns
// how many rows it wrote: all of them, or, with an *ImportWriteError,
// those of the transactions before the one that failed.
func (im importer[T, X]) run(ctx context.Context, start *ImportStart, rows []ImportRow[T]) (int, error) {
	xs, err := im.judgeRows(ctx, rows)
	if err != nil {
		return 0, err
	}
	from := 0
	if start != nil {
		from = start.From
	}
	written := 0
	for written < len(xs) {
		n := min(ImportRowsPerTx, len(xs)-written)
		mark := start.next(from+written+n, from+len(xs), im.now())
		err := ctx.Err() // interrupted: stop between transactions
		if err == nil {
			err = im.write(ctx, xs[written:written+n], mark)
		}
		if err != nil {
			we := &ImportWriteError{Written: written, Err: err}
			var bad ImportRefusal
			if r, ok := errors.AsType[*rowRefused](err); ok && bad.add(rows[written+r.at].Line, r.err) {
				we.Problems = bad.Problems
			}
			return written, we
		}
		written += n
		start.committed(mark, written)
	}
	return written, nil
}

// judgeRows judges every row; it returns the writes of all, or an
// *ImportRefusal naming every bad row, or an error that is no row's.
func (im importer[T, X]) judgeRows(ctx context.Context, rows []ImportRow[T]) ([]X, error) {
	xs := make([]X, len(rows))
	var (
		bad  ImportRefusal
		good []int
	)
	for i := range rows {
		x, err := im.judge(ctx, &rows[i])
		switch {
		case err == nil:
			xs[i] = x
			good = append(good, i)
		case !bad.add(rows[i].Line, err):
			return nil, err
		}
	}
	if im.judgeAll != nil && len(good) > 0 {
		passed := make([]X, len(good))
		for j, i := range good {
			passed[j] = xs[i]
		}
		errs, err := im.judgeAll(ctx, passed)
		if err != nil {
			return nil, err
		}
		for j, err := range errs {
			if err != nil && !bad.add(rows[good[j]].Line, err) {
				return nil, err
			}
		}
	}
	if bad.BadRows > 0 {
		slices.SortStableFunc(bad.Problems, func(a, b RowProblem) int { return a.Line - b.Line })
		return nil, &bad
	}
	return xs, nil
}

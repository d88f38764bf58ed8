package service

import (
	"context"
	"errors"
	"time"

	"github.com/stockroom/stockroom"
)

// importStore is what an import keeps of its runs (contract §15): each
// transaction of rows records its run's progress itself (a
// stockroom.ImportMark given to the write).
type importStore interface {
	LastImport(ctx context.Context, file, kind string) (stockroom.ImportRun, error)
}

// ImportFile is a file to import: its SHA-256 (hex) and what it imports
// (items, customers, vendors, stock), and what the operator asked: Skip,
// the rows after the header to pass over (--skip), and Again, to import
// again a file of receipts imported completely before (--again).
type ImportFile struct {
	SHA256, Kind string
	Skip         int
	Again        bool
}

// ImportStart is where an import of a file starts (StartImport): From,
// the rows after the header it passes over, and Resumed, the unfinished
// run it continues (nil for a run of its own).
type ImportStart struct {
	From    int
	Resumed *stockroom.ImportRun
	// Progress, when not nil, is told how many rows the run has written
	// after each of its commits.
	Progress func(int)
	run      stockroom.ImportRun // the run's record as the import found it
	was      int64               // its rows done then; −1 when it has no record
}

// StartImport decides where an import of f starts, from the database's
// record of the file's runs, so that no row is written twice:
//
//   - after the last run of the file and kind, cut short, it resumes after
//     the rows that run committed (or after f.Skip, when more); an f.Skip
//     below them is refused, naming them: it asks to write rows the
//     database holds;
//   - after a run that finished, receipts (stock) are refused unless
//     f.Again, naming that run; items, customers and vendors start a new
//     run, whose rows are refused as their ShortIDs are taken;
//   - else a new run starts after f.Skip.
func (s *Service) StartImport(ctx context.Context, f ImportFile) (*ImportStart, error) {
	now := s.now()
	last, err := s.db.LastImport(ctx, f.SHA256, f.Kind)
	switch {
	case errors.Is(err, stockroom.ErrNotFound):
		last = stockroom.ImportRun{File: f.SHA256, Kind: f.Kind, Finished: true}
	case err != nil:
		return nil, err
	case !last.Finished:
		if f.Skip > 0 && int64(f.Skip) < last.Rows {
			return nil, stockroom.Errorf(stockroom.ECONFLICT,
				"--skip %d would import rows again: the first %d rows of this file are imported already (by the run of %s, cut short); run the command without --skip to resume after them",
				f.Skip, last.Rows, last.Started.Format("2006-01-02 15:04:05 MST"))
		}
		resumed := last
		return &ImportStart{From: max(f.Skip, int(last.Rows)), Resumed: &resumed, run: last, was: last.Rows}, nil
	case f.Kind == "stock" && !f.Again:
		return nil, stockroom.Errorf(stockroom.ECONFLICT,
			"this file's %d rows of stock were imported completely already (by the run of %s, finished %s); give --again to receive them all again",
			last.Total, last.Started.Format("2006-01-02 15:04:05 MST"), last.Modified.Format("2006-01-02 15:04:05 MST"))
	}
	run := stockroom.ImportRun{File: f.SHA256, Kind: f.Kind, Run: last.Run + 1, Started: now}
	return &ImportStart{From: f.Skip, run: run, was: -1}, nil
}

// next is the mark of the transaction that brings the run to done rows
// of the file's total, at now; nil for an import of no record (st nil).
func (st *ImportStart) next(done, total int, now time.Time) *stockroom.ImportMark {
	if st == nil {
		return nil
	}
	m := &stockroom.ImportMark{Run: st.run, Was: st.was}
	m.Run.Rows, m.Run.Total, m.Run.Modified, m.Run.Finished = int64(done), int64(total), now, done == total
	return m
}

// committed moves st's record to m's, once m's transaction committed, and
// tells Progress the rows the run wrote.
func (st *ImportStart) committed(m *stockroom.ImportMark, written int) {
	if st == nil {
		return
	}
	st.run, st.was = m.Run, m.Run.Rows
	if st.Progress != nil {
		st.Progress(written)
	}
}

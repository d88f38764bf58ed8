package store

import (
	"context"

	"github.com/stockroom/stockroom"
)

// LastImport returns the latest run of an import of file (its SHA-256)
// and kind, or stockroom.ErrNotFound when there is none.
func (db *DB) LastImport(ctx context.Context, file, kind string) (stockroom.ImportRun, error) {
	return queryOne(ctx, db, func(row scanner) (stockroom.ImportRun, error) {
		r := stockroom.ImportRun{File: file, Kind: kind}
		var started, modified int64
		err := row.Scan(&r.Run, &r.Rows, &r.Total, &started, &modified, &r.Finished)
		r.Started, r.Modified = fromMicros(started), fromMicros(modified)
		return r, err
	}, `
		SELECT run, done_rows, total_rows, started, modified, finished
		FROM import_runs
		WHERE file = $1 AND kind = $2
		ORDER BY run DESC
		LIMIT 1`, file, kind)
}

// markImport queues the record of m in t, the transaction of the rows it
// counts, and refuses it with stockroom.ErrImportMoved when the record is
// not where m says it was (m.Was): the record made by another run, or
// moved by one. It sends the queue.
func (t *Tx) markImport(m *stockroom.ImportMark) error {
	if m == nil {
		return nil
	}
	r := m.Run
	var found bool
	var run int64
	if m.Was < 0 {
		t.QueryRow(&found, `
			INSERT INTO import_runs (file, kind, run, done_rows, total_rows, started, modified, finished)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
			ON CONFLICT (file, kind, run) DO NOTHING
			RETURNING run`,
			[]any{r.File, r.Kind, r.Run, r.Rows, r.Total, micros(r.Started), micros(r.Modified), r.Finished}, &run)
	} else {
		t.QueryRow(&found, `
			UPDATE import_runs
			SET done_rows = $1, modified = $2, finished = $3
			WHERE file = $4 AND kind = $5 AND run = $6 AND done_rows = $7 AND NOT finished
			RETURNING run`,
			[]any{r.Rows, micros(r.Modified), r.Finished, r.File, r.Kind, r.Run, m.Was}, &run)
	}
	if err := t.Flush(); err != nil {
		return err
	}
	if !found {
		return stockroom.ErrImportMoved
	}
	return nil
}

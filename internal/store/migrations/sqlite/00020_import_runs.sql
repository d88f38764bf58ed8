-- +goose Up
-- The runs of `stockroom import` (contract §15), one row a run of a file
-- (its SHA-256) and kind: how many of its rows are done, written in the
-- same transaction as each 1,000 rows it imports (stockroom.ImportMark), so
-- that an import cut short, even killed, resumes after exactly the rows
-- written, and a file of receipts imported completely is not received
-- again by mistake.
CREATE TABLE import_runs (
    file       TEXT NOT NULL,
    kind       TEXT NOT NULL,
    run        INTEGER NOT NULL,
    done_rows  INTEGER NOT NULL,
    total_rows INTEGER NOT NULL,
    started    INTEGER NOT NULL,
    modified   INTEGER NOT NULL,
    finished   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (file, kind, run)
);

-- +goose Down
DROP TABLE import_runs;

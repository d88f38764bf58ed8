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
    run        BIGINT NOT NULL,
    done_rows  BIGINT NOT NULL,
    total_rows BIGINT NOT NULL,
    started    BIGINT NOT NULL,
    modified   BIGINT NOT NULL,
    finished   BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (file, kind, run)
);

-- +goose Down
DROP TABLE import_runs;

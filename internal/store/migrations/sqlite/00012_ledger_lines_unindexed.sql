-- +goose Up
-- The ledger's lines lose their index by item and warehouse. No list or
-- lookup reads lines by item (the ledger's filters read transactions; a
-- transaction's lines are read by its id, the key), and the audit, which
-- sums every line, scans them either way; but every stock change wrote a
-- random page of it, a tenth of the pages a receive commits
-- (bench/sqlite.sh PAGES=1).
DROP INDEX transaction_lines_part_wid;

-- +goose Down
CREATE INDEX transaction_lines_part_wid ON transaction_lines (part_no, wid);

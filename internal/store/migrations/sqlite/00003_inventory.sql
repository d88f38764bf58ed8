-- +goose Up
-- Lots: stock of one item received at one time, at one warehouse and spot.
-- units never goes below zero; an emptied lot keeps its row (shipped set,
-- active false) so the ledger always has the lot it names.
CREATE TABLE lots (
    rec_no       INTEGER PRIMARY KEY AUTOINCREMENT,
    part_no      INTEGER NOT NULL REFERENCES items (part_no),
    wid          INTEGER NOT NULL REFERENCES warehouses (wid),
    spot         TEXT NOT NULL,
    units        INTEGER NOT NULL CHECK (units >= 0),
    received     INTEGER NOT NULL,
    shipped      INTEGER,
    serial       TEXT NOT NULL,
    serial2      TEXT NOT NULL,
    rfid_tag     TEXT NOT NULL,
    remark       TEXT NOT NULL,
    associate    TEXT NOT NULL,
    hold         INTEGER NOT NULL,
    job_id       INTEGER NOT NULL,
    active       INTEGER NOT NULL,
    reference    TEXT NOT NULL,
    net_weight   INTEGER NOT NULL,
    gross_weight INTEGER NOT NULL,
    price        INTEGER NOT NULL,
    expires      INTEGER,
    supplier     INTEGER NOT NULL,
    line         INTEGER NOT NULL,
    modified     INTEGER NOT NULL
);
-- The draw order of issue and move: an item's lots in a warehouse, oldest first.
CREATE INDEX lots_draw ON lots (part_no, wid, received, rec_no) WHERE units > 0;
-- Lot lists, newest first: in stock (the default) or all, every warehouse or one.
CREATE INDEX lots_in_stock ON lots (received, rec_no) WHERE units > 0;
CREATE INDEX lots_wid_in_stock ON lots (wid, received, rec_no) WHERE units > 0;
CREATE INDEX lots_received ON lots (received, rec_no);
CREATE INDEX lots_modified ON lots (modified, rec_no);

-- Stock levels per item and warehouse, kept in the same transaction as every
-- lot change, so reading them never scans lots.
CREATE TABLE stock_levels (
    part_no   INTEGER NOT NULL REFERENCES items (part_no),
    wid       INTEGER NOT NULL REFERENCES warehouses (wid),
    in_stock  INTEGER NOT NULL,
    on_hold   INTEGER NOT NULL,
    committed INTEGER NOT NULL,
    packed    INTEGER NOT NULL,
    on_order  INTEGER NOT NULL,
    asn       INTEGER NOT NULL,
    modified  INTEGER NOT NULL,
    PRIMARY KEY (part_no, wid),
    CHECK (in_stock >= 0 AND on_hold >= 0 AND on_hold <= in_stock)
);
CREATE INDEX stock_levels_wid ON stock_levels (wid, part_no);

-- The ledger: one row per stock transaction and one line per lot it touched,
-- with signed units. Rows are never changed or removed (the triggers below
-- refuse it).
CREATE TABLE transactions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    type        TEXT NOT NULL,
    time        INTEGER NOT NULL,
    client_id   TEXT NOT NULL,
    part_no     INTEGER NOT NULL REFERENCES items (part_no),
    wid         INTEGER NOT NULL,
    to_wid      INTEGER,
    spot        TEXT NOT NULL,
    to_spot     TEXT,
    units       INTEGER NOT NULL,
    reason_code INTEGER,
    reference   TEXT NOT NULL,
    remark      TEXT NOT NULL,
    details     TEXT NOT NULL
);
CREATE INDEX transactions_time ON transactions (time, id);
CREATE INDEX transactions_part_no ON transactions (part_no, id);
CREATE INDEX transactions_wid ON transactions (wid, id);
CREATE INDEX transactions_to_wid ON transactions (to_wid, id) WHERE to_wid IS NOT NULL;

CREATE TABLE transaction_lines (
    transaction_id INTEGER NOT NULL REFERENCES transactions (id),
    line           INTEGER NOT NULL,
    rec_no         INTEGER NOT NULL REFERENCES lots (rec_no),
    part_no        INTEGER NOT NULL,
    wid            INTEGER NOT NULL,
    spot           TEXT NOT NULL,
    units          INTEGER NOT NULL,
    PRIMARY KEY (transaction_id, line)
);
CREATE INDEX transaction_lines_part_wid ON transaction_lines (part_no, wid);

-- +goose StatementBegin
CREATE TRIGGER transactions_no_update BEFORE UPDATE ON transactions
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER transactions_no_delete BEFORE DELETE ON transactions
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER transaction_lines_no_update BEFORE UPDATE ON transaction_lines
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER transaction_lines_no_delete BEFORE DELETE ON transaction_lines
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
-- +goose StatementEnd

-- +goose Down
DROP TABLE transaction_lines;
DROP TABLE transactions;
DROP TABLE stock_levels;
DROP TABLE lots;

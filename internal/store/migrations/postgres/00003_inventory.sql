-- +goose Up
-- Lots: stock of one item received at one time, at one warehouse and spot.
-- units never goes below zero; an emptied lot keeps its row (shipped set,
-- active false) so the ledger always has the lot it names.
CREATE TABLE lots (
    rec_no       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    part_no      BIGINT NOT NULL REFERENCES items (part_no),
    wid          BIGINT NOT NULL REFERENCES warehouses (wid),
    spot         TEXT COLLATE "C" NOT NULL,
    units        BIGINT NOT NULL CHECK (units >= 0),
    received     BIGINT NOT NULL,
    shipped      BIGINT,
    serial       TEXT COLLATE "C" NOT NULL,
    serial2      TEXT COLLATE "C" NOT NULL,
    rfid_tag     TEXT COLLATE "C" NOT NULL,
    remark       TEXT COLLATE "C" NOT NULL,
    associate    TEXT COLLATE "C" NOT NULL,
    hold         BOOLEAN NOT NULL,
    job_id       BIGINT NOT NULL,
    active       BOOLEAN NOT NULL,
    reference    TEXT COLLATE "C" NOT NULL,
    net_weight   BIGINT NOT NULL,
    gross_weight BIGINT NOT NULL,
    price        BIGINT NOT NULL,
    expires      BIGINT,
    supplier     BIGINT NOT NULL,
    line         BIGINT NOT NULL,
    modified     BIGINT NOT NULL
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
    part_no   BIGINT NOT NULL REFERENCES items (part_no),
    wid       BIGINT NOT NULL REFERENCES warehouses (wid),
    in_stock  BIGINT NOT NULL,
    on_hold   BIGINT NOT NULL,
    committed BIGINT NOT NULL,
    packed    BIGINT NOT NULL,
    on_order  BIGINT NOT NULL,
    asn       BIGINT NOT NULL,
    modified  BIGINT NOT NULL,
    PRIMARY KEY (part_no, wid),
    CHECK (in_stock >= 0 AND on_hold >= 0 AND on_hold <= in_stock)
);
CREATE INDEX stock_levels_wid ON stock_levels (wid, part_no);

-- The ledger: one row per stock transaction and one line per lot it touched,
-- with signed units. Rows are never changed or removed (the triggers below
-- refuse it).
CREATE TABLE transactions (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    type        TEXT COLLATE "C" NOT NULL,
    time        BIGINT NOT NULL,
    client_id   TEXT COLLATE "C" NOT NULL,
    part_no     BIGINT NOT NULL REFERENCES items (part_no),
    wid         BIGINT NOT NULL,
    to_wid      BIGINT,
    spot        TEXT COLLATE "C" NOT NULL,
    to_spot     TEXT COLLATE "C",
    units       BIGINT NOT NULL,
    reason_code BIGINT,
    reference   TEXT COLLATE "C" NOT NULL,
    remark      TEXT COLLATE "C" NOT NULL,
    details     TEXT NOT NULL
);
CREATE INDEX transactions_time ON transactions (time, id);
CREATE INDEX transactions_part_no ON transactions (part_no, id);
CREATE INDEX transactions_wid ON transactions (wid, id);
CREATE INDEX transactions_to_wid ON transactions (to_wid, id) WHERE to_wid IS NOT NULL;

CREATE TABLE transaction_lines (
    transaction_id BIGINT NOT NULL REFERENCES transactions (id),
    line           INTEGER NOT NULL,
    rec_no         BIGINT NOT NULL REFERENCES lots (rec_no),
    part_no        BIGINT NOT NULL,
    wid            BIGINT NOT NULL,
    spot           TEXT COLLATE "C" NOT NULL,
    units          BIGINT NOT NULL,
    PRIMARY KEY (transaction_id, line)
);
CREATE INDEX transaction_lines_part_wid ON transaction_lines (part_no, wid);

-- +goose StatementBegin
CREATE FUNCTION ledger_is_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the ledger is append-only';
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd
CREATE TRIGGER transactions_append_only BEFORE UPDATE OR DELETE ON transactions
    FOR EACH ROW EXECUTE FUNCTION ledger_is_append_only();
CREATE TRIGGER transaction_lines_append_only BEFORE UPDATE OR DELETE ON transaction_lines
    FOR EACH ROW EXECUTE FUNCTION ledger_is_append_only();

-- +goose Down
DROP TABLE transaction_lines;
DROP TABLE transactions;
DROP FUNCTION ledger_is_append_only();
DROP TABLE stock_levels;
DROP TABLE lots;

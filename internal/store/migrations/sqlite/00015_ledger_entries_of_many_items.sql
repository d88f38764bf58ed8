-- +goose Up
-- The ledger's figures name their item, as its lot lines do
-- (transaction_lines.part_no), one row per item and warehouse; existing
-- rows take their transaction's item. So an entry can carry figures
-- of more than one item: a work order's completion, one entry that changes
-- its components and its product.
--
-- transaction_items lists, for such an entry, each item it changes other
-- than its own, so that the ledger filtered by item finds it through an
-- index, as it finds an entry by its own item (transactions_part_no).
CREATE TABLE transaction_figures_by_item (
    transaction_id INTEGER NOT NULL REFERENCES transactions (id),
    wid            INTEGER NOT NULL,
    part_no        INTEGER NOT NULL,
    on_order       INTEGER NOT NULL,
    asn            INTEGER NOT NULL,
    committed      INTEGER NOT NULL,
    packed         INTEGER NOT NULL,
    PRIMARY KEY (transaction_id, wid, part_no)
);
INSERT INTO transaction_figures_by_item (transaction_id, wid, part_no, on_order, asn, committed, packed)
SELECT f.transaction_id, f.wid, t.part_no, f.on_order, f.asn, f.committed, f.packed
FROM transaction_figures f JOIN transactions t ON t.id = f.transaction_id;
DROP TABLE transaction_figures;
ALTER TABLE transaction_figures_by_item RENAME TO transaction_figures;
-- +goose StatementBegin
CREATE TRIGGER transaction_figures_no_update BEFORE UPDATE ON transaction_figures
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER transaction_figures_no_delete BEFORE DELETE ON transaction_figures
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
-- +goose StatementEnd

CREATE TABLE transaction_items (
    part_no        INTEGER NOT NULL,
    transaction_id INTEGER NOT NULL REFERENCES transactions (id),
    PRIMARY KEY (part_no, transaction_id)
) WITHOUT ROWID;
-- +goose StatementBegin
CREATE TRIGGER transaction_items_no_update BEFORE UPDATE ON transaction_items
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER transaction_items_no_delete BEFORE DELETE ON transaction_items
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
-- +goose StatementEnd

-- +goose Down
-- The earlier shape has the figures of the entry's item only: any of
-- another item (a completion's components) have no place in it and are
-- dropped, and so is the list of an entry's other items.
DROP TABLE transaction_items;
CREATE TABLE transaction_figures_of_entry (
    transaction_id INTEGER NOT NULL REFERENCES transactions (id),
    wid            INTEGER NOT NULL,
    on_order       INTEGER NOT NULL,
    asn            INTEGER NOT NULL,
    committed      INTEGER NOT NULL,
    packed         INTEGER NOT NULL,
    PRIMARY KEY (transaction_id, wid)
);
INSERT INTO transaction_figures_of_entry (transaction_id, wid, on_order, asn, committed, packed)
SELECT f.transaction_id, f.wid, f.on_order, f.asn, f.committed, f.packed
FROM transaction_figures f JOIN transactions t ON t.id = f.transaction_id AND t.part_no = f.part_no;
DROP TABLE transaction_figures;
ALTER TABLE transaction_figures_of_entry RENAME TO transaction_figures;
-- +goose StatementBegin
CREATE TRIGGER transaction_figures_no_update BEFORE UPDATE ON transaction_figures
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER transaction_figures_no_delete BEFORE DELETE ON transaction_figures
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
-- +goose StatementEnd

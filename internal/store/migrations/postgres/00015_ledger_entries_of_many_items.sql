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
ALTER TABLE transaction_figures ADD COLUMN part_no BIGINT;
ALTER TABLE transaction_figures DISABLE TRIGGER transaction_figures_append_only;
UPDATE transaction_figures f SET part_no = t.part_no FROM transactions t WHERE t.id = f.transaction_id;
ALTER TABLE transaction_figures ENABLE TRIGGER transaction_figures_append_only;
ALTER TABLE transaction_figures ALTER COLUMN part_no SET NOT NULL;
ALTER TABLE transaction_figures DROP CONSTRAINT transaction_figures_pkey;
ALTER TABLE transaction_figures ADD PRIMARY KEY (transaction_id, wid, part_no);

CREATE TABLE transaction_items (
    part_no        BIGINT NOT NULL,
    transaction_id BIGINT NOT NULL REFERENCES transactions (id),
    PRIMARY KEY (part_no, transaction_id)
);
CREATE TRIGGER transaction_items_append_only BEFORE UPDATE OR DELETE ON transaction_items
    FOR EACH ROW EXECUTE FUNCTION ledger_is_append_only();

-- +goose Down
-- The earlier shape has the figures of the entry's item only: any of
-- another item (a completion's components) have no place in it and are
-- dropped, and so is the list of an entry's other items.
DROP TABLE transaction_items;
ALTER TABLE transaction_figures DISABLE TRIGGER transaction_figures_append_only;
DELETE FROM transaction_figures f USING transactions t WHERE t.id = f.transaction_id AND t.part_no <> f.part_no;
ALTER TABLE transaction_figures ENABLE TRIGGER transaction_figures_append_only;
ALTER TABLE transaction_figures DROP CONSTRAINT transaction_figures_pkey;
ALTER TABLE transaction_figures DROP COLUMN part_no;
ALTER TABLE transaction_figures ADD PRIMARY KEY (transaction_id, wid);

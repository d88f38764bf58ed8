-- +goose Up
-- The references of the rows every stock change appends (a lot to its item
-- and warehouse, a ledger row to its item, a ledger line to its row and its
-- lot) are kept by the write path and checked by the audit, not by foreign
-- keys. On PostgreSQL each foreign key check is a query that locks the row
-- it finds (FOR KEY SHARE, a WAL record), and the five warehouse rows are
-- locked so by every receipt at once, which makes a MultiXact of each lock:
-- measured on bench/inventory.sh, receive ran 7% faster without these five.
-- Every one of them names a row its transaction has just read or written
-- (a receipt's lot is inserted from its item's row, only while its
-- warehouse exists), no row they name is ever deleted, and the audit
-- reports any that is missing. (SQLite keeps them: there a check is an
-- index probe that locks nothing.)
ALTER TABLE lots DROP CONSTRAINT lots_part_no_fkey;
ALTER TABLE lots DROP CONSTRAINT lots_wid_fkey;
ALTER TABLE transactions DROP CONSTRAINT transactions_part_no_fkey;
ALTER TABLE transaction_lines DROP CONSTRAINT transaction_lines_transaction_id_fkey;
ALTER TABLE transaction_lines DROP CONSTRAINT transaction_lines_rec_no_fkey;

-- +goose Down
ALTER TABLE lots ADD CONSTRAINT lots_part_no_fkey FOREIGN KEY (part_no) REFERENCES items (part_no);
ALTER TABLE lots ADD CONSTRAINT lots_wid_fkey FOREIGN KEY (wid) REFERENCES warehouses (wid);
ALTER TABLE transactions ADD CONSTRAINT transactions_part_no_fkey FOREIGN KEY (part_no) REFERENCES items (part_no);
ALTER TABLE transaction_lines ADD CONSTRAINT transaction_lines_transaction_id_fkey FOREIGN KEY (transaction_id) REFERENCES transactions (id);
ALTER TABLE transaction_lines ADD CONSTRAINT transaction_lines_rec_no_fkey FOREIGN KEY (rec_no) REFERENCES lots (rec_no);

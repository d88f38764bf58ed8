-- +goose Up
-- The indexes of lots in stock are kept on shipped IS NULL, not units > 0:
-- the same lots, as the audit holds (a lot is shipped exactly when it is
-- empty), but a column only the draw that empties a lot sets. SQLite
-- rewrites a row's entry in a partial index whenever a statement sets a
-- column the index's condition reads, so while the condition read units,
-- every draw from a lot rewrote three index pages, and a commit's pages
-- are most of what it costs. A draw that leaves units sets neither shipped
-- nor active (withdraw.go).
DROP INDEX lots_draw;
DROP INDEX lots_in_stock;
DROP INDEX lots_wid_in_stock;
CREATE INDEX lots_draw ON lots (part_no, wid, owner, received, rec_no) WHERE shipped IS NULL;
CREATE INDEX lots_in_stock ON lots (received, rec_no) WHERE shipped IS NULL;
CREATE INDEX lots_wid_in_stock ON lots (wid, received, rec_no) WHERE shipped IS NULL;

-- +goose Down
DROP INDEX lots_wid_in_stock;
DROP INDEX lots_in_stock;
DROP INDEX lots_draw;
CREATE INDEX lots_draw ON lots (part_no, wid, owner, received, rec_no) WHERE units > 0;
CREATE INDEX lots_in_stock ON lots (received, rec_no) WHERE units > 0;
CREATE INDEX lots_wid_in_stock ON lots (wid, received, rec_no) WHERE units > 0;

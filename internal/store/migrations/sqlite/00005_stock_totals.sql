-- +goose Up
-- Stock levels summed over every warehouse, one row per item, kept in the
-- same transaction as stock_levels: the all-warehouse level list reads it
-- instead of summing warehouses. The counters "stocked:<wid>" and
-- "stocked:0" count the items with stock in a warehouse and anywhere.
CREATE TABLE stock_totals (
    part_no   INTEGER PRIMARY KEY REFERENCES items (part_no),
    in_stock  INTEGER NOT NULL,
    on_hold   INTEGER NOT NULL,
    committed INTEGER NOT NULL,
    packed    INTEGER NOT NULL,
    on_order  INTEGER NOT NULL,
    asn       INTEGER NOT NULL,
    modified  INTEGER NOT NULL,
    CHECK (in_stock >= 0 AND on_hold >= 0 AND on_hold <= in_stock)
);
INSERT INTO stock_totals (part_no, in_stock, on_hold, committed, packed, on_order, asn, modified)
SELECT part_no, SUM(in_stock), SUM(on_hold), SUM(committed), SUM(packed), SUM(on_order), SUM(asn), MAX(modified)
FROM stock_levels GROUP BY part_no;
INSERT INTO counters (name, shard, value)
SELECT 'stocked:' || CAST(wid AS TEXT), 0, COUNT(*) FROM stock_levels WHERE in_stock <> 0 GROUP BY wid;
INSERT INTO counters (name, shard, value)
SELECT 'stocked:0', 0, COUNT(*) FROM stock_totals WHERE in_stock <> 0;

-- +goose Down
DELETE FROM counters WHERE name LIKE 'stocked:%';
DROP TABLE stock_totals;

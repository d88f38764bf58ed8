-- +goose Up
-- The four grains of stock levels become rows of one table, keyed by item,
-- warehouse and owner, where warehouse 0 stands for every warehouse and owner
-- -1 for every owner: an item's rows of every grain lie side by side, so the
-- four rows a stock change updates share a page, where the four tables each
-- wrote a random one at every commit (bench/sqlite.sh PAGES=1). WITHOUT
-- ROWID: the key is the table's own order, with no second b-tree to look it
-- up. Each grain stays readable by its old name, as a view; writes go to
-- levels (store/levels.go).
CREATE TABLE levels (
    part_no   INTEGER NOT NULL REFERENCES items (part_no),
    wid       INTEGER NOT NULL,
    owner     INTEGER NOT NULL,
    in_stock  INTEGER NOT NULL,
    on_hold   INTEGER NOT NULL,
    committed INTEGER NOT NULL,
    packed    INTEGER NOT NULL,
    on_order  INTEGER NOT NULL,
    asn       INTEGER NOT NULL,
    modified  INTEGER NOT NULL,
    available INTEGER GENERATED ALWAYS AS (MAX(in_stock - on_hold - committed - packed, 0)) VIRTUAL,
    PRIMARY KEY (part_no, wid, owner),
    CHECK (wid >= 0 AND owner >= -1),
    CHECK (in_stock >= 0 AND on_hold >= 0 AND on_hold <= in_stock)
) WITHOUT ROWID;
INSERT INTO levels (part_no, wid, owner, in_stock, on_hold, committed, packed, on_order, asn, modified)
SELECT part_no, wid, owner, in_stock, on_hold, committed, packed, on_order, asn, modified FROM owner_levels
UNION ALL
SELECT part_no, wid, -1, in_stock, on_hold, committed, packed, on_order, asn, modified FROM stock_levels
UNION ALL
SELECT part_no, 0, owner, in_stock, on_hold, committed, packed, on_order, asn, modified FROM owner_totals
UNION ALL
SELECT part_no, 0, -1, in_stock, on_hold, committed, packed, on_order, asn, modified FROM stock_totals;
-- No index by warehouse: a list of one warehouse's or one owner's levels
-- walks items in key order, looks up each one's row and stops at the page's
-- end, where stock_levels_wid led SQLite's planner to read and sort every
-- row of the warehouse first.
DROP TABLE owner_levels;
DROP TABLE stock_levels;
DROP TABLE owner_totals;
DROP TABLE stock_totals;
CREATE VIEW owner_levels AS
SELECT part_no, wid, owner, in_stock, on_hold, committed, packed, on_order, asn, modified, available
FROM levels WHERE wid <> 0 AND owner <> -1;
CREATE VIEW stock_levels AS
SELECT part_no, wid, in_stock, on_hold, committed, packed, on_order, asn, modified, available
FROM levels WHERE wid <> 0 AND owner = -1;
CREATE VIEW owner_totals AS
SELECT part_no, owner, in_stock, on_hold, committed, packed, on_order, asn, modified, available
FROM levels WHERE wid = 0 AND owner <> -1;
CREATE VIEW stock_totals AS
SELECT part_no, in_stock, on_hold, committed, packed, on_order, asn, modified, available
FROM levels WHERE wid = 0 AND owner = -1;

-- +goose Down
DROP VIEW stock_totals;
DROP VIEW owner_totals;
DROP VIEW stock_levels;
DROP VIEW owner_levels;
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
    available INTEGER GENERATED ALWAYS AS (MAX(in_stock - on_hold - committed - packed, 0)) VIRTUAL,
    PRIMARY KEY (part_no, wid),
    CHECK (in_stock >= 0 AND on_hold >= 0 AND on_hold <= in_stock)
);
CREATE INDEX stock_levels_wid ON stock_levels (wid, part_no);
CREATE TABLE stock_totals (
    part_no   INTEGER PRIMARY KEY REFERENCES items (part_no),
    in_stock  INTEGER NOT NULL,
    on_hold   INTEGER NOT NULL,
    committed INTEGER NOT NULL,
    packed    INTEGER NOT NULL,
    on_order  INTEGER NOT NULL,
    asn       INTEGER NOT NULL,
    modified  INTEGER NOT NULL,
    available INTEGER GENERATED ALWAYS AS (MAX(in_stock - on_hold - committed - packed, 0)) VIRTUAL,
    CHECK (in_stock >= 0 AND on_hold >= 0 AND on_hold <= in_stock)
);
CREATE TABLE owner_levels (
    part_no   INTEGER NOT NULL REFERENCES items (part_no),
    wid       INTEGER NOT NULL REFERENCES warehouses (wid),
    owner     INTEGER NOT NULL,
    in_stock  INTEGER NOT NULL,
    on_hold   INTEGER NOT NULL,
    committed INTEGER NOT NULL,
    packed    INTEGER NOT NULL,
    on_order  INTEGER NOT NULL,
    asn       INTEGER NOT NULL,
    modified  INTEGER NOT NULL,
    available INTEGER GENERATED ALWAYS AS (MAX(in_stock - on_hold - committed - packed, 0)) VIRTUAL,
    PRIMARY KEY (part_no, wid, owner),
    CHECK (in_stock >= 0 AND on_hold >= 0 AND on_hold <= in_stock)
);
CREATE TABLE owner_totals (
    part_no   INTEGER NOT NULL REFERENCES items (part_no),
    owner     INTEGER NOT NULL,
    in_stock  INTEGER NOT NULL,
    on_hold   INTEGER NOT NULL,
    committed INTEGER NOT NULL,
    packed    INTEGER NOT NULL,
    on_order  INTEGER NOT NULL,
    asn       INTEGER NOT NULL,
    modified  INTEGER NOT NULL,
    available INTEGER GENERATED ALWAYS AS (MAX(in_stock - on_hold - committed - packed, 0)) VIRTUAL,
    PRIMARY KEY (part_no, owner),
    CHECK (in_stock >= 0 AND on_hold >= 0 AND on_hold <= in_stock)
);
INSERT INTO owner_levels (part_no, wid, owner, in_stock, on_hold, committed, packed, on_order, asn, modified)
SELECT part_no, wid, owner, in_stock, on_hold, committed, packed, on_order, asn, modified FROM levels WHERE wid <> 0 AND owner <> -1;
INSERT INTO stock_levels (part_no, wid, in_stock, on_hold, committed, packed, on_order, asn, modified)
SELECT part_no, wid, in_stock, on_hold, committed, packed, on_order, asn, modified FROM levels WHERE wid <> 0 AND owner = -1;
INSERT INTO owner_totals (part_no, owner, in_stock, on_hold, committed, packed, on_order, asn, modified)
SELECT part_no, owner, in_stock, on_hold, committed, packed, on_order, asn, modified FROM levels WHERE wid = 0 AND owner <> -1;
INSERT INTO stock_totals (part_no, in_stock, on_hold, committed, packed, on_order, asn, modified)
SELECT part_no, in_stock, on_hold, committed, packed, on_order, asn, modified FROM levels WHERE wid = 0 AND owner = -1;
DROP TABLE levels;

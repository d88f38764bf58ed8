-- +goose Up
-- Customers and vendors are parties: one table, one id sequence, so a
-- customerID is never also a vendorID. short_id_key is the case-folded
-- ShortID (computed in Go), unique per kind.
CREATE TABLE parties (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    kind         TEXT NOT NULL CHECK (kind IN ('customer', 'vendor')),
    short_id     TEXT NOT NULL,
    short_id_key TEXT NOT NULL,
    name         TEXT NOT NULL,
    address1     TEXT NOT NULL,
    address2     TEXT NOT NULL,
    city         TEXT NOT NULL,
    state        TEXT NOT NULL,
    zip          TEXT NOT NULL,
    country      TEXT NOT NULL,
    phone        TEXT NOT NULL,
    fax          TEXT NOT NULL,
    email        TEXT NOT NULL,
    contact      TEXT NOT NULL,
    active       INTEGER NOT NULL,
    created      INTEGER NOT NULL,
    modified     INTEGER NOT NULL,
    UNIQUE (kind, short_id_key)
);
CREATE INDEX parties_modified ON parties (kind, modified, id);

-- Categories keep the ids items already use; a new one without an id gets
-- the next after the largest.
CREATE TABLE categories (
    id          INTEGER PRIMARY KEY CHECK (id > 0),
    name        TEXT NOT NULL,
    description TEXT NOT NULL,
    active      INTEGER NOT NULL,
    created     INTEGER NOT NULL,
    modified    INTEGER NOT NULL
);
CREATE INDEX categories_modified ON categories (modified, id);

-- Every category id and default owner already used gets its record, so
-- every existing item stays valid.
INSERT INTO categories (id, name, description, active, created, modified)
SELECT c, 'Category ' || CAST(c AS TEXT), 'Created by the upgrade for the items that used this id.', 1,
    CAST((julianday('now') - 2440587.5) * 86400000000 AS INTEGER), CAST((julianday('now') - 2440587.5) * 86400000000 AS INTEGER)
FROM (SELECT category AS c FROM items UNION SELECT sub_category FROM items) used
WHERE c > 0;
INSERT INTO parties (id, kind, short_id, short_id_key, name, address1, address2, city, state, zip, country,
    phone, fax, email, contact, active, created, modified)
SELECT o, 'customer', 'CUSTOMER-' || CAST(o AS TEXT), 'customer-' || CAST(o AS TEXT), 'Customer ' || CAST(o AS TEXT),
    '', '', '', '', '', '', '', '', '', '', 1,
    CAST((julianday('now') - 2440587.5) * 86400000000 AS INTEGER), CAST((julianday('now') - 2440587.5) * 86400000000 AS INTEGER)
FROM (SELECT DISTINCT dflt_owner AS o FROM items WHERE dflt_owner > 0) used;

-- A lot belongs to an owner: a customer, or the house (0). Lots received
-- before owners existed are the house's. A draw takes one owner's lots, in
-- FIFO order: the draw index leads with the owner.
ALTER TABLE lots ADD COLUMN owner INTEGER NOT NULL DEFAULT 0;
DROP INDEX lots_draw;
CREATE INDEX lots_draw ON lots (part_no, wid, owner, received, rec_no) WHERE units > 0;
ALTER TABLE transactions ADD COLUMN owner INTEGER NOT NULL DEFAULT 0;
CREATE INDEX transactions_owner ON transactions (owner, id);

-- Levels per item, warehouse and owner, beside the sums over owners that
-- stock_levels and stock_totals keep; the same transaction changes both.
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
SELECT part_no, wid, 0, in_stock, on_hold, committed, packed, on_order, asn, modified FROM stock_levels;
INSERT INTO owner_totals (part_no, owner, in_stock, on_hold, committed, packed, on_order, asn, modified)
SELECT part_no, 0, in_stock, on_hold, committed, packed, on_order, asn, modified FROM stock_totals;
-- "stocked:<wid>:<owner>" counts an owner's items with stock in a warehouse
-- (wid 0: anywhere).
INSERT INTO counters (name, shard, value)
SELECT 'stocked:' || CAST(wid AS TEXT) || ':0', 0, COUNT(*) FROM owner_levels WHERE in_stock <> 0 GROUP BY wid;
INSERT INTO counters (name, shard, value)
SELECT 'stocked:0:0', 0, COUNT(*) FROM owner_totals WHERE in_stock <> 0;

-- Clients may be limited to owners, as they are to warehouses.
ALTER TABLE clients ADD COLUMN all_owners INTEGER NOT NULL DEFAULT 1;
CREATE TABLE client_owners (
    client_id TEXT NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    owner     INTEGER NOT NULL,
    PRIMARY KEY (client_id, owner)
);

-- +goose Down
DROP TABLE client_owners;
ALTER TABLE clients DROP COLUMN all_owners;
DELETE FROM counters WHERE name LIKE 'stocked:%:%';
DROP TABLE owner_totals;
DROP TABLE owner_levels;
DROP INDEX transactions_owner;
ALTER TABLE transactions DROP COLUMN owner;
DROP INDEX lots_draw;
ALTER TABLE lots DROP COLUMN owner;
CREATE INDEX lots_draw ON lots (part_no, wid, received, rec_no) WHERE units > 0;
DROP TABLE categories;
DROP TABLE parties;

-- +goose Up
-- Orders: purchase orders (and, later, shipping and work orders) share one
-- table of headers and one of lines, so listing, paging and numbering are
-- one piece of code. order_no_key is the case-folded number, unique per kind.
CREATE TABLE orders (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind         TEXT COLLATE "C" NOT NULL CHECK (kind IN ('purchase', 'shipping', 'work')),
    order_no     TEXT COLLATE "C" NOT NULL,
    order_no_key TEXT COLLATE "C" NOT NULL,
    party        BIGINT NOT NULL,
    order_date   BIGINT NOT NULL,
    due_date     BIGINT,
    status       TEXT COLLATE "C" NOT NULL,
    reference    TEXT COLLATE "C" NOT NULL,
    remark       TEXT COLLATE "C" NOT NULL,
    created      BIGINT NOT NULL,
    modified     BIGINT NOT NULL,
    UNIQUE (kind, order_no_key)
);
CREATE INDEX orders_date ON orders (kind, order_date, id);
CREATE INDEX orders_open ON orders (kind, order_date, id) WHERE status NOT IN ('Closed', 'Canceled');
CREATE INDEX orders_modified ON orders (kind, modified, id);

-- An order's lines: one item for one warehouse and owner each. What is
-- still due on an open purchase line (units - received - in_transit -
-- rejected, never below 0) is counted in its item's on_order.
CREATE TABLE order_lines (
    order_id   BIGINT NOT NULL REFERENCES orders (id),
    line_no    INTEGER NOT NULL,
    part_no    BIGINT NOT NULL REFERENCES items (part_no),
    wid        BIGINT NOT NULL REFERENCES warehouses (wid),
    owner      BIGINT NOT NULL,
    units      BIGINT NOT NULL CHECK (units > 0),
    received   BIGINT NOT NULL CHECK (received >= 0),
    in_transit BIGINT NOT NULL CHECK (in_transit >= 0),
    rejected   BIGINT NOT NULL CHECK (rejected >= 0),
    unit_price BIGINT NOT NULL,
    PRIMARY KEY (order_id, line_no)
);
CREATE INDEX order_lines_part_no ON order_lines (part_no, order_id);
CREATE INDEX order_lines_wid ON order_lines (wid, order_id);

-- The last number given to an order of each kind without one (PO-000001).
CREATE TABLE order_numbers (
    kind TEXT COLLATE "C" PRIMARY KEY,
    last BIGINT NOT NULL
);
INSERT INTO order_numbers (kind, last) VALUES ('purchase', 0), ('shipping', 0), ('work', 0);

-- Transits: stock on its way to warehouse to_wid, counted in its asn and in
-- no in_stock. A transfer comes from from_wid (its lines name the source
-- lots); an advance ship notice (asn) from a purchase order's vendor (its
-- lines name the order's lines). to_spot is the bin a receipt puts the
-- units in when it names none.
CREATE TABLE transits (
    id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind     TEXT COLLATE "C" NOT NULL CHECK (kind IN ('transfer', 'asn')),
    slip     TEXT COLLATE "C" NOT NULL,
    from_wid BIGINT REFERENCES warehouses (wid),
    order_id BIGINT REFERENCES orders (id),
    to_wid   BIGINT NOT NULL REFERENCES warehouses (wid),
    to_spot  TEXT COLLATE "C" NOT NULL,
    status   TEXT COLLATE "C" NOT NULL,
    shipped  BIGINT NOT NULL,
    modified BIGINT NOT NULL,
    CHECK ((kind = 'transfer') = (from_wid IS NOT NULL) AND (kind = 'asn') = (order_id IS NOT NULL))
);
CREATE INDEX transits_shipped ON transits (shipped, id);
CREATE INDEX transits_open ON transits (shipped, id) WHERE status IN ('InTransit', 'Partial');
CREATE INDEX transits_to_wid ON transits (to_wid, shipped, id);
CREATE INDEX transits_from_wid ON transits (from_wid, shipped, id) WHERE from_wid IS NOT NULL;
CREATE INDEX transits_order ON transits (order_id) WHERE order_id IS NOT NULL;

CREATE TABLE transit_lines (
    transit_id BIGINT NOT NULL REFERENCES transits (id),
    line       INTEGER NOT NULL,
    part_no    BIGINT NOT NULL REFERENCES items (part_no),
    owner      BIGINT NOT NULL,
    units      BIGINT NOT NULL CHECK (units > 0),
    received   BIGINT NOT NULL CHECK (received >= 0),
    rejected   BIGINT NOT NULL CHECK (rejected >= 0),
    serial     TEXT COLLATE "C" NOT NULL,
    serial2    TEXT COLLATE "C" NOT NULL,
    rfid_tag   TEXT COLLATE "C" NOT NULL,
    rec_no     BIGINT REFERENCES lots (rec_no),
    order_line INTEGER,
    PRIMARY KEY (transit_id, line),
    CHECK (received + rejected <= units)
);
CREATE INDEX transit_lines_part_no ON transit_lines (part_no, transit_id);

-- The ledger's changes to the figures that are not lots' units (on_order,
-- asn, committed, packed): per transaction, one row per warehouse, of the
-- transaction's item and owner. Append-only, as the rest of the ledger.
CREATE TABLE transaction_figures (
    transaction_id BIGINT NOT NULL REFERENCES transactions (id),
    wid            BIGINT NOT NULL,
    on_order       BIGINT NOT NULL,
    asn            BIGINT NOT NULL,
    committed      BIGINT NOT NULL,
    packed         BIGINT NOT NULL,
    PRIMARY KEY (transaction_id, wid)
);
CREATE TRIGGER transaction_figures_append_only BEFORE UPDATE OR DELETE ON transaction_figures
    FOR EACH ROW EXECUTE FUNCTION ledger_is_append_only();

-- +goose Down
DROP TABLE transaction_figures;
DROP TABLE transit_lines;
DROP TABLE transits;
DROP TABLE order_numbers;
DROP TABLE order_lines;
DROP TABLE orders;

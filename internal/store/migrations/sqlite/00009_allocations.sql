-- +goose Up
-- Allocations: units of a lot promised to an order line (a shipping order's
-- line or a work order's component). committed are promised and not yet
-- packed, packed are packed and not yet shipped. A lot's allocated is the
-- sum over its allocations, changed in the same transaction, so a plain
-- draw takes only units - allocated and a commit never promises a unit
-- twice. A held lot has no allocation: the database refuses both.
ALTER TABLE lots ADD COLUMN allocated INTEGER NOT NULL DEFAULT 0
    CHECK (allocated >= 0 AND allocated <= units AND (hold = 0 OR allocated = 0));

CREATE TABLE allocations (
    order_id  INTEGER NOT NULL,
    line_no   INTEGER NOT NULL,
    rec_no    INTEGER NOT NULL REFERENCES lots (rec_no),
    committed INTEGER NOT NULL CHECK (committed >= 0),
    packed    INTEGER NOT NULL CHECK (packed >= 0),
    PRIMARY KEY (order_id, line_no, rec_no),
    FOREIGN KEY (order_id, line_no) REFERENCES order_lines (order_id, line_no),
    CHECK (committed + packed > 0)
);
CREATE INDEX allocations_lot ON allocations (rec_no);

-- Shipping order lines and work order components: units committed (held
-- by allocations, not packed), packed, and shipped (for a component:
-- consumed). per_unit is a component's units per unit of the product.
ALTER TABLE order_lines ADD COLUMN committed INTEGER NOT NULL DEFAULT 0 CHECK (committed >= 0);
ALTER TABLE order_lines ADD COLUMN packed INTEGER NOT NULL DEFAULT 0 CHECK (packed >= 0);
ALTER TABLE order_lines ADD COLUMN shipped INTEGER NOT NULL DEFAULT 0
    CHECK (shipped >= 0 AND committed + packed + shipped <= units);
ALTER TABLE order_lines ADD COLUMN per_unit INTEGER;

-- A work order's product: units of part_no built at wid/spot for owner.
CREATE TABLE work_orders (
    order_id    INTEGER PRIMARY KEY REFERENCES orders (id),
    part_no     INTEGER NOT NULL REFERENCES items (part_no),
    units       INTEGER NOT NULL CHECK (units > 0),
    completed   INTEGER NOT NULL CHECK (completed >= 0 AND completed <= units),
    wid         INTEGER NOT NULL REFERENCES warehouses (wid),
    spot        TEXT NOT NULL,
    owner       INTEGER NOT NULL,
    start_date  INTEGER,
    assignee    TEXT NOT NULL,
    description TEXT NOT NULL
);
CREATE INDEX work_orders_part_no ON work_orders (part_no, order_id);

-- +goose Down
DROP TABLE work_orders;
ALTER TABLE order_lines DROP COLUMN per_unit;
ALTER TABLE order_lines DROP COLUMN shipped;
ALTER TABLE order_lines DROP COLUMN packed;
ALTER TABLE order_lines DROP COLUMN committed;
DROP TABLE allocations;
ALTER TABLE lots DROP COLUMN allocated;

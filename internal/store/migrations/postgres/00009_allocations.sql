-- +goose Up
-- Allocations: units of a lot promised to an order line (a shipping order's
-- line or a work order's component). committed are promised and not yet
-- packed, packed are packed and not yet shipped. A lot's allocated is the
-- sum over its allocations, changed in the same transaction, so a plain
-- draw takes only units - allocated and a commit never promises a unit
-- twice. A held lot has no allocation: the database refuses both.
ALTER TABLE lots ADD COLUMN allocated BIGINT NOT NULL DEFAULT 0;
ALTER TABLE lots ADD CONSTRAINT lots_allocated CHECK (allocated >= 0 AND allocated <= units AND (NOT hold OR allocated = 0));

CREATE TABLE allocations (
    order_id  BIGINT NOT NULL,
    line_no   INTEGER NOT NULL,
    rec_no    BIGINT NOT NULL REFERENCES lots (rec_no),
    committed BIGINT NOT NULL CHECK (committed >= 0),
    packed    BIGINT NOT NULL CHECK (packed >= 0),
    PRIMARY KEY (order_id, line_no, rec_no),
    FOREIGN KEY (order_id, line_no) REFERENCES order_lines (order_id, line_no),
    CHECK (committed + packed > 0)
);
CREATE INDEX allocations_lot ON allocations (rec_no);

-- Shipping order lines and work order components: units committed (held
-- by allocations, not packed), packed, and shipped (for a component:
-- consumed). per_unit is a component's units per unit of the product.
ALTER TABLE order_lines ADD COLUMN committed BIGINT NOT NULL DEFAULT 0 CHECK (committed >= 0);
ALTER TABLE order_lines ADD COLUMN packed BIGINT NOT NULL DEFAULT 0 CHECK (packed >= 0);
ALTER TABLE order_lines ADD COLUMN shipped BIGINT NOT NULL DEFAULT 0 CHECK (shipped >= 0);
ALTER TABLE order_lines ADD COLUMN per_unit BIGINT;
ALTER TABLE order_lines ADD CONSTRAINT order_lines_outbound CHECK (committed + packed + shipped <= units);

-- A work order's product: units of part_no built at wid/spot for owner.
CREATE TABLE work_orders (
    order_id    BIGINT PRIMARY KEY REFERENCES orders (id),
    part_no     BIGINT NOT NULL REFERENCES items (part_no),
    units       BIGINT NOT NULL CHECK (units > 0),
    completed   BIGINT NOT NULL CHECK (completed >= 0 AND completed <= units),
    wid         BIGINT NOT NULL REFERENCES warehouses (wid),
    spot        TEXT COLLATE "C" NOT NULL,
    owner       BIGINT NOT NULL,
    start_date  BIGINT,
    assignee    TEXT COLLATE "C" NOT NULL,
    description TEXT COLLATE "C" NOT NULL
);
CREATE INDEX work_orders_part_no ON work_orders (part_no, order_id);

-- +goose Down
DROP TABLE work_orders;
ALTER TABLE order_lines DROP CONSTRAINT order_lines_outbound;
ALTER TABLE order_lines DROP COLUMN per_unit;
ALTER TABLE order_lines DROP COLUMN shipped;
ALTER TABLE order_lines DROP COLUMN packed;
ALTER TABLE order_lines DROP COLUMN committed;
DROP TABLE allocations;
ALTER TABLE lots DROP CONSTRAINT lots_allocated;
ALTER TABLE lots DROP COLUMN allocated;

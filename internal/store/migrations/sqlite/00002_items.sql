-- +goose Up
-- partNo is an AUTOINCREMENT key: assigned by the database, never
-- reused, never changed. short_id_key is the case-folded ShortID (computed in
-- Go, the same for both engines); it is what is unique and what lists sort by.
CREATE TABLE items (
    part_no      INTEGER PRIMARY KEY AUTOINCREMENT,
    short_id     TEXT NOT NULL,
    short_id_key TEXT NOT NULL,
    description  TEXT NOT NULL,
    category     INTEGER NOT NULL,
    sub_category INTEGER NOT NULL,
    uom          TEXT NOT NULL,
    put_up       TEXT NOT NULL,
    units        INTEGER NOT NULL,
    dflt_owner   INTEGER NOT NULL,
    discontinued INTEGER NOT NULL,
    created      INTEGER NOT NULL,
    modified     INTEGER NOT NULL,
    created_by   TEXT NOT NULL
);
CREATE UNIQUE INDEX items_short_id_key ON items (short_id_key);
CREATE INDEX items_active_short_id_key ON items (short_id_key) WHERE NOT discontinued;
CREATE INDEX items_category ON items (category, short_id_key) WHERE NOT discontinued;
CREATE INDEX items_modified ON items (modified, part_no);

CREATE TABLE aliases (
    alias_key TEXT PRIMARY KEY,
    alias     TEXT NOT NULL,
    part_no   INTEGER NOT NULL REFERENCES items (part_no),
    created   INTEGER NOT NULL,
    modified  INTEGER NOT NULL
);
CREATE INDEX aliases_part_no ON aliases (part_no, alias_key);
CREATE INDEX aliases_modified ON aliases (modified, alias_key);

-- Row counts kept in the same transaction as each change, so totalCount of an
-- unfiltered list costs a few rows however large the table. Each count is
-- spread over shards so concurrent writers rarely wait on one row.
CREATE TABLE counters (
    name  TEXT NOT NULL,
    shard INTEGER NOT NULL,
    value INTEGER NOT NULL,
    PRIMARY KEY (name, shard)
);

-- +goose Down
DROP TABLE counters;
DROP TABLE aliases;
DROP TABLE items;

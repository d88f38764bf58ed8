-- +goose Up
-- partNo comes from an identity column: assigned by the database, never
-- reused, never changed. short_id_key is the case-folded ShortID (computed in
-- Go, the same for both engines); it is what is unique and what lists sort by.
CREATE TABLE items (
    part_no      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    short_id     TEXT COLLATE "C" NOT NULL,
    short_id_key TEXT COLLATE "C" NOT NULL,
    description  TEXT COLLATE "C" NOT NULL,
    category     BIGINT NOT NULL,
    sub_category BIGINT NOT NULL,
    uom          TEXT COLLATE "C" NOT NULL,
    put_up       TEXT COLLATE "C" NOT NULL,
    units        BIGINT NOT NULL,
    dflt_owner   BIGINT NOT NULL,
    discontinued BOOLEAN NOT NULL,
    created      BIGINT NOT NULL,
    modified     BIGINT NOT NULL,
    created_by   TEXT COLLATE "C" NOT NULL
);
CREATE UNIQUE INDEX items_short_id_key ON items (short_id_key);
CREATE INDEX items_active_short_id_key ON items (short_id_key) WHERE NOT discontinued;
CREATE INDEX items_category ON items (category, short_id_key) WHERE NOT discontinued;
CREATE INDEX items_modified ON items (modified, part_no);

CREATE TABLE aliases (
    alias_key TEXT COLLATE "C" PRIMARY KEY,
    alias     TEXT COLLATE "C" NOT NULL,
    part_no   BIGINT NOT NULL REFERENCES items (part_no),
    created   BIGINT NOT NULL,
    modified  BIGINT NOT NULL
);
CREATE INDEX aliases_part_no ON aliases (part_no, alias_key);
CREATE INDEX aliases_modified ON aliases (modified, alias_key);

-- Row counts kept in the same transaction as each change, so totalCount of an
-- unfiltered list costs a few rows however large the table. Each count is
-- spread over shards so concurrent writers rarely wait on one row.
CREATE TABLE counters (
    name  TEXT NOT NULL,
    shard INTEGER NOT NULL,
    value BIGINT NOT NULL,
    PRIMARY KEY (name, shard)
);

-- +goose Down
DROP TABLE counters;
DROP TABLE aliases;
DROP TABLE items;

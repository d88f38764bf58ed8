-- +goose Up
-- Timestamps are stored as microseconds since the Unix epoch (UTC) in both
-- engines, so the same SQL compares and orders them and values round-trip
-- exactly. Sortable text columns use the "C" collation, byte order, which is
-- what SQLite's BINARY collation does: both engines list in the same order
-- whatever the database's default collation.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE warehouses (
    wid      BIGINT PRIMARY KEY,
    name     TEXT COLLATE "C" NOT NULL,
    active   BOOLEAN NOT NULL DEFAULT TRUE,
    created  BIGINT NOT NULL,
    modified BIGINT NOT NULL
);

CREATE TABLE reason_codes (
    code        BIGINT PRIMARY KEY,
    description TEXT COLLATE "C" NOT NULL,
    direction   TEXT COLLATE "C" NOT NULL CHECK (direction IN ('receive', 'issue', 'any')),
    created     BIGINT NOT NULL
);

CREATE TABLE clients (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    secret_hash    TEXT NOT NULL,
    permissions    TEXT NOT NULL,
    all_warehouses BOOLEAN NOT NULL,
    read_only      BOOLEAN NOT NULL,
    enabled        BOOLEAN NOT NULL,
    created        BIGINT NOT NULL,
    modified       BIGINT NOT NULL
);

CREATE TABLE client_warehouses (
    client_id TEXT NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    wid       BIGINT NOT NULL REFERENCES warehouses (wid),
    PRIMARY KEY (client_id, wid)
);

-- Only the SHA-256 of each bearer token is kept.
CREATE TABLE tokens (
    hash      TEXT PRIMARY KEY,
    client_id TEXT NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    created   BIGINT NOT NULL,
    expires   BIGINT NOT NULL
);
CREATE INDEX tokens_client_expires ON tokens (client_id, expires);

-- +goose Down
DROP TABLE tokens;
DROP TABLE client_warehouses;
DROP TABLE clients;
DROP TABLE reason_codes;
DROP TABLE warehouses;
DROP TABLE meta;

-- +goose Up
-- Timestamps are stored as microseconds since the Unix epoch (UTC) in both
-- engines, so the same SQL compares and orders them and values round-trip
-- exactly.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE warehouses (
    wid      INTEGER PRIMARY KEY,
    name     TEXT NOT NULL,
    active   INTEGER NOT NULL DEFAULT 1,
    created  INTEGER NOT NULL,
    modified INTEGER NOT NULL
);

CREATE TABLE reason_codes (
    code        INTEGER PRIMARY KEY,
    description TEXT NOT NULL,
    direction   TEXT NOT NULL CHECK (direction IN ('receive', 'issue', 'any')),
    created     INTEGER NOT NULL
);

CREATE TABLE clients (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    secret_hash    TEXT NOT NULL,
    permissions    TEXT NOT NULL,
    all_warehouses INTEGER NOT NULL,
    read_only      INTEGER NOT NULL,
    enabled        INTEGER NOT NULL,
    created        INTEGER NOT NULL,
    modified       INTEGER NOT NULL
);

CREATE TABLE client_warehouses (
    client_id TEXT NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    wid       INTEGER NOT NULL REFERENCES warehouses (wid),
    PRIMARY KEY (client_id, wid)
);

-- Only the SHA-256 of each bearer token is kept.
CREATE TABLE tokens (
    hash      TEXT PRIMARY KEY,
    client_id TEXT NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    created   INTEGER NOT NULL,
    expires   INTEGER NOT NULL
);
CREATE INDEX tokens_client_expires ON tokens (client_id, expires);

-- +goose Down
DROP TABLE tokens;
DROP TABLE client_warehouses;
DROP TABLE clients;
DROP TABLE reason_codes;
DROP TABLE warehouses;
DROP TABLE meta;

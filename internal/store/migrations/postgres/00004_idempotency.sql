-- +goose Up
-- Idempotency keys of POST requests, per client. A claim is 'running' until
-- the response is stored ('done'); applied is set inside the very transaction
-- that carries out the request, so a crash between that commit and storing
-- the response can never lead to the request being applied twice.
CREATE TABLE idempotency_keys (
    client_id    TEXT COLLATE "C" NOT NULL,
    key          TEXT COLLATE "C" NOT NULL,
    request_hash TEXT NOT NULL,
    done         BOOLEAN NOT NULL,
    applied      BOOLEAN NOT NULL,
    lease_until  BIGINT NOT NULL,
    status       INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    location     TEXT NOT NULL,
    body         BYTEA NOT NULL,
    created      BIGINT NOT NULL,
    expires      BIGINT NOT NULL,
    PRIMARY KEY (client_id, key)
);
CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires);

-- +goose Down
DROP TABLE idempotency_keys;

-- +goose Up
-- Webhook subscriptions (contract §12). The delivery state lives here, not in
-- any instance: the feed position of the last event delivered (cursor_xid,
-- cursor_seq: an EventCursor), the failures in a row, when to try again, and
-- a lease (lease_owner, lease_until) that one instance takes with a
-- conditional UPDATE before delivering, so that each attempt is made by one
-- instance and an instance that dies hands the subscription on when its lease
-- runs out (store/webhookdelivery.go).
CREATE TABLE webhooks (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    client_id     TEXT NOT NULL,
    name          TEXT NOT NULL,
    url           TEXT NOT NULL,
    events        TEXT NOT NULL,
    payload_mode  INTEGER NOT NULL,
    secret        TEXT NOT NULL, -- kept as-is: it signs every delivery (webhook.NewSecret)
    disable_type  INTEGER NOT NULL DEFAULT 0,
    cursor_xid    INTEGER NOT NULL DEFAULT 0,
    cursor_seq    INTEGER NOT NULL DEFAULT 0,
    failure_count INTEGER NOT NULL DEFAULT 0,
    first_failure INTEGER,
    last_success  INTEGER,
    last_failure  INTEGER,
    last_error    TEXT NOT NULL DEFAULT '',
    next_attempt  INTEGER NOT NULL DEFAULT 0,
    lease_owner   TEXT,
    lease_until   INTEGER,
    created       INTEGER NOT NULL,
    modified      INTEGER NOT NULL
);
CREATE INDEX webhooks_client ON webhooks (client_id, id);

-- Every delivery attempt, kept 7 days.
CREATE TABLE webhook_deliveries (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook_id INTEGER NOT NULL,
    event_id   TEXT NOT NULL,
    event_type TEXT NOT NULL,
    attempt    INTEGER NOT NULL,
    time       INTEGER NOT NULL,
    success    INTEGER NOT NULL,
    status     INTEGER NOT NULL,
    duration   INTEGER NOT NULL, -- milliseconds
    error      TEXT NOT NULL
);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, id);
CREATE INDEX webhook_deliveries_time ON webhook_deliveries (time);

-- +goose Down
DROP TABLE webhook_deliveries;
DROP TABLE webhooks;

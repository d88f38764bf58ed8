-- +goose Up
-- Idempotency keys are claimed and answered inside the transaction of the
-- request they belong to, so a row exists only for an answered request: the
-- running/applied/lease columns go. A request that was applied but whose
-- answer was never stored keeps an answer saying so, so it is never applied
-- again; a claim that never applied anything is forgotten.
DELETE FROM idempotency_keys WHERE done = 0 AND applied = 0;
UPDATE idempotency_keys SET
    status = 409,
    content_type = 'application/json; charset=utf-8',
    location = '',
    body = CAST('{"statusCode":409,"error":"conflict","message":"A request with this Idempotency-Key was applied, but its response was lost; see GET /Inventory/Transactions.","details":null}' || char(10) AS BLOB)
WHERE done = 0;
ALTER TABLE idempotency_keys DROP COLUMN done;
ALTER TABLE idempotency_keys DROP COLUMN applied;
ALTER TABLE idempotency_keys DROP COLUMN lease_until;

-- available is kept by the database, beside the figures it derives from:
-- inStock - onHold - committed - packed, never below 0. Lists read and sort
-- by it, so it is computed in this one place.
ALTER TABLE stock_levels ADD COLUMN available INTEGER GENERATED ALWAYS AS
    (MAX(in_stock - on_hold - committed - packed, 0)) VIRTUAL;
ALTER TABLE stock_totals ADD COLUMN available INTEGER GENERATED ALWAYS AS
    (MAX(in_stock - on_hold - committed - packed, 0)) VIRTUAL;

-- +goose Down
ALTER TABLE stock_totals DROP COLUMN available;
ALTER TABLE stock_levels DROP COLUMN available;
ALTER TABLE idempotency_keys ADD COLUMN done INTEGER NOT NULL DEFAULT 1;
ALTER TABLE idempotency_keys ADD COLUMN applied INTEGER NOT NULL DEFAULT 1;
ALTER TABLE idempotency_keys ADD COLUMN lease_until INTEGER NOT NULL DEFAULT 0;

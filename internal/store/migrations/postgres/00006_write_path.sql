-- +goose Up
-- Idempotency keys are claimed and answered inside the transaction of the
-- request they belong to, so a row exists only for an answered request: the
-- running/applied/lease columns go. A request that was applied but whose
-- answer was never stored keeps an answer saying so, so it is never applied
-- again; a claim that never applied anything is forgotten.
DELETE FROM idempotency_keys WHERE NOT done AND NOT applied;
UPDATE idempotency_keys SET
    status = 409,
    content_type = 'application/json; charset=utf-8',
    location = '',
    body = convert_to('{"statusCode":409,"error":"conflict","message":"A request with this Idempotency-Key was applied, but its response was lost; see GET /Inventory/Transactions.","details":null}' || chr(10), 'UTF8')
WHERE NOT done;
ALTER TABLE idempotency_keys
    DROP COLUMN done,
    DROP COLUMN applied,
    DROP COLUMN lease_until;

-- available is kept by the database, beside the figures it derives from:
-- inStock - onHold - committed - packed, never below 0. Lists read and sort
-- by it, so it is computed in this one place.
ALTER TABLE stock_levels ADD COLUMN available BIGINT GENERATED ALWAYS AS
    (GREATEST(in_stock - on_hold - committed - packed, 0)) STORED;
ALTER TABLE stock_totals ADD COLUMN available BIGINT GENERATED ALWAYS AS
    (GREATEST(in_stock - on_hold - committed - packed, 0)) STORED;

-- +goose Down
ALTER TABLE stock_totals DROP COLUMN available;
ALTER TABLE stock_levels DROP COLUMN available;
ALTER TABLE idempotency_keys
    ADD COLUMN done BOOLEAN NOT NULL DEFAULT true,
    ADD COLUMN applied BOOLEAN NOT NULL DEFAULT true,
    ADD COLUMN lease_until BIGINT NOT NULL DEFAULT 0;

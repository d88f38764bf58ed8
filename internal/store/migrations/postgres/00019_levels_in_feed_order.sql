-- +goose Up
-- A level row's stocklevel.changed events must be in the feed's order
-- (xid, seq) in the order its changes were made, so that replaying the feed
-- gives the row's figures. A transaction takes its xid at its first write,
-- which may come before it waits for a level row that a younger transaction
-- (a higher xid) holds: when it then changes the row after the younger one
-- committed, its event would sort before the younger one's though its
-- figures come after. So each row of item, warehouse and owner (the rows
-- that have events) keeps in writer the highest xid of the transactions
-- that changed it, and its events take that xid (store.insertLevelEvent):
-- the older transaction's event sorts after the younger one's. The feed
-- still never skips: a reader returns an event of xid b only once every
-- transaction below b has ended, the one that wrote it among them.
ALTER TABLE levels ADD COLUMN writer XID8 NOT NULL DEFAULT '0';

-- +goose StatementBegin
CREATE FUNCTION levels_in_feed_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        NEW.writer := GREATEST(OLD.writer, pg_current_xact_id());
    ELSE
        NEW.writer := pg_current_xact_id();
    END IF;
    RETURN NEW;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER levels_in_feed_order BEFORE INSERT OR UPDATE ON levels
FOR EACH ROW WHEN (NEW.wid <> 0 AND NEW.owner <> -1)
EXECUTE FUNCTION levels_in_feed_order();

-- +goose Down
DROP TRIGGER levels_in_feed_order ON levels;
DROP FUNCTION levels_in_feed_order();
ALTER TABLE levels DROP COLUMN writer;

-- +goose Up
-- The column PostgreSQL's level rows keep the feed position of their events
-- in (the highest xid that changed the row; its migration of this version
-- says why). SQLite's one writer commits in the feed's order (seq) and its
-- xid is always 0, so here it stays 0: one statement appends a level's
-- event on both engines (store.insertLevelEvent).
ALTER TABLE levels ADD COLUMN writer INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE levels DROP COLUMN writer;

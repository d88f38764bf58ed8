-- +goose Up
-- The change feed (contract §12): every committed change appends its events
-- in its own transaction. SQLite has one writer, so the AUTOINCREMENT id is
-- commit order and is the feed's position (xid stays 0, kept so that both
-- engines read the same columns).
CREATE TABLE events (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    xid          INTEGER NOT NULL DEFAULT 0,
    type         TEXT NOT NULL,
    time         INTEGER NOT NULL,
    client_id    TEXT NOT NULL,
    wid          INTEGER NOT NULL, -- 0: an item's event, seen by its catalogue (owner)
    to_wid       INTEGER,
    owner        INTEGER NOT NULL,
    subject_kind TEXT NOT NULL,
    subject_id   TEXT NOT NULL,
    data         TEXT NOT NULL
);

-- The position of the last event pruned: a cursor before it is expired.
CREATE TABLE events_pruned (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    xid INTEGER NOT NULL,
    seq INTEGER NOT NULL
);
INSERT INTO events_pruned (id, xid, seq) VALUES (1, 0, 0);

-- +goose Down
DROP TABLE events_pruned;
DROP TABLE events;

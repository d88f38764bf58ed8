-- +goose Up
-- An item belongs to the catalogue of its dflt_owner (0: the house's). A
-- client limited to owners lists the items of its owners' catalogues and of
-- the house's only: one index scan per catalogue, in ShortID order, merged
-- (store.pageQuery's branches), and one kept count per catalogue
-- ("items:<owner>", "items_active:<owner>"), so its pages cost the same
-- however many items other owners have.
CREATE INDEX items_owner ON items (dflt_owner, short_id_key);
CREATE INDEX items_owner_active ON items (dflt_owner, short_id_key) WHERE NOT discontinued;
INSERT INTO counters (name, shard, value)
SELECT 'items:' || CAST(dflt_owner AS TEXT), 0, COUNT(*) FROM items GROUP BY dflt_owner;
INSERT INTO counters (name, shard, value)
SELECT 'items_active:' || CAST(dflt_owner AS TEXT), 0, COUNT(*) FROM items WHERE NOT discontinued GROUP BY dflt_owner;

-- +goose Down
DELETE FROM counters WHERE name LIKE 'items:%' OR name LIKE 'items_active:%';
DROP INDEX items_owner_active;
DROP INDEX items_owner;

package store

import (
	"context"

	"github.com/stockroom/stockroom"
)

const aliasColumns = `
	a.alias,
	a.part_no,
	i.short_id,
	a.created,
	a.modified`

const aliasFrom = `aliases a JOIN items i ON i.part_no = a.part_no`

var aliasSort = sortSpec{
	fields: map[string]string{
		"alias":    "a.alias_key",
		"partno":   "a.part_no",
		"shortid":  "i.short_id_key",
		"created":  "a.created",
		"modified": "a.modified",
	},
	defField: "alias",
	key:      "a.alias_key",
	modified: "a.modified",
}

func scanAlias(row scanner) (stockroom.Alias, error) {
	var (
		al                stockroom.Alias
		created, modified int64
	)
	err := row.Scan(&al.Alias, &al.PartNo, &al.ShortID, &created, &modified)
	al.Created, al.Modified = fromMicros(created), fromMicros(modified)
	return al, err
}

// CreateAlias points a new alias at the item with the given ShortID,
// recording key's answer in the same transaction. An unknown item is
// stockroom.ErrNotFound; an alias that exists in any letter case is
// stockroom.ErrDuplicate. al's PartNo and ShortID are filled in.
func (db *DB) CreateAlias(ctx context.Context, key *stockroom.IdempotencyKey, al *stockroom.Alias, itemShortID string) error {
	return db.update(ctx, key, func(tx *Tx) (any, error) {
		var found bool
		tx.queryRow(&found, `
			SELECT part_no, short_id
			FROM items
			WHERE short_id_key = $1`, []any{stockroom.FoldKey(itemShortID)}, &al.PartNo, &al.ShortID)
		if err := tx.flush(); err != nil {
			return nil, err
		}
		if !found {
			return nil, stockroom.ErrNotFound
		}
		tx.exec(`
			INSERT INTO aliases (alias_key, alias, part_no, created, modified)
			VALUES ($1, $2, $3, $4, $5)`,
			stockroom.FoldKey(al.Alias), al.Alias, al.PartNo, micros(al.Created), micros(al.Modified))
		if err := tx.flush(); err != nil {
			if isUniqueViolation(err) {
				return nil, stockroom.ErrDuplicate
			}
			return nil, err
		}
		return *al, nil
	})
}

// DeleteAlias removes an alias, found in any letter case, and returns it as it
// was. An unknown alias is stockroom.ErrNotFound.
func (db *DB) DeleteAlias(ctx context.Context, alias string) (stockroom.Alias, error) {
	var al stockroom.Alias
	err := db.updateNoResult(ctx, func(tx *Tx) error {
		var (
			found             bool
			created, modified int64
		)
		// The item's ShortID is read before the alias goes.
		tx.queryRow(new(bool), `
			SELECT i.short_id
			FROM aliases a
			JOIN items i ON i.part_no = a.part_no
			WHERE a.alias_key = $1`, []any{stockroom.FoldKey(alias)}, &al.ShortID)
		tx.queryRow(&found, `
			DELETE FROM aliases
			WHERE alias_key = $1
			RETURNING alias, part_no, created, modified`, []any{stockroom.FoldKey(alias)},
			&al.Alias, &al.PartNo, &created, &modified)
		if err := tx.flush(); err != nil {
			return err
		}
		if !found {
			return stockroom.ErrNotFound
		}
		al.Created, al.Modified = fromMicros(created), fromMicros(modified)
		return nil
	})
	return al, err
}

// ListAliases returns a page of aliases, of one item when itemShortID is set.
func (db *DB) ListAliases(ctx context.Context, itemShortID string, req stockroom.PageRequest) (stockroom.Page[stockroom.Alias], error) {
	q := pageQuery{from: aliasFrom, columns: aliasColumns, sort: aliasSort}
	if itemShortID != "" {
		q.where = append(q.where, "i.short_id_key = "+q.args.add(stockroom.FoldKey(itemShortID)))
	}
	return queryPage(ctx, db, q, req, scanAlias)
}

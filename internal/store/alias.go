package store

import (
	"context"
	"database/sql"
	"errors"

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

// CreateAlias points a new alias at the item with the given ShortID. It
// returns ENOTFOUND for an unknown item and ECONFLICT when the alias exists
// in any letter case. al's PartNo and ShortID are filled in.
func (db *DB) CreateAlias(ctx context.Context, al *stockroom.Alias, itemShortID string) error {
	return db.inWriteTx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `
			SELECT part_no, short_id
			FROM items
			WHERE short_id_key = $1`, stockroom.FoldKey(itemShortID)).Scan(&al.PartNo, &al.ShortID)
		if errors.Is(err, sql.ErrNoRows) {
			return notFoundItem("ShortID", quote(itemShortID))
		} else if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `
			INSERT INTO aliases (alias_key, alias, part_no, created, modified)
			VALUES ($1, $2, $3, $4, $5)`,
			stockroom.FoldKey(al.Alias), al.Alias, al.PartNo, micros(al.Created), micros(al.Modified))
		if isUniqueViolation(err) {
			return stockroom.Errorf(stockroom.ECONFLICT, "Alias %q already exists.", al.Alias)
		}
		return err
	})
}

// DeleteAlias removes an alias, found in any letter case, and returns it as it
// was. It returns ENOTFOUND for an unknown alias.
func (db *DB) DeleteAlias(ctx context.Context, alias string) (stockroom.Alias, error) {
	var al stockroom.Alias
	err := db.inWriteTx(ctx, func(tx *sql.Tx) error {
		var err error
		al, err = scanAlias(tx.QueryRowContext(ctx, `
			SELECT `+aliasColumns+`
			FROM `+aliasFrom+`
			WHERE a.alias_key = $1`, stockroom.FoldKey(alias)))
		if errors.Is(err, sql.ErrNoRows) {
			return stockroom.Errorf(stockroom.ENOTFOUND, "No alias %q.", alias)
		} else if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM aliases WHERE alias_key = $1`, stockroom.FoldKey(alias))
		return err
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

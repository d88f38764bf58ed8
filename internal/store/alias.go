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

// CreateAlias points a new alias at the item whose ShortID al.ShortID names
// (any letter case), recording key's answer and its alias.created event
// (under e) in the same transaction. An unknown item is
// stockroom.ErrNotFound; then check sees the item, locked, and may refuse;
// then an alias that exists in any letter case is stockroom.ErrDuplicate.
// al's PartNo and ShortID are set as stored.
func (db *DB) CreateAlias(ctx context.Context, key *stockroom.IdempotencyKey, al *stockroom.Alias, e stockroom.LedgerEntry, check func(stockroom.Item) error) error {
	return db.update(ctx, key, func(tx *Tx) (any, error) {
		var (
			found bool
			row   itemRow
		)
		tx.QueryRow(&found, `
			SELECT `+itemColumns+`
			FROM items
			WHERE short_id_key = $1`+tx.forUpdate(), []any{stockroom.FoldKey(al.ShortID)}, row.dest()...)
		if err := tx.Flush(); err != nil {
			return nil, err
		}
		if !found {
			return nil, stockroom.ErrNotFound
		}
		if err := check(row.value()); err != nil {
			return nil, err
		}
		al.PartNo, al.ShortID = row.item.PartNo, row.item.ShortID
		tx.Exec(`
			INSERT INTO aliases (alias_key, alias, part_no, created, modified)
			VALUES ($1, $2, $3, $4, $5)`,
			stockroom.FoldKey(al.Alias), al.Alias, al.PartNo, micros(al.Created), micros(al.Modified))
		if err := tx.Flush(); err != nil {
			if isUniqueViolation(err) {
				return nil, stockroom.ErrDuplicate
			}
			return nil, err
		}
		return *al, tx.aliasEvent(stockroom.EventAliasCreated, e, *al, row.item.DfltOwner)
	})
}

// DeleteAlias removes an alias, found in any letter case, and returns it as it
// was. An unknown alias is stockroom.ErrNotFound; check sees the alias's
// item, locked with the alias, and may refuse before it goes. Its
// alias.deleted event (under e) carries the alias as it was.
func (db *DB) DeleteAlias(ctx context.Context, alias string, e stockroom.LedgerEntry, check func(stockroom.Item) error) (stockroom.Alias, error) {
	var al stockroom.Alias
	err := db.updateNoResult(ctx, func(tx *Tx) error {
		var (
			found             bool
			row               itemRow
			created, modified int64
		)
		tx.QueryRow(&found, `
			SELECT a.alias, a.created, a.modified, `+prefixed("i", itemColumns)+`
			FROM aliases a
			JOIN items i ON i.part_no = a.part_no
			WHERE a.alias_key = $1`+tx.forUpdate(), []any{stockroom.FoldKey(alias)},
			append([]any{&al.Alias, &created, &modified}, row.dest()...)...)
		if err := tx.Flush(); err != nil {
			return err
		}
		if !found {
			return stockroom.ErrNotFound
		}
		if err := check(row.value()); err != nil {
			return err
		}
		al.PartNo, al.ShortID = row.item.PartNo, row.item.ShortID
		al.Created, al.Modified = fromMicros(created), fromMicros(modified)
		tx.Exec(`
			DELETE FROM aliases
			WHERE alias_key = $1`, stockroom.FoldKey(alias))
		if err := tx.aliasEvent(stockroom.EventAliasDeleted, e, al, row.item.DfltOwner); err != nil {
			return err
		}
		return tx.Flush()
	})
	return al, err
}

// ListAliases returns a page of aliases of the items of the catalogues
// given (nil: every one), of one item when itemShortID is set.
func (db *DB) ListAliases(ctx context.Context, itemShortID string, catalogues *stockroom.Scope, req stockroom.PageRequest) (stockroom.Page[stockroom.Alias], error) {
	q := pageQuery{from: aliasFrom, columns: aliasColumns, sort: aliasSort}
	if catalogues != nil {
		q.where = append(q.where, scopeCond("i.dflt_owner", *catalogues, &q.args))
	}
	if itemShortID != "" {
		q.where = append(q.where, "i.short_id_key = "+q.args.add(stockroom.FoldKey(itemShortID)))
	}
	return queryPage(ctx, db, q, req, scanAlias)
}

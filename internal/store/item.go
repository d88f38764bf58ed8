package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/stockroom/stockroom"
)

const itemColumns = `
	part_no,
	short_id,
	description,
	category,
	sub_category,
	uom,
	put_up,
	units,
	dflt_owner,
	discontinued,
	created,
	modified,
	created_by`

// itemSort lets lists sort by every item field. ShortIDs sort by their folded
// key, so "bolt" and "BOLT-2" sit together.
var itemSort = sortSpec{
	fields: map[string]string{
		"partno":       "part_no",
		"shortid":      "short_id_key",
		"description":  "description",
		"category":     "category",
		"categoryid":   "category",
		"subcategory":  "sub_category",
		"uom":          "uom",
		"unit":         "uom",
		"putup":        "put_up",
		"units":        "units",
		"dfltowner":    "dflt_owner",
		"discontinued": "discontinued",
		"active":       "(NOT discontinued)",
		"created":      "created",
		"modified":     "modified",
		"createdby":    "created_by",
	},
	defField: "shortid",
	key:      "part_no",
	unique:   []string{"short_id_key"},
	modified: "modified",
}

func scanItem(row scanner) (stockroom.Item, error) {
	var (
		it                stockroom.Item
		created, modified int64
	)
	err := row.Scan(&it.PartNo, &it.ShortID, &it.Description, &it.Category, &it.SubCategory, &it.UOM, &it.PutUp,
		&it.Units, &it.DfltOwner, &it.Discontinued, &created, &modified, &it.CreatedBy)
	it.Created, it.Modified = fromMicros(created), fromMicros(modified)
	return it, err
}

// itemInsertColumns are the columns a new item is written with: all but the
// database-assigned part_no.
const itemInsertColumns = `
	short_id,
	short_id_key,
	description,
	category,
	sub_category,
	uom,
	put_up,
	units,
	dflt_owner,
	discontinued,
	created,
	modified,
	created_by`

// itemValues adds an item's values for itemInsertColumns to a and returns
// their row of placeholders.
func itemValues(a *args, it stockroom.Item) string {
	return "(" + strings.Join([]string{
		a.add(it.ShortID), a.add(stockroom.FoldKey(it.ShortID)), a.add(it.Description), a.add(it.Category),
		a.add(it.SubCategory), a.add(it.UOM), a.add(it.PutUp), a.add(it.Units), a.add(it.DfltOwner),
		a.add(it.Discontinued), a.add(micros(it.Created)), a.add(micros(it.Modified)), a.add(it.CreatedBy),
	}, ", ") + ")"
}

// CreateItem stores a new item and sets its database-assigned PartNo. It
// returns ECONFLICT when the ShortID is taken in any letter case.
func (db *DB) CreateItem(ctx context.Context, it *stockroom.Item) error {
	return db.inWriteTx(ctx, func(tx *sql.Tx) error {
		var a args
		err := tx.QueryRowContext(ctx, `
			INSERT INTO items (`+itemInsertColumns+`)
			VALUES `+itemValues(&a, *it)+`
			RETURNING part_no`, a...).Scan(&it.PartNo)
		if isUniqueViolation(err) {
			return stockroom.Errorf(stockroom.ECONFLICT, "An item with ShortID %q already exists.", it.ShortID)
		} else if err != nil {
			return err
		}
		return addCounts(ctx, tx, delta{countItems, 1}, delta{countActiveItems, activeCount(it.Discontinued, 1)})
	})
}

// activeCount is how many of n items, all discontinued or all not, count as
// active.
func activeCount(discontinued bool, n int64) int64 {
	if discontinued {
		return 0
	}
	return n
}

// CreateItems stores many new items in one transaction, skipping any whose
// ShortID exists, and returns how many it stored. It is for loading data in
// bulk (the demo command); PartNos are not reported back.
func (db *DB) CreateItems(ctx context.Context, items []stockroom.Item) (int64, error) {
	if len(items) == 0 {
		return 0, nil
	}
	var (
		stored int64
		a      args
		rows   []string
	)
	for _, it := range items {
		rows = append(rows, itemValues(&a, it))
	}
	err := db.inWriteTx(ctx, func(tx *sql.Tx) error {
		stored = 0
		rs, err := tx.QueryContext(ctx, `
			INSERT INTO items (`+itemInsertColumns+`)
			VALUES `+strings.Join(rows, ",\n")+`
			ON CONFLICT (short_id_key) DO NOTHING
			RETURNING discontinued`, a...)
		if err != nil {
			return err
		}
		var active int64
		for rs.Next() {
			var disc bool
			if err := rs.Scan(&disc); err != nil {
				rs.Close()
				return err
			}
			stored++
			active += activeCount(disc, 1)
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return err
		}
		return addCounts(ctx, tx, delta{countItems, stored}, delta{countActiveItems, active})
	})
	return stored, err
}

func notFoundItem(what string, v any) error {
	return stockroom.Errorf(stockroom.ENOTFOUND, "No item with %s %v.", what, v)
}

// FindItem returns the item with the given PartNo, or ENOTFOUND.
func (db *DB) FindItem(ctx context.Context, partNo int64) (stockroom.Item, error) {
	return queryOne(ctx, db, notFoundItem("partNo", partNo), scanItem, `
		SELECT `+itemColumns+`
		FROM items
		WHERE part_no = $1`, partNo)
}

// FindItemByShortID returns the item with the given ShortID in any letter
// case, or ENOTFOUND.
func (db *DB) FindItemByShortID(ctx context.Context, shortID string) (stockroom.Item, error) {
	return queryOne(ctx, db, notFoundItem("ShortID", quote(shortID)), scanItem, `
		SELECT `+itemColumns+`
		FROM items
		WHERE short_id_key = $1`, stockroom.FoldKey(shortID))
}

// FindItemByAlias returns the item an alias points to, or ENOTFOUND.
func (db *DB) FindItemByAlias(ctx context.Context, alias string) (stockroom.Item, error) {
	return queryOne(ctx, db, notFoundItem("alias", quote(alias)), scanItem, `
		SELECT `+prefixed("i", itemColumns)+`
		FROM aliases a
		JOIN items i ON i.part_no = a.part_no
		WHERE a.alias_key = $1`, stockroom.FoldKey(alias))
}

func quote(s string) string { return `"` + s + `"` }

// prefixed qualifies each column of a column list with a table alias.
func prefixed(alias, columns string) string {
	cols := strings.Split(columns, ",")
	for i, c := range cols {
		cols[i] = alias + "." + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}

// UpdateItem locks the item with the given ShortID, lets fn change it, and
// stores the result if fn reports a change. It returns the item as stored, or
// ENOTFOUND.
func (db *DB) UpdateItem(ctx context.Context, shortID string, fn func(*stockroom.Item) (bool, error)) (stockroom.Item, error) {
	var it stockroom.Item
	err := db.inWriteTx(ctx, func(tx *sql.Tx) error {
		var err error
		it, err = scanItem(tx.QueryRowContext(ctx, `
			SELECT `+itemColumns+`
			FROM items
			WHERE short_id_key = $1`+db.forUpdate(), stockroom.FoldKey(shortID)))
		if errors.Is(err, sql.ErrNoRows) {
			return notFoundItem("ShortID", quote(shortID))
		} else if err != nil {
			return err
		}
		wasActive := !it.Discontinued
		changed, err := fn(&it)
		if err != nil || !changed {
			return err
		}
		if _, err := tx.ExecContext(ctx, `
			UPDATE items SET
				description = $2,
				category = $3,
				sub_category = $4,
				uom = $5,
				put_up = $6,
				units = $7,
				dflt_owner = $8,
				discontinued = $9,
				modified = $10
			WHERE part_no = $1`,
			it.PartNo, it.Description, it.Category, it.SubCategory, it.UOM, it.PutUp, it.Units, it.DfltOwner,
			it.Discontinued, micros(it.Modified)); err != nil {
			return err
		}
		switch {
		case wasActive && it.Discontinued:
			return addCounts(ctx, tx, delta{countActiveItems, -1})
		case !wasActive && !it.Discontinued:
			return addCounts(ctx, tx, delta{countActiveItems, 1})
		}
		return nil
	})
	return it, err
}

// ListItems returns a page of items: active ones only, or all.
func (db *DB) ListItems(ctx context.Context, activeOnly bool, req stockroom.PageRequest) (stockroom.Page[stockroom.Item], error) {
	q := pageQuery{from: "items", columns: itemColumns, sort: itemSort, counters: []string{countItems}}
	if activeOnly {
		q.where = append(q.where, "NOT discontinued")
		q.counters = []string{countActiveItems}
	}
	return queryPage(ctx, db, q, req, scanItem)
}

// ListItemsInCategory returns every active item of a category in ShortID
// order.
func (db *DB) ListItemsInCategory(ctx context.Context, category int64) ([]stockroom.Item, error) {
	rows, err := db.read.QueryContext(ctx, `
		SELECT `+itemColumns+`
		FROM items
		WHERE category = $1 AND NOT discontinued
		ORDER BY short_id_key`, category)
	if err != nil {
		return nil, db.classify(err)
	}
	defer rows.Close()
	items := []stockroom.Item{}
	for rows.Next() {
		it, err := scanItem(rows)
		if err != nil {
			return nil, db.classify(err)
		}
		items = append(items, it)
	}
	return items, db.classify(rows.Err())
}

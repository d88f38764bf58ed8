package store

import (
	"context"

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

// itemRow receives an item as itemColumns lists it.
type itemRow struct {
	item              stockroom.Item
	created, modified int64
}

func (r *itemRow) dest() []any {
	it := &r.item
	return []any{&it.PartNo, &it.ShortID, &it.Description, &it.Category, &it.SubCategory, &it.UOM, &it.PutUp,
		&it.Units, &it.DfltOwner, &it.Discontinued, &r.created, &r.modified, &it.CreatedBy}
}

func (r *itemRow) value() stockroom.Item {
	it := r.item
	it.Created, it.Modified = fromMicros(r.created), fromMicros(r.modified)
	return it
}

func scanItem(row scanner) (stockroom.Item, error) {
	var r itemRow
	err := row.Scan(r.dest()...)
	return r.value(), err
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

// itemValues lists an item's values for itemInsertColumns, in order.
func itemValues(it stockroom.Item) []any {
	return []any{it.ShortID, stockroom.FoldKey(it.ShortID), it.Description, it.Category, it.SubCategory, it.UOM,
		it.PutUp, it.Units, it.DfltOwner, it.Discontinued, micros(it.Created), micros(it.Modified), it.CreatedBy}
}

// itemValueCount is the number of itemInsertColumns.
var itemValueCount = len(itemValues(stockroom.Item{}))

// CreateItem stores a new item and sets its database-assigned PartNo,
// recording key's answer and its item.created event in the same
// transaction. A ShortID taken in any letter case is stockroom.ErrDuplicate.
func (db *DB) CreateItem(ctx context.Context, key *stockroom.IdempotencyKey, it *stockroom.Item) error {
	return db.update(ctx, key, func(tx *Tx) (any, error) {
		var partNo int64
		tx.QueryRow(nil, `
			INSERT INTO items (`+itemInsertColumns+`)
			VALUES (`+params(1, itemValueCount)+`)
			RETURNING part_no`, itemValues(*it), &partNo)
		if err := tx.Flush(); err != nil {
			if isUniqueViolation(err) {
				return nil, stockroom.ErrDuplicate
			}
			return nil, err
		}
		it.PartNo = partNo
		counts := countChanges{}
		counts.item(it.DfltOwner, it.Discontinued, 1)
		tx.addCounts(counts)
		return *it, tx.itemEvent(stockroom.EventItemCreated, stockroom.LedgerEntry{ClientID: it.CreatedBy, Time: it.Created}, *it)
	})
}

// CreateItems stores many new items in one transaction, skipping any whose
// ShortID exists, and returns how many it stored, each with its
// item.created event, and mark, when not nil, the record of the import
// they are rows of (Tx.markImport). It is for loading data in bulk (the
// demo command, an import); PartNos are not reported back.
func (db *DB) CreateItems(ctx context.Context, items []stockroom.Item, mark *stockroom.ImportMark) (int64, error) {
	var stored int64
	err := db.updateNoResult(ctx, func(tx *Tx) error {
		stored = 0
		counts := countChanges{}
		var created []stockroom.Item
		// Rows per statement stay within PostgreSQL's 65,535 parameters.
		const perStatement = 1000
		for start := 0; start < len(items); start += perStatement {
			chunk := items[start:min(start+perStatement, len(items))]
			values := make([]string, len(chunk))
			var args []any
			for i, it := range chunk {
				values[i] = "(" + params(len(args)+1, len(args)+itemValueCount) + ")"
				args = append(args, itemValues(it)...)
			}
			tx.Query(func(r rows) error {
				for r.Next() {
					it, err := scanItem(r)
					if err != nil {
						return err
					}
					stored++
					counts.item(it.DfltOwner, it.Discontinued, 1)
					created = append(created, it)
				}
				return nil
			}, `
				INSERT INTO items (`+itemInsertColumns+`)
				VALUES `+strings.Join(values, ",\n")+`
				ON CONFLICT (short_id_key) DO NOTHING
				RETURNING `+itemColumns, args...)
		}
		if err := tx.Flush(); err != nil {
			return err
		}
		tx.addCounts(counts)
		for _, it := range created {
			if err := tx.itemEvent(stockroom.EventItemCreated, stockroom.LedgerEntry{ClientID: it.CreatedBy, Time: it.Created}, it); err != nil {
				return err
			}
		}
		return tx.markImport(mark)
	})
	return stored, err
}

// FindItem returns the item with the given PartNo, or stockroom.ErrNotFound.
func (db *DB) FindItem(ctx context.Context, partNo int64) (stockroom.Item, error) {
	return queryOne(ctx, db, scanItem, `
		SELECT `+itemColumns+`
		FROM items
		WHERE part_no = $1`, partNo)
}

// FindItemByShortID returns the item with the given ShortID in any letter
// case, or stockroom.ErrNotFound.
func (db *DB) FindItemByShortID(ctx context.Context, shortID string) (stockroom.Item, error) {
	return queryOne(ctx, db, scanItem, `
		SELECT `+itemColumns+`
		FROM items
		WHERE short_id_key = $1`, stockroom.FoldKey(shortID))
}

// FindItemByAlias returns the item an alias points to, or
// stockroom.ErrNotFound.
func (db *DB) FindItemByAlias(ctx context.Context, alias string) (stockroom.Item, error) {
	return queryOne(ctx, db, scanItem, `
		SELECT `+prefixed("i", itemColumns)+`
		FROM aliases a
		JOIN items i ON i.part_no = a.part_no
		WHERE a.alias_key = $1`, stockroom.FoldKey(alias))
}

// prefixed qualifies each column of a column list with a table alias.
func prefixed(alias, columns string) string {
	cols := strings.Split(columns, ",")
	for i, c := range cols {
		cols[i] = alias + "." + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}

// UpdateItem locks the item with the given ShortID, lets fn change it, and
// stores the result if fn reports a change, with its events
// (itemChangeEvents) under e. It returns the item as stored, or
// stockroom.ErrNotFound.
func (db *DB) UpdateItem(ctx context.Context, shortID string, e stockroom.LedgerEntry, fn func(*stockroom.Item) (bool, error)) (stockroom.Item, error) {
	var it stockroom.Item
	err := db.updateNoResult(ctx, func(tx *Tx) error {
		var (
			found bool
			row   itemRow
		)
		tx.QueryRow(&found, `
			SELECT `+itemColumns+`
			FROM items
			WHERE short_id_key = $1`+tx.forUpdate(), []any{stockroom.FoldKey(shortID)}, row.dest()...)
		if err := tx.Flush(); err != nil {
			return err
		}
		if !found {
			return stockroom.ErrNotFound
		}
		it = row.value()
		was := it
		changed, err := fn(&it)
		if err != nil || !changed {
			return err
		}
		tx.Exec(`
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
			it.Discontinued, micros(it.Modified))
		counts := countChanges{}
		counts.item(was.DfltOwner, was.Discontinued, -1)
		counts.item(it.DfltOwner, it.Discontinued, 1)
		tx.addCounts(counts)
		for _, typ := range itemChangeEvents(was, it) {
			if err := tx.itemEvent(typ, e, it); err != nil {
				return err
			}
		}
		return nil
	})
	return it, err
}

// ListItems returns a page of items, active ones only or all, of the
// catalogues given (their dfltOwner; nil: every one). Each catalogue's
// items are read from its own index (items_owner, items_owner_active) and
// counted by its own counter, so a page costs the same however many items
// the catalogues left out have.
func (db *DB) ListItems(ctx context.Context, activeOnly bool, catalogues *stockroom.Scope, req stockroom.PageRequest) (stockroom.Page[stockroom.Item], error) {
	q := pageQuery{from: "items", columns: itemColumns, sort: itemSort, counters: []string{countItems}}
	if activeOnly {
		q.where = append(q.where, "NOT discontinued")
		q.counters = []string{countActiveItems}
	}
	if catalogues != nil && !catalogues.All {
		q.counters = nil
		for _, owner := range catalogues.IDs {
			q.branches = append(q.branches, "dflt_owner = "+q.args.add(owner))
			q.counters = append(q.counters, itemCounter(owner, activeOnly))
		}
		if len(q.branches) == 0 {
			q.where = append(q.where, "1 = 0")
		}
	}
	return queryPage(ctx, db, q, req, scanItem)
}

// ListItemsInCategory returns every active item of a category, of the
// catalogues given (nil: every one), in ShortID order.
func (db *DB) ListItemsInCategory(ctx context.Context, category int64, catalogues *stockroom.Scope) ([]stockroom.Item, error) {
	a := args{category}
	where := []string{"category = $1", "NOT discontinued"}
	if catalogues != nil {
		where = append(where, scopeCond("dflt_owner", *catalogues, &a))
	}
	rows, err := db.read.QueryContext(ctx, `
		SELECT `+itemColumns+`
		FROM items`+whereOf(where)+`
		ORDER BY short_id_key`, a...)
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

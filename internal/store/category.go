package store

import (
	"context"

	"github.com/stockroom/stockroom"
)

const categoryColumns = `
	id,
	name,
	description,
	active,
	created,
	modified`

var categorySort = sortSpec{
	fields: map[string]string{
		"categoryid":  "id",
		"name":        "name",
		"description": "description",
		"active":      "active",
		"created":     "created",
		"modified":    "modified",
	},
	defField: "categoryid",
	key:      "id",
	modified: "modified",
}

// categoryRow receives a category as categoryColumns lists it.
type categoryRow struct {
	c                 stockroom.Category
	created, modified int64
}

func (r *categoryRow) dest() []any {
	return []any{&r.c.CategoryID, &r.c.Name, &r.c.Description, &r.c.Active, &r.created, &r.modified}
}

func (r *categoryRow) value() stockroom.Category {
	c := r.c
	c.Created, c.Modified = fromMicros(r.created), fromMicros(r.modified)
	return c
}

func scanCategory(row scanner) (stockroom.Category, error) {
	var r categoryRow
	err := row.Scan(r.dest()...)
	return r.value(), err
}

// FindCategory returns the category with an id, whatever its state, or
// stockroom.ErrNotFound.
func (db *DB) FindCategory(ctx context.Context, id int64) (stockroom.Category, error) {
	return queryOne(ctx, db, scanCategory, `
		SELECT `+categoryColumns+`
		FROM categories
		WHERE id = $1`, id)
}

// ListCategories returns a page of categories: active ones only, or all.
func (db *DB) ListCategories(ctx context.Context, activeOnly bool, req stockroom.PageRequest) (stockroom.Page[stockroom.Category], error) {
	q := pageQuery{from: "categories", columns: categoryColumns, sort: categorySort}
	if activeOnly {
		q.where = append(q.where, "active")
	}
	return queryPage(ctx, db, q, req, scanCategory)
}

// CreateCategory stores a new category, recording key's answer in the same
// transaction. A CategoryID of 0 takes the next id after the largest, and
// is set; a given one that exists is stockroom.ErrDuplicate. When the next
// id would pass stockroom.MaxCategoryID, nothing is stored and the answer
// is stockroom.ErrNoCategoryID.
func (db *DB) CreateCategory(ctx context.Context, key *stockroom.IdempotencyKey, c *stockroom.Category) error {
	return db.update(ctx, key, func(tx *Tx) (any, error) {
		if c.CategoryID != 0 {
			tx.Exec(`
				INSERT INTO categories (id, name, description, active, created, modified)
				VALUES ($1, $2, $3, $4, $5, $6)`,
				c.CategoryID, c.Name, c.Description, c.Active, micros(c.Created), micros(c.Modified))
			if err := tx.Flush(); err != nil {
				if isUniqueViolation(err) {
					return nil, stockroom.ErrDuplicate
				}
				return nil, err
			}
			return *c, nil
		}
		id, err := insertNextCategory(tx, *c)
		if err != nil {
			return nil, err
		}
		if id > stockroom.MaxCategoryID {
			return nil, stockroom.ErrNoCategoryID // the transaction, and the row, roll back
		}
		c.CategoryID = id
		return *c, nil
	})
}

// insertNextCategory inserts c under the next id after the largest and
// returns that id. Two transactions may read the same largest id on
// PostgreSQL: the second's insert waits for the first and, once it has
// committed, does nothing; the statement then runs again in the same
// transaction, whose next statement sees the committed row (READ
// COMMITTED). SQLite's writers exclude each other: one run always does.
func insertNextCategory(tx *Tx, c stockroom.Category) (int64, error) {
	for {
		var (
			id    int64
			found bool
		)
		// WHERE TRUE keeps SQLite from reading ON CONFLICT as a join's ON.
		tx.QueryRow(&found, `
			INSERT INTO categories (id, name, description, active, created, modified)
			SELECT COALESCE(MAX(id), 0) + 1, $1, $2, $3, $4, $5
			FROM categories
			WHERE TRUE
			ON CONFLICT (id) DO NOTHING
			RETURNING id`,
			[]any{c.Name, c.Description, c.Active, micros(c.Created), micros(c.Modified)}, &id)
		// A run that inserted nothing goes round again; a flush refuses
		// once the transaction's time is up, which ends the loop.
		if err := tx.Flush(); err != nil || found {
			return id, err
		}
	}
}

// CreateCategories stores the categories whose ids do not exist yet, in one
// transaction, and returns how many it stored. It is for loading data in
// bulk (the demo command).
func (db *DB) CreateCategories(ctx context.Context, cs []stockroom.Category) (int64, error) {
	var stored int64
	err := db.updateNoResult(ctx, func(tx *Tx) error {
		stored = 0
		for _, c := range cs {
			tx.Query(func(r rows) error {
				for r.Next() {
					stored++
				}
				return nil
			}, `
				INSERT INTO categories (id, name, description, active, created, modified)
				VALUES ($1, $2, $3, $4, $5, $6)
				ON CONFLICT (id) DO NOTHING
				RETURNING id`,
				c.CategoryID, c.Name, c.Description, c.Active, micros(c.Created), micros(c.Modified))
		}
		return tx.Flush()
	})
	return stored, err
}

// UpdateCategory locks the category with an id, lets fn change it, and
// stores the result if fn reports a change. It returns the category as
// stored, or stockroom.ErrNotFound.
func (db *DB) UpdateCategory(ctx context.Context, id int64, fn func(*stockroom.Category) (bool, error)) (stockroom.Category, error) {
	var c stockroom.Category
	err := db.updateNoResult(ctx, func(tx *Tx) error {
		var (
			found bool
			row   categoryRow
		)
		tx.QueryRow(&found, `
			SELECT `+categoryColumns+`
			FROM categories
			WHERE id = $1`+tx.forUpdate(), []any{id}, row.dest()...)
		if err := tx.Flush(); err != nil {
			return err
		}
		if !found {
			return stockroom.ErrNotFound
		}
		c = row.value()
		changed, err := fn(&c)
		if err != nil || !changed {
			return err
		}
		tx.Exec(`
			UPDATE categories SET
				name = $2,
				description = $3,
				active = $4,
				modified = $5
			WHERE id = $1`,
			c.CategoryID, c.Name, c.Description, c.Active, micros(c.Modified))
		return nil
	})
	return c, err
}

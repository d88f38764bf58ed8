package store

import (
	"context"

	"github.com/stockroom/stockroom"
)

const warehouseColumns = `
	wid,
	name,
	active,
	created,
	modified`

var warehouseSort = sortSpec{
	fields:   map[string]string{"wid": "wid", "name": "name", "active": "active"},
	defField: "wid",
	key:      "wid",
}

func scanWarehouse(row scanner) (stockroom.Warehouse, error) {
	var (
		w                 stockroom.Warehouse
		created, modified int64
	)
	err := row.Scan(&w.ID, &w.Name, &w.Active, &created, &modified)
	w.Created, w.Modified = fromMicros(created), fromMicros(modified)
	return w, err
}

// CreateWarehouse stores a new warehouse. It returns ECONFLICT when the id is
// taken.
func (db *DB) CreateWarehouse(ctx context.Context, w stockroom.Warehouse) error {
	return db.updateNoResult(ctx, func(tx *Tx) error {
		tx.insertWarehouse(w, false)
		err := tx.Flush()
		if isUniqueViolation(err) {
			return stockroom.ErrDuplicate
		}
		return err
	})
}

// insertWarehouse queues the insertion of w. keepExisting leaves a warehouse
// with the same id as it is.
func (t *Tx) insertWarehouse(w stockroom.Warehouse, keepExisting bool) {
	t.Exec(`
		INSERT INTO warehouses (`+warehouseColumns+`)
		VALUES ($1, $2, $3, $4, $5)`+onConflictNothing("wid", keepExisting),
		w.ID, w.Name, w.Active, micros(w.Created), micros(w.Modified))
}

// FindWarehouse returns the warehouse wid, active or not, or
// stockroom.ErrNotFound.
func (db *DB) FindWarehouse(ctx context.Context, wid int64) (stockroom.Warehouse, error) {
	return queryOne(ctx, db, scanWarehouse, `
		SELECT `+warehouseColumns+`
		FROM warehouses
		WHERE wid = $1`, wid)
}

// ListWarehouses returns a page of the warehouses in scope.
func (db *DB) ListWarehouses(ctx context.Context, scope stockroom.Scope, req stockroom.PageRequest) (stockroom.Page[stockroom.Warehouse], error) {
	q := pageQuery{from: "warehouses", columns: warehouseColumns, sort: warehouseSort}
	q.where = append(q.where, scopeCond("wid", scope, &q.args))
	return queryPage(ctx, db, q, req, scanWarehouse)
}

// UpdateWarehouse locks the warehouse wid, lets fn change it, and stores its
// name, active flag and modification time if fn reports a change. It returns
// the warehouse as stored, or stockroom.ErrNotFound. Warehouses are never
// removed: deactivating one keeps it, its stock and its history.
func (db *DB) UpdateWarehouse(ctx context.Context, wid int64, fn func(*stockroom.Warehouse) (bool, error)) (stockroom.Warehouse, error) {
	var w stockroom.Warehouse
	err := db.updateNoResult(ctx, func(tx *Tx) error {
		found := false
		tx.Query(func(r rows) error {
			if !r.Next() {
				return r.Err()
			}
			var err error
			found = true
			w, err = scanWarehouse(r)
			return err
		}, `
			SELECT `+warehouseColumns+`
			FROM warehouses
			WHERE wid = $1`+tx.forUpdate(), wid)
		if err := tx.Flush(); err != nil {
			return err
		}
		if !found {
			return stockroom.ErrNotFound
		}
		changed, err := fn(&w)
		if err != nil || !changed {
			return err
		}
		tx.Exec(`
			UPDATE warehouses SET
				name = $2,
				active = $3,
				modified = $4
			WHERE wid = $1`, w.ID, w.Name, w.Active, micros(w.Modified))
		return nil
	})
	return w, err
}

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
		err := tx.flush()
		if isUniqueViolation(err) {
			return stockroom.ErrDuplicate
		}
		return err
	})
}

// insertWarehouse queues the insertion of w. keepExisting leaves a warehouse
// with the same id as it is.
func (t *Tx) insertWarehouse(w stockroom.Warehouse, keepExisting bool) {
	t.exec(`
		INSERT INTO warehouses (`+warehouseColumns+`)
		VALUES ($1, $2, $3, $4, $5)`+onConflictNothing("wid", keepExisting),
		w.ID, w.Name, w.Active, micros(w.Created), micros(w.Modified))
}

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

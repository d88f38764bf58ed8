package store

import (
	"context"
	"database/sql"

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
	return db.inWriteTx(ctx, func(tx *sql.Tx) error {
		return insertWarehouse(ctx, tx, w, false)
	})
}

// insertWarehouse stores w. keepExisting leaves a warehouse with the same id
// as it is instead of returning ECONFLICT.
func insertWarehouse(ctx context.Context, q querier, w stockroom.Warehouse, keepExisting bool) error {
	_, err := q.ExecContext(ctx, `
		INSERT INTO warehouses (`+warehouseColumns+`)
		VALUES ($1, $2, $3, $4, $5)`+onConflictNothing("wid", keepExisting),
		w.ID, w.Name, w.Active, micros(w.Created), micros(w.Modified))
	if isUniqueViolation(err) {
		return stockroom.Errorf(stockroom.ECONFLICT, "Warehouse %d already exists.", w.ID)
	}
	return err
}

// FindWarehouse returns one warehouse, or ENOTFOUND.
func (db *DB) FindWarehouse(ctx context.Context, wid int64) (stockroom.Warehouse, error) {
	return queryOne(ctx, db, stockroom.Errorf(stockroom.ENOTFOUND, "Warehouse %d does not exist.", wid), scanWarehouse, `
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

package store

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"

	"github.com/stockroom/stockroom"
)

// receiptState is what decides whether receiveLot makes a receipt's lot:
// its item, its warehouse and its owner as they are.
type receiptState struct {
	discontinued, warehouseActive, ownerActive bool
	dfltOwner                                  int64
}

// refusal is the refusal receiveLot's conditions give r in state s, nil
// when it makes the lot. A default owner taken from a stale item comes
// first, so the caller asks again with the item's current one.
func (s receiptState) refusal(r stockroom.Receipt) error {
	switch {
	case r.OwnerIsDefault && s.dfltOwner != r.Owner:
		return stockroom.ErrDefaultOwnerChanged
	case s.discontinued:
		return stockroom.ErrDiscontinued
	case !s.warehouseActive:
		return stockroom.ErrWarehouseInactive
	case r.Owner != stockroom.HouseOwner && !s.ownerActive:
		return stockroom.ErrOwnerInactive
	}
	return nil
}

// ReceiptRefusals judges receipts, none against a purchase order line, as
// receiveLot would judge them on the database as it is now, writing
// nothing (an import checks every row before it writes one, contract §15):
// for each, nil or the refusal it would meet (receiptState.refusal), or
// stockroom.ErrNotFound for an item or warehouse that does not exist.
func (db *DB) ReceiptRefusals(ctx context.Context, rs []stockroom.Receipt) ([]error, error) {
	items := map[int64]*receiptState{} // nil: not found
	owners := map[int64]bool{}
	for _, r := range rs {
		items[r.PartNo] = nil
		if r.Owner != stockroom.HouseOwner {
			owners[r.Owner] = false
		}
	}
	err := db.readByID(ctx, slices.Collect(maps.Keys(items)), `SELECT part_no, discontinued, dflt_owner FROM items WHERE part_no IN (%s)`, func(r *sql.Rows) error {
		var (
			partNo int64
			s      receiptState
		)
		err := r.Scan(&partNo, &s.discontinued, &s.dfltOwner)
		items[partNo] = &s
		return err
	})
	if err == nil {
		err = db.readByID(ctx, slices.Collect(maps.Keys(owners)), `SELECT id FROM parties WHERE kind = 'customer' AND active AND id IN (%s)`, func(r *sql.Rows) error {
			var id int64
			err := r.Scan(&id)
			owners[id] = true
			return err
		})
	}
	warehouses := map[int64]bool{}
	if err == nil {
		err = db.readRows(ctx, `SELECT wid, active FROM warehouses`, nil, func(r *sql.Rows) error {
			var (
				wid    int64
				active bool
			)
			err := r.Scan(&wid, &active)
			warehouses[wid] = active
			return err
		})
	}
	if err != nil {
		return nil, err
	}
	out := make([]error, len(rs))
	for i, r := range rs {
		item := items[r.PartNo]
		active, known := warehouses[r.WID]
		if item == nil || !known {
			out[i] = stockroom.ErrNotFound
			continue
		}
		s := *item
		s.warehouseActive, s.ownerActive = active, owners[r.Owner]
		out[i] = s.refusal(r)
	}
	return out, nil
}

// idsPerQuery is how many ids readByID puts in one statement, well within
// either engine's limit of parameters.
const idsPerQuery = 500

// readByID runs query, whose %s is a list of placeholders, on the read
// pool for ids, idsPerQuery at a time, and scans every row with scan.
func (db *DB) readByID(ctx context.Context, ids []int64, query string, scan func(*sql.Rows) error) error {
	for start := 0; start < len(ids); start += idsPerQuery {
		chunk := ids[start:min(start+idsPerQuery, len(ids))]
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		if err := db.readRows(ctx, fmt.Sprintf(query, params(1, len(chunk))), args, scan); err != nil {
			return err
		}
	}
	return nil
}

// readRows runs one query on the read pool and scans its every row.
func (db *DB) readRows(ctx context.Context, query string, args []any, scan func(*sql.Rows) error) error {
	rows, err := db.read.QueryContext(ctx, query, args...)
	if err != nil {
		return db.classify(err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return db.classify(rows.Err())
}

package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/stockroom/stockroom"
)

const lotColumns = `
	l.rec_no,
	l.part_no,
	i.short_id,
	i.description,
	l.associate,
	w.name,
	l.wid,
	l.spot,
	l.units,
	l.received,
	l.shipped,
	l.serial,
	l.serial2,
	l.rfid_tag,
	l.remark,
	l.hold,
	l.job_id,
	l.active,
	l.modified,
	l.reference,
	l.net_weight,
	l.gross_weight,
	l.price,
	l.expires,
	l.supplier,
	l.line`

const lotFrom = `lots l
	JOIN items i ON i.part_no = l.part_no
	JOIN warehouses w ON w.wid = l.wid`

var lotSort = sortSpec{
	fields: map[string]string{
		"recno":       "l.rec_no",
		"partno":      "l.part_no",
		"shortid":     "i.short_id_key",
		"description": "i.description",
		"associate":   "l.associate",
		"warehouse":   "w.name",
		"wid":         "l.wid",
		"spot":        "l.spot",
		"units":       "l.units",
		"received":    "l.received",
		"shipped":     "l.shipped",
		"serial":      "l.serial",
		"serial2":     "l.serial2",
		"rfidtag":     "l.rfid_tag",
		"remark":      "l.remark",
		"hold":        "l.hold",
		"jobid":       "l.job_id",
		"active":      "l.active",
		"modified":    "l.modified",
		"reference":   "l.reference",
		"netweight":   "l.net_weight",
		"grossweight": "l.gross_weight",
		"price":       "l.price",
		"expires":     "l.expires",
		"supplier":    "l.supplier",
		"line":        "l.line",
	},
	defField: "received",
	defDesc:  true,
	key:      "l.rec_no",
	modified: "l.modified",
}

func scanLot(row scanner) (stockroom.Lot, error) {
	var (
		l                        stockroom.Lot
		received, modified       int64
		shipped, expires         sql.NullInt64
		units, net, gross, price int64
	)
	err := row.Scan(&l.RecNo, &l.PartNo, &l.ShortID, &l.Description, &l.Associate, &l.Warehouse, &l.WID, &l.Spot,
		&units, &received, &shipped, &l.Serial, &l.Serial2, &l.RFIDTag, &l.Remark, &l.Hold, &l.JobID, &l.Active,
		&modified, &l.Reference, &net, &gross, &price, &expires, &l.Supplier, &l.Line)
	l.Units, l.NetWeight, l.GrossWeight, l.Price = stockroom.Units(units), stockroom.Units(net), stockroom.Units(gross), stockroom.Units(price)
	l.Received, l.Modified = fromMicros(received), fromMicros(modified)
	l.Shipped, l.Expires = optTime(shipped), optTime(expires)
	return l, err
}

func optTime(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := fromMicros(v.Int64)
	return &t
}

func optMicros(t *time.Time) any {
	if t == nil {
		return nil
	}
	return micros(*t)
}

// FindLot returns one lot, or ENOTFOUND.
func (db *DB) FindLot(ctx context.Context, recNo int64) (stockroom.Lot, error) {
	return queryOne(ctx, db, stockroom.Errorf(stockroom.ENOTFOUND, "No lot with recNo %d.", recNo), scanLot, `
		SELECT `+lotColumns+`
		FROM `+lotFrom+`
		WHERE l.rec_no = $1`, recNo)
}

// ListLots returns a page of lots in scope, newest received first by default.
func (db *DB) ListLots(ctx context.Context, scope stockroom.Scope, f stockroom.LotFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.Lot], error) {
	q := pageQuery{from: lotFrom, columns: lotColumns, sort: lotSort}
	plain := true // no filter beyond scope and warehouse: the kept counts answer the total
	if !f.IncludeShipped {
		q.where = append(q.where, "l.units > 0")
	}
	if f.WID != 0 {
		q.where = append(q.where, "l.wid = "+q.args.add(f.WID))
		q.counters = []string{lotCounter(f.WID, !f.IncludeShipped)}
	} else {
		q.where = append(q.where, scopeCond("l.wid", scope, &q.args))
		if scope.All {
			q.counters = []string{lotCounter(0, !f.IncludeShipped)}
		}
		for _, wid := range scope.IDs {
			q.counters = append(q.counters, lotCounter(wid, !f.IncludeShipped))
		}
	}
	if f.ItemShortID != "" {
		q.where = append(q.where, "i.short_id_key = "+q.args.add(stockroom.FoldKey(f.ItemShortID)))
		plain = false
	}
	if f.Spot != nil {
		q.where = append(q.where, "l.spot = "+q.args.add(*f.Spot))
		plain = false
	}
	if f.Serial != "" {
		q.where = append(q.where, "l.serial = "+q.args.add(f.Serial))
		plain = false
	}
	if f.Hold != nil {
		q.where = append(q.where, "l.hold = "+q.args.add(*f.Hold))
		plain = false
	}
	if !plain {
		q.counters = nil
	}
	return queryPage(ctx, db, q, req, scanLot)
}

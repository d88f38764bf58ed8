package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
)

// lotColumns are a lot row's own columns but rec_no, in the order in which
// every lot statement writes and reads them; lotValues gives a lot's values
// in the same order.
const lotColumns = `part_no, wid, spot, units, received, shipped, serial, serial2, rfid_tag, remark, owner,
	hold, job_id, active, reference, net_weight, gross_weight, price, expires, supplier, line, modified`

func lotValues(l stockroom.Lot) []any {
	return []any{l.PartNo, l.WID, l.Spot, l.Units, micros(l.Received), optMicros(l.Shipped), l.Serial, l.Serial2,
		l.RFIDTag, l.Remark, l.Owner, l.Hold, l.JobID, l.Active, l.Reference, l.NetWeight, l.GrossWeight,
		l.Price, optMicros(l.Expires), l.Supplier, l.Line, micros(l.Modified)}
}

// lotRow receives a lot row as lotColumns (after rec_no) lists it.
type lotRow struct {
	lot                stockroom.Lot
	received, modified int64
	shipped, expires   sql.NullInt64
}

// dest lists where rec_no and lotColumns are scanned to.
func (r *lotRow) dest() []any {
	l := &r.lot
	return []any{&l.RecNo, &l.PartNo, &l.WID, &l.Spot, &l.Units, &r.received, &r.shipped, &l.Serial, &l.Serial2,
		&l.RFIDTag, &l.Remark, &l.Owner, &l.Hold, &l.JobID, &l.Active, &l.Reference, &l.NetWeight,
		&l.GrossWeight, &l.Price, &r.expires, &l.Supplier, &l.Line, &r.modified}
}

// value returns the lot as scanned.
func (r *lotRow) value() stockroom.Lot {
	l := r.lot
	l.Received, l.Modified = fromMicros(r.received), fromMicros(r.modified)
	l.Shipped, l.Expires = optTime(r.shipped), optTime(r.expires)
	return l
}

// lotSelect reads a lot with the names it is shown with, from lotFrom: its
// item's, its warehouse's and its owner's (associate), read as they are now.
var lotSelect = "l.rec_no, " + prefixed("l", lotColumns) + ", i.short_id, i.description, w.name, " + lotAssociate

// lotAssociate is the name of a lot's owner: "" for the house's own stock.
// (The lots.associate column is no longer read: the name follows the
// customer record.)
const lotAssociate = "COALESCE((SELECT p.name FROM parties p WHERE p.id = l.owner), '')"

const lotFrom = `lots l
	JOIN items i ON i.part_no = l.part_no
	JOIN warehouses w ON w.wid = l.wid`

func scanLot(row scanner) (stockroom.Lot, error) {
	var r lotRow
	l := &r.lot
	if err := row.Scan(append(r.dest(), &l.ShortID, &l.Description, &l.Warehouse, &l.Associate)...); err != nil {
		return stockroom.Lot{}, err
	}
	return r.value(), nil
}

// params returns the placeholders $from to $to, comma-separated.
func params(from, to int) string {
	ph := make([]string, 0, to-from+1)
	for i := from; i <= to; i++ {
		ph = append(ph, "$"+strconv.Itoa(i))
	}
	return strings.Join(ph, ", ")
}

var lotSort = sortSpec{
	fields: map[string]string{
		"recno":       "l.rec_no",
		"partno":      "l.part_no",
		"shortid":     "i.short_id_key",
		"description": "i.description",
		"associate":   lotAssociate,
		"owner":       "l.owner",
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

// FindLot returns one lot, or stockroom.ErrNotFound.
func (db *DB) FindLot(ctx context.Context, recNo int64) (stockroom.Lot, error) {
	return queryOne(ctx, db, scanLot, `
		SELECT `+lotSelect+`
		FROM `+lotFrom+`
		WHERE l.rec_no = $1`, recNo)
}

// ListLots returns a page of lots in scope, newest received first by default.
func (db *DB) ListLots(ctx context.Context, scope stockroom.Scope, f stockroom.LotFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.Lot], error) {
	return queryPage(ctx, db, lotQuery(scope, f), req, scanLot)
}

// EachLot passes every lot ListLots lists, in its order, to fn (an export:
// no paging), read in one snapshot from the reports' reader.
func (db *DB) EachLot(ctx context.Context, scope stockroom.Scope, f stockroom.LotFilter, req stockroom.PageRequest, fn func(stockroom.Lot) error) error {
	return each(ctx, db, export[stockroom.Lot]{q: lotQuery(scope, f), req: req, scan: scanLot}, fn)
}

// lotQuery is the query of the lots in scope that f keeps.
func lotQuery(scope stockroom.Scope, f stockroom.LotFilter) pageQuery {
	q := pageQuery{from: lotFrom, columns: lotSelect, sort: lotSort}
	// no filter beyond scope and warehouse: the kept counts answer the total
	plain := f.Owners == nil || f.Owners.All
	if !plain {
		q.where = append(q.where, scopeCond("l.owner", *f.Owners, &q.args))
	}
	if !f.IncludeShipped {
		q.where = append(q.where, "l.shipped IS NULL") // in stock: the condition of lots_in_stock
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
	return q
}

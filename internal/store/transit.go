package store

import (
	"context"
	"database/sql"
	"strings"

	"github.com/stockroom/stockroom"
)

// Transits (contract §10): stock on its way to a warehouse, shipped from
// another (a transfer) or by a purchase order's vendor (an advance ship
// notice). This file reads them; transfer.go, transitship.go,
// transitreceive.go and transitcancel.go change them.

// transitColumns are a transit's own fields, with its order's number.
const transitColumns = `
	r.id,
	r.kind,
	r.slip,
	r.from_wid,
	COALESCE(o.order_no, ''),
	r.to_wid,
	r.to_spot,
	r.status,
	r.shipped,
	r.modified`

const transitFrom = `transits r LEFT JOIN orders o ON o.id = r.order_id`

var transitSort = sortSpec{
	fields: map[string]string{
		"id":          "r.id",
		"kind":        "r.kind",
		"transitslip": "r.slip",
		"asn":         "r.slip",
		"fromwid":     "r.from_wid",
		"pono":        "o.order_no_key",
		"towid":       "r.to_wid",
		"tospot":      "r.to_spot",
		"status":      "r.status",
		"shipped":     "r.shipped",
		"modified":    "r.modified",
	},
	defField: "shipped",
	defDesc:  true,
	key:      "r.id",
	modified: "r.modified",
}

func scanTransit(row scanner) (stockroom.Transit, error) {
	var (
		tr                stockroom.Transit
		slip              string
		from              sql.NullInt64
		shipped, modified int64
	)
	err := row.Scan(&tr.ID, &tr.Kind, &slip, &from, &tr.PONo, &tr.ToWID, &tr.ToSpot, &tr.Status, &shipped, &modified)
	if tr.Kind == stockroom.TransitASN {
		tr.ASN = slip
	} else {
		tr.TransitSlip = slip
	}
	if from.Valid {
		tr.FromWID = &from.Int64
	}
	tr.Shipped, tr.Modified = fromMicros(shipped), fromMicros(modified)
	tr.Lines = []stockroom.TransitLine{}
	return tr, err
}

// transitLinesQuery is the statement that reads the lines of the transits
// with the given ids, of the owners given (nil: every owner), in line
// order.
func transitLinesQuery(ids []int64, owners *stockroom.Scope) (string, args) {
	var a args
	ph := make([]string, len(ids))
	for i, id := range ids {
		ph[i] = a.add(id)
	}
	conds := []string{"l.transit_id IN (" + strings.Join(ph, ", ") + ")"}
	if owners != nil {
		if c := scopeCond("l.owner", *owners, &a); c != "" {
			conds = append(conds, c)
		}
	}
	return `
		SELECT l.transit_id, l.line, l.part_no, i.short_id, l.owner, l.units, l.received, l.rejected,
			l.serial, l.serial2, l.rfid_tag, l.rec_no, l.order_line
		FROM transit_lines l JOIN items i ON i.part_no = l.part_no
		WHERE ` + strings.Join(conds, " AND ") + `
		ORDER BY l.transit_id, l.line`, a
}

// addTransitLines adds the rows of transitLinesQuery to their transits,
// with what each line still has due.
func addTransitLines(r rows, byID map[int64]*stockroom.Transit) error {
	for r.Next() {
		var (
			id           int64
			l            stockroom.TransitLine
			recNo, order sql.NullInt64
		)
		if err := r.Scan(&id, &l.Line, &l.PartNo, &l.ShortID, &l.Owner, &l.Units, &l.UnitsReceived, &l.UnitsRejected,
			&l.Serial, &l.Serial2, &l.RFIDTag, &recNo, &order); err != nil {
			return err
		}
		if recNo.Valid {
			l.RecNo = &recNo.Int64
		}
		if order.Valid {
			l.POLine = &order.Int64
		}
		tr := byID[id]
		if tr.Status.IsOpen() {
			l.UnitsDue = l.Units.Sub(l.UnitsReceived).Sub(l.UnitsRejected)
		}
		tr.Lines = append(tr.Lines, l)
	}
	return r.Err()
}

// transitVisible restricts transits (alias r) to those with an end in
// scope (an advance ship notice has one, its destination) and a line of
// one of owners (nil: any).
func transitVisible(scope stockroom.Scope, owners *stockroom.Scope, a *args) []string {
	var conds []string
	if !scope.All {
		ends := "(" + scopeCond("r.to_wid", scope, a) + " OR " + scopeCond("r.from_wid", scope, a) + ")"
		conds = append(conds, ends)
	}
	if owners != nil && !owners.All {
		conds = append(conds, "EXISTS (SELECT 1 FROM transit_lines v WHERE v.transit_id = r.id AND "+
			scopeCond("v.owner", *owners, a)+")")
	}
	return conds
}

// FindTransit returns one transit with its lines of owners (nil: every
// owner), or ErrNotFound when it does not exist or is not visible in scope
// (see transitVisible).
func (db *DB) FindTransit(ctx context.Context, scope stockroom.Scope, owners *stockroom.Scope, id int64) (stockroom.Transit, error) {
	var a args
	conds := append([]string{"r.id = " + a.add(id)}, transitVisible(scope, owners, &a)...)
	tr, err := queryOne(ctx, db, scanTransit, `
		SELECT `+transitColumns+`
		FROM `+transitFrom+`
		WHERE `+strings.Join(conds, " AND "), a...)
	if err != nil {
		return tr, err
	}
	list := []stockroom.Transit{tr}
	err = db.loadTransitLines(ctx, list, owners)
	return list[0], err
}

// ListTransits returns a page of the transits visible in scope, newest
// shipped first by default.
func (db *DB) ListTransits(ctx context.Context, scope stockroom.Scope, f stockroom.TransitFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.Transit], error) {
	page, err := queryPage(ctx, db, transitQuery(scope, f), req, scanTransit)
	if err != nil {
		return page, err
	}
	return page, db.loadTransitLines(ctx, page.Items, f.Owners)
}

// transitQuery is the query of ListTransits (and of an export of it).
func transitQuery(scope stockroom.Scope, f stockroom.TransitFilter) pageQuery {
	q := pageQuery{from: transitFrom, columns: transitColumns, sort: transitSort}
	q.where = transitVisible(scope, f.Owners, &q.args)
	if f.OpenOnly {
		q.where = append(q.where, openTransit)
	}
	if f.Status != "" {
		q.where = append(q.where, "r.status = "+q.args.add(string(f.Status)))
	}
	if f.WID != 0 {
		ph := q.args.add(f.WID)
		q.where = append(q.where, "(r.to_wid = "+ph+" OR r.from_wid = "+ph+")")
	}
	return q
}

// loadTransitLines fills in the lines of owners (nil: all) of the given
// transits with one query.
func (db *DB) loadTransitLines(ctx context.Context, trs []stockroom.Transit, owners *stockroom.Scope) error {
	return db.classify(transitLines(ctx, db.read, trs, owners))
}

// transitLines is loadTransitLines on qr.
func transitLines(ctx context.Context, qr querier, trs []stockroom.Transit, owners *stockroom.Scope) error {
	if len(trs) == 0 {
		return nil
	}
	byID := make(map[int64]*stockroom.Transit, len(trs))
	ids := make([]int64, len(trs))
	for i := range trs {
		byID[trs[i].ID], ids[i] = &trs[i], trs[i].ID
	}
	query, a := transitLinesQuery(ids, owners)
	rows, err := qr.QueryContext(ctx, query, a...)
	if err != nil {
		return err
	}
	defer rows.Close()
	return addTransitLines(rows, byID)
}

// readTransit queues the reading of transit id with all its lines, into tr
// at the next flush; found reports whether it exists.
func (t *Tx) readTransit(id int64, tr *stockroom.Transit, found *bool) {
	t.Query(func(r rows) error {
		if *found = r.Next(); !*found {
			return r.Err()
		}
		var err error
		*tr, err = scanTransit(r)
		return err
	}, `
		SELECT `+transitColumns+`
		FROM `+transitFrom+`
		WHERE r.id = $1`, id)
	query, a := transitLinesQuery([]int64{id}, nil)
	t.Query(func(r rows) error {
		if !*found {
			return nil
		}
		return addTransitLines(r, map[int64]*stockroom.Transit{id: tr})
	}, query, a...)
}

package store

import (
	"context"
	"fmt"

	"github.com/stockroom/stockroom"
)

// ShipNotice records a vendor's advance ship notice against the purchase
// order numbered a.No (any letter case): a transit to the warehouse of the
// order's lines, one transit line per notice line, whose units leave the
// lines' onOrder for the warehouse's aSN. It records key's answer in the
// same transaction. An order that does not exist, or none of whose lines
// the client a.By sees (stockroom.Principal.SeesLine), is ErrNotFound; a
// line the order does not have or the client does not see, or lines for
// more than one warehouse, are EINVALID naming them; then the client's
// scopes judge the lines named (stockroom.Principal.JudgeLines); then an
// order that has ended is ECONFLICT.
func (db *DB) ShipNotice(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.OrderLinesAction, n stockroom.ShipNoticeRequest) (stockroom.Transit, error) {
	var res stockroom.Transit
	err := db.update(ctx, key, func(tx *Tx) (any, error) {
		var err error
		res, err = tx.shipNotice(a.No, n, a.Entry, a.By)
		return res, err
	})
	return res, err
}

// insertNotice creates a notice's transit for the open purchase order with
// key $1, to the warehouse of its line $2: $3 the notice's number, $4 the
// time. It inserts nothing when there is no such order or line.
const insertNotice = `
	INSERT INTO transits (kind, slip, from_wid, order_id, to_wid, to_spot, status, shipped, modified)
	SELECT 'asn', $3, NULL, o.id, l.wid, '', 'InTransit', $4, $4
	FROM orders o JOIN order_lines l ON l.order_id = o.id AND l.line_no = $2
	WHERE o.kind = 'purchase' AND o.order_no_key = $1 AND o.status NOT IN ('Closed', 'Canceled')
	RETURNING id`

// insertNoticeLine makes a notice's line: $1 transit, $2 line, $3 item,
// $4 owner, $5 units, $6-$8 serials, $9 the order line.
const insertNoticeLine = `
	INSERT INTO transit_lines (transit_id, line, part_no, owner, units, received, rejected, serial, serial2, rfid_tag, rec_no, order_line)
	VALUES ($1, $2, $3, $4, $5, 0, 0, $6, $7, $8, NULL, $9)`

// shipNotice locks the order and creates the transit in one round trip,
// then changes the order's lines, writes the transit's lines, the levels
// and the ledger (one asn entry per line) in another.
func (t *Tx) shipNotice(poNo string, n stockroom.ShipNoticeRequest, e stockroom.LedgerEntry, by *stockroom.Principal) (stockroom.Transit, error) {
	var (
		o              orderLines
		found, created bool
		tr             = stockroom.Transit{Kind: stockroom.TransitASN, ASN: n.ASN}
		key            = stockroom.FoldKey(poNo)
		orderLineOf    = func(i int) int64 { return n.Lines[i].Line }
		changes        []levelChange
		figures        = make([][]ledgerFigure, len(n.Lines))
		heads          = make([]int64, len(n.Lines))
		readBack       bool
	)
	t.lockPurchaseOrder(key, &o, &found)
	t.QueryRow(&created, insertNotice, []any{key, n.Lines[0].Line, n.ASN, micros(e.Time)}, &tr.ID)
	if err := t.Flush(); err != nil {
		return tr, err
	}
	if !found || !o.seen(by) {
		return tr, stockroom.ErrNotFound
	}
	tr.PONo = o.head.no
	if err := noticeLinesFit(o, n, by); err != nil {
		return tr, err
	}
	toWID := o.lines[n.Lines[0].Line].wid
	if err := by.JudgeLines(len(n.Lines), func(i int) (int64, int64) {
		pl := o.lines[n.Lines[i].Line]
		return pl.wid, pl.owner
	}); err != nil {
		return tr, err
	}
	switch {
	case !o.head.status.IsOpen():
		return tr, stockroom.Errorf(stockroom.ECONFLICT, "Purchase order %s is %s; only an open order can ship.", o.head.no, o.head.status)
	case !created:
		return tr, fmt.Errorf("the transit of purchase order %s was not created", o.head.no)
	}
	for _, i := range sortedByOrderLine(orderLineOf, len(n.Lines)) {
		l := n.Lines[i]
		pl, onOrder, err := o.change(t, l.Line, stockroom.Units{}, l.Units, stockroom.Units{})
		if err != nil {
			return tr, err
		}
		t.Exec(insertNoticeLine, tr.ID, i+1, pl.partNo, pl.owner, l.Units, l.Serial, l.Serial2, l.RFIDTag, l.Line)
		changes = append(changes, onOrder, levelChange{partNo: pl.partNo, wid: toWID, owner: pl.owner, asn: l.Units})
		figures[i] = []ledgerFigure{figureOf(onOrder), {partNo: pl.partNo, wid: toWID, asn: l.Units}}
		tl := stockroom.TransitLine{Line: int64(i + 1), POLine: &n.Lines[i].Line}
		head := ledgerHead{typ: stockroom.TxASN, partNo: pl.partNo, wid: toWID, owner: pl.owner, units: l.Units,
			entry: transitEntry(e, tr, tl, 0)}
		if err := t.appendHead(head, &heads[i]); err != nil {
			return tr, err
		}
	}
	lv := t.changeLevels(e, changes...)
	t.settlePurchaseStatus(o.head.id, e.Time)
	t.readTransit(tr.ID, &tr, &readBack)
	if err := t.Flush(); err != nil {
		return tr, err
	}
	counts := countChanges{}
	if err := lv.settle(counts); err != nil {
		return tr, err
	}
	for i, id := range heads {
		t.appendFigures(id, figures[i])
	}
	t.addCounts(counts)
	if err := t.transitEvents(stockroom.EventTransitShipped, e, tr, func(owner int64) any { return transitOf(tr, owner) }); err != nil {
		return tr, err
	}
	return tr, t.purchaseReadEvents(e, o.head.no, o.head.status, "updated")
}

// seen reports whether the client sees a line of the order.
func (o orderLines) seen(by *stockroom.Principal) bool {
	for _, pl := range o.lines {
		if by.SeesLine(pl.wid, pl.owner) {
			return true
		}
	}
	return false
}

// noticeLinesFit checks a notice's lines against its order: each must be
// one of the order's lines that the client sees, and all of them for one
// warehouse.
func noticeLinesFit(o orderLines, n stockroom.ShipNoticeRequest, by *stockroom.Principal) error {
	var (
		v     stockroom.Validation
		first *purchaseLine
	)
	for i, l := range n.Lines {
		field := fmt.Sprintf("lines[%d].line", i)
		pl, ok := o.lines[l.Line]
		switch {
		case !ok || !by.SeesLine(pl.wid, pl.owner):
			v.Add(field, fmt.Sprintf("is not a line of purchase order %s", o.head.no))
		case first == nil:
			first = pl
		case pl.wid != first.wid:
			v.Add(field, fmt.Sprintf("is for warehouse %d, line %d for warehouse %d: a notice goes to one warehouse", pl.wid, first.line.LineNo, first.wid))
		}
	}
	return v.Err()
}

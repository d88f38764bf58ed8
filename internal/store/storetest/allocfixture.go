package storetest

import (
	"errors"
	"fmt"
	"strings"

	"github.com/stockroom/stockroom"
)

// insertShippingOrderForTest places an Open shipping order numbered no to
// customer SHIPTO with lines (item, warehouse, owner and units; numbered
// from 1), through CreateShippingOrder.
func (s *stockDB) insertShippingOrderForTest(no string, lines ...stockroom.OutboundLine) {
	s.t.Helper()
	to, err := s.FindPartyByShortID(ctx, stockroom.Customer, "SHIPTO")
	if errors.Is(err, stockroom.ErrNotFound) {
		to = newParty(stockroom.Customer, "SHIPTO", t0)
		err = s.CreateParty(ctx, nil, &to)
	}
	must(s.t, err)
	o := stockroom.ShippingOrder{SONo: no, CustomerID: to.ID, OrderHead: stockroom.OrderHead{OrderDate: t0}}
	for _, l := range lines {
		o.Lines = append(o.Lines, ships(l.PartNo, l.WID, l.Owner, l.Units))
	}
	_, err = s.CreateShippingOrder(ctx, nil, o, s.entry())
	must(s.t, err)
}

// insertOrderForTest inserts an Open order of a kind by SQL alone, for the
// house (party 0), with lines numbered from 1; for a work order, its
// components as lines (without the product, which allocations do not
// read).
func (s *stockDB) insertOrderForTest(kind stockroom.OrderKind, no string, lines ...stockroom.OutboundLine) {
	s.t.Helper()
	key := stockroom.FoldKey(no)
	at := t0.UnixMicro()
	must(s.t, s.ExecForTest(ctx, fmt.Sprintf(`
		INSERT INTO orders (kind, order_no, order_no_key, party, order_date, due_date, status, reference, remark, created, modified)
		VALUES ('%s', '%s', '%s', 0, %d, NULL, 'Open', '', '', %d, %d)`, kind, no, key, at, at, at)))
	rows := make([]string, len(lines))
	for i, l := range lines {
		rows[i] = fmt.Sprintf("SELECT id, %d, %d, %d, %d, %d, 0, 0, 0, 0 FROM orders WHERE kind = '%s' AND order_no_key = '%s'",
			i+1, l.PartNo, l.WID, l.Owner, l.Units.Micros(), kind, key)
	}
	must(s.t, s.ExecForTest(ctx, `
		INSERT INTO order_lines (order_id, line_no, part_no, wid, owner, units, received, in_transit, rejected, unit_price) `+
		strings.Join(rows, " UNION ALL ")))
}

// soLine is a shipping order line of units of an item from a warehouse,
// of the house's stock.
func soLine(part, wid int64, units stockroom.Units) stockroom.OutboundLine {
	return stockroom.OutboundLine{PartNo: part, WID: wid, Units: units}
}

// anyLines lets an order action touch every line (the service's scope
// checks are not the store's to test).
func anyLines([]stockroom.OutboundLine) error { return nil }

// allocLine names line n with units (nil: the action's default).
func allocLine(n int64, units *stockroom.Units) stockroom.AllocLine {
	return stockroom.AllocLine{Line: n, Units: units}
}

// up is a pointer to n whole units.
func up(n int64) *stockroom.Units {
	v := u(n)
	return &v
}

// The order actions on shipping order no, as the service calls them.
func (s *stockDB) commit(no string, req stockroom.CommitRequest) (stockroom.AllocationResult, error) {
	return s.CommitOrder(ctx, nil, stockroom.OrderKindShipping, no, req, s.entry(), anyLines)
}

func (s *stockDB) uncommit(no string, lines ...stockroom.AllocLine) (stockroom.AllocationResult, error) {
	return s.UncommitOrder(ctx, nil, stockroom.OrderKindShipping, no, stockroom.UncommitRequest{Lines: lines}, s.entry(), anyLines)
}

func (s *stockDB) pack(no string, lines ...stockroom.AllocLine) (stockroom.AllocationResult, error) {
	return s.PackOrder(ctx, nil, stockroom.OrderKindShipping, no, stockroom.PackRequest{Lines: lines}, s.entry(), anyLines)
}

func (s *stockDB) shipOrder(no string, req stockroom.ShipRequest) (stockroom.AllocationResult, error) {
	return s.ShipOrder(ctx, nil, stockroom.OrderKindShipping, no, req, s.entry(), anyLines)
}

func (s *stockDB) endOrder(no string, cancel bool) (stockroom.AllocationResult, error) {
	return s.EndOutboundOrder(ctx, nil, stockroom.OrderKindShipping, no, cancel, s.entry(), anyLines)
}

// soLines reads shipping order no's lines with their allocations.
func (s *stockDB) soLines(no string) []stockroom.LineAllocations {
	s.t.Helper()
	lines, err := s.FindOrderAllocations(ctx, stockroom.OrderKindShipping, no)
	must(s.t, err)
	return lines
}

// allocs writes a line's allocations compactly: recNo:committed/packed.
func allocs(la stockroom.LineAllocations) string {
	out := make([]string, len(la.Allocations))
	for i, a := range la.Allocations {
		out[i] = fmt.Sprintf("%d:%s/%s", a.RecNo, a.Committed, a.Packed)
	}
	return strings.Join(out, " ")
}

// figures writes a line's committed, packed and shipped: c/p/s.
func figures(la stockroom.LineAllocations) string {
	return fmt.Sprintf("%s/%s/%s", la.Committed, la.Packed, la.Shipped)
}

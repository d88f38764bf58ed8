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

// placeWorkOrder places work order no (CreateWorkOrder) building units
// of item B at warehouse 1, spot "OUT", for the house, from components of
// item part at warehouse 1, perUnit units each.
func (s *stockDB) placeWorkOrder(no string, units stockroom.Units, comps ...stockroom.WorkLine) stockroom.WorkOrder {
	s.t.Helper()
	o := stockroom.WorkOrder{WONo: no, PartNo: s.b.PartNo, Units: units, WID: 1, Spot: "OUT", OrderHead: stockroom.OrderHead{OrderDate: t0}}
	for _, c := range comps {
		total, ok := stockroom.ComponentUnits(c.PerUnit, units)
		if !ok {
			s.t.Fatalf("component units %s × %s", c.PerUnit, units)
		}
		c.Units, c.Warehouse = total, 1
		o.Lines = append(o.Lines, c)
	}
	res, err := s.CreateWorkOrder(ctx, nil, o, s.entry())
	must(s.t, err)
	return res
}

// comp is a component of perUnit units of item part per product.
func comp(part int64, perUnit stockroom.Units) stockroom.WorkLine {
	return stockroom.WorkLine{OrderLine: stockroom.OrderLine{PartNo: part}, PerUnit: perUnit}
}

// soLine is a shipping order line of units of an item from a warehouse,
// of the house's stock.
func soLine(part, wid int64, units stockroom.Units) stockroom.OutboundLine {
	return stockroom.OutboundLine{PartNo: part, WID: wid, Units: units}
}

// everyone is a client that sees and may touch every line of every order.
var everyone = &stockroom.Principal{Scope: stockroom.Scope{All: true}, Owners: stockroom.Scope{All: true}}

// inWarehouses is a client of every owner that sees the warehouses wids
// only.
func inWarehouses(wids ...int64) *stockroom.Principal {
	return &stockroom.Principal{Scope: stockroom.Scope{IDs: wids}, Owners: stockroom.Scope{All: true}}
}

// act is an action on order no of a kind for the client by, its changes
// recorded under the suite's ledger entry.
func (s *stockDB) act(kind stockroom.OrderKind, no string, by *stockroom.Principal) stockroom.OrderLinesAction {
	return stockroom.OrderLinesAction{Kind: kind, No: no, Entry: s.entry(), By: by}
}

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
	return s.CommitOrder(ctx, nil, s.act(stockroom.OrderKindShipping, no, everyone), req)
}

func (s *stockDB) uncommit(no string, lines ...stockroom.AllocLine) (stockroom.AllocationResult, error) {
	return s.UncommitOrder(ctx, nil, s.act(stockroom.OrderKindShipping, no, everyone), stockroom.UncommitRequest{Lines: lines})
}

func (s *stockDB) pack(no string, lines ...stockroom.AllocLine) (stockroom.AllocationResult, error) {
	return s.PackOrder(ctx, nil, s.act(stockroom.OrderKindShipping, no, everyone), stockroom.PackRequest{Lines: lines})
}

func (s *stockDB) shipOrder(no string, req stockroom.ShipRequest) (stockroom.AllocationResult, error) {
	return s.ShipOrder(ctx, nil, s.act(stockroom.OrderKindShipping, no, everyone), req)
}

func (s *stockDB) endOrder(no string, cancel bool) (stockroom.AllocationResult, error) {
	return s.EndOutboundOrder(ctx, nil, s.act(stockroom.OrderKindShipping, no, everyone), cancel)
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

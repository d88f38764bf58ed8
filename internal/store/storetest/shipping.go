package storetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store"
)

// shipDB is a purchaseDB (a vendor to order from) with customer acme to
// ship to, whose stock some lines ship.
type shipDB struct {
	*purchaseDB
	acme stockroom.Party
}

// ships is a shipping order line of units of an item from a warehouse, of
// owner's stock.
func ships(part, wid, owner int64, units stockroom.Units) stockroom.ShippingLine {
	return stockroom.ShippingLine{OrderLine: stockroom.OrderLine{PartNo: part, Warehouse: wid, Owner: owner, Units: units}}
}

// ship places a shipping order numbered no ("": the next number) to acme,
// dated at.
func (s *shipDB) ship(no string, at time.Time, lines ...stockroom.ShippingLine) (stockroom.ShippingOrder, error) {
	o := stockroom.ShippingOrder{SONo: no, CustomerID: s.acme.ID, OrderHead: stockroom.OrderHead{OrderDate: at, Reference: "cust-" + no}, Lines: lines}
	return s.CreateShippingOrder(ctx, nil, o, s.entry())
}

// setShipped sets what is committed, packed and shipped of line n of order
// no, as allocations would.
func (s *shipDB) setShipped(no string, n int64, committed, packed, shipped int64) {
	s.t.Helper()
	must(s.t, s.ExecForTest(ctx, fmt.Sprintf(`UPDATE order_lines SET committed = %d, packed = %d, shipped = %d
		WHERE line_no = %d AND order_id = (SELECT id FROM orders WHERE kind = 'shipping' AND order_no = '%s')`,
		u(committed).Micros(), u(packed).Micros(), u(shipped).Micros(), n, no)))
}

func (h *harness) testShippingOrders(t *testing.T) {
	s := &shipDB{purchaseDB: h.openPurchase(t), acme: newParty(stockroom.Customer, "ACME", t0)}
	must(t, s.CreateParty(ctx, nil, &s.acme))
	t.Run("PlaceAndNumber", s.testShippingPlace)
	t.Run("Change", s.testShippingChange)
	t.Run("Lists", s.testShippingLists)
	s.audit()
}

func (s *shipDB) testShippingPlace(t *testing.T) {
	ship := stockroom.MustParseUnits("2.5")
	due := t0.Add(72 * time.Hour)
	o := stockroom.ShippingOrder{CustomerID: s.acme.ID, ShipDate: &due, OrderHead: stockroom.OrderHead{OrderDate: t0, Remark: "fragile"},
		Lines: []stockroom.ShippingLine{ships(s.a.PartNo, 1, s.acme.ID, u(4)), ships(s.b.PartNo, 2, 0, ship)}}
	got, err := s.CreateShippingOrder(ctx, nil, o, s.entry())
	must(t, err)
	if got.ID < 1 || got.SONo != "SO-000001" || got.Customer != "Name ACME" || got.Status != stockroom.OrderOpen || got.TotalLines != 2 ||
		!got.ShipDate.Equal(due) || got.Remark != "fragile" || !got.OrderDate.Equal(t0) || !got.Created.Equal(got.Modified) {
		t.Fatalf("placed %+v", got)
	}
	if l := got.Lines[1]; l.LineNo != 2 || l.ShortID != "B" || l.WarehouseName != "W2" || l.Units != ship || !l.UnitsCommitted.IsZero() || l.Owner != 0 {
		t.Fatalf("line 2 %+v", l)
	}
	found, err := s.FindShippingOrder(ctx, "so-000001")
	must(t, err)
	if found.ID != got.ID || !slices.Equal(found.Lines, got.Lines) {
		t.Fatalf("found %+v, placed %+v", found, got)
	}
	// Numbers are the kind's own: a purchase order may have one a shipping
	// order has, and numbering skips those of its kind taken already.
	if _, err := s.FindPurchaseOrder(ctx, "SO-000001"); !errors.Is(err, stockroom.ErrNotFound) {
		t.Fatalf("a purchase order found by a shipping order's number: %v", err)
	}
	must(t, firstErr(s.ship("SO-000002", t0, ships(s.a.PartNo, 1, 0, u(1)))))
	s.mustPlace("SO-000003", line(s.a.PartNo, 1, u(1), u(0)))
	if o, err := s.ship("", t0, ships(s.a.PartNo, 1, 0, u(1))); err != nil || o.SONo != "SO-000003" {
		t.Fatalf("next number %q, %v; want SO-000003", o.SONo, err)
	}
	if _, err := s.ship("so-000002", t0, ships(s.a.PartNo, 1, 0, u(1))); !errors.Is(err, stockroom.ErrDuplicate) {
		t.Fatalf("a number taken in another case: %v", err)
	}
	// Placing moves no figure, and the ledger has only the purchase order.
	if lv := s.level(s.a.PartNo, 1); !lv.Committed.IsZero() || !lv.Packed.IsZero() || lv.OnOrder != u(1) || s.ledgerSize() != 1 {
		t.Fatalf("level %+v, %d ledger entries", lv, s.ledgerSize())
	}
}

func (s *shipDB) testShippingChange(t *testing.T) {
	s.setShipped("SO-000001", 1, 1, 1, 1)
	before, err := s.FindShippingOrder(ctx, "SO-000001")
	must(t, err)
	if l := before.Lines[0]; l.UnitsCommitted != u(1) || l.UnitsPacked != u(1) || l.UnitsShipped != u(1) || l.Units != u(4) {
		t.Fatalf("line 1 as allocations left it: %+v", l)
	}
	apply := func(ch stockroom.ShippingOrderChange) (stockroom.ShippingOrder, error) {
		return s.ChangeShippingOrder(ctx, nil, "so-000001", s.entry(), ch.Apply)
	}
	three := stockroom.OrderLineRequest{LineNo: 1, Units: new(u(3))}
	added := stockroom.OrderLineChange{OrderLineRequest: stockroom.OrderLineRequest{Units: new(u(7)), Warehouse: 2}, PartNo: s.a.PartNo, Owner: s.acme.ID}
	got, err := apply(stockroom.ShippingOrderChange{Reference: new("R2"), Lines: []stockroom.OrderLineChange{{OrderLineRequest: three}, added}})
	must(t, err)
	if l := got.Lines; got.Reference != "R2" || len(l) != 3 || l[0].Units != u(3) || l[0].UnitsShipped != u(1) || l[2].LineNo != 3 ||
		l[2].Owner != s.acme.ID || l[2].Units != u(7) || got.TotalLines != 3 || !got.Modified.After(before.Modified) {
		t.Fatalf("changed %+v", got)
	}
	// Not below what is committed, packed and shipped; a refused change
	// changes nothing, and one that changes nothing writes nothing.
	two := stockroom.OrderLineRequest{LineNo: 1, Units: new(u(2))}
	_, err = apply(stockroom.ShippingOrderChange{Remark: new("lost"), Lines: []stockroom.OrderLineChange{{OrderLineRequest: two}}})
	wantCode(t, err, stockroom.ECONFLICT)
	same, err := apply(stockroom.ShippingOrderChange{Reference: new("R2")})
	must(t, err)
	if !same.Modified.Equal(got.Modified) || same.Remark != got.Remark || same.Lines[0].Units != u(3) {
		t.Fatalf("after a refused and an empty change: %+v", same)
	}
	_, err = s.ChangeShippingOrder(ctx, nil, "NOPE", s.entry(), stockroom.ShippingOrderChange{}.Apply)
	wantCode(t, err, stockroom.ENOTFOUND)
	s.setShipped("SO-000001", 1, 0, 0, 0)
}

func (s *shipDB) testShippingLists(t *testing.T) {
	day := 24 * time.Hour
	o, err := s.ship("L-9", t0.Add(9*day), ships(s.b.PartNo, 2, s.acme.ID, u(1)))
	must(t, err)
	must(t, s.ExecForTest(ctx, fmt.Sprint("UPDATE orders SET status = 'Closed' WHERE id = ", o.ID)))
	all, mine := stockroom.Scope{All: true}, &stockroom.Scope{IDs: []int64{s.acme.ID}}
	later, end := t0.Add(day), t0.Add(9*day)
	for _, q := range []struct {
		scope  stockroom.Scope
		filter stockroom.OrderFilter
		sort   string // a field, "-" first for DESC
		want   string
	}{
		{all, stockroom.OrderFilter{}, "", "SO-000001 SO-000002 SO-000003 L-9"},
		{all, stockroom.OrderFilter{OpenOnly: true}, "", "SO-000001 SO-000002 SO-000003"},
		{all, stockroom.OrderFilter{}, "-SONO", "SO-000003 SO-000002 SO-000001 L-9"},
		{all, stockroom.OrderFilter{}, "-shipDate", "L-9 SO-000003 SO-000002 SO-000001"},
		{all, stockroom.OrderFilter{Status: stockroom.OrderClosed, StartDate: &later, EndDate: &end}, "customer", "L-9"},
		{stockroom.Scope{IDs: []int64{2}}, stockroom.OrderFilter{ItemShortID: "b"}, "", "SO-000001 L-9"},
		{all, stockroom.OrderFilter{WID: 1}, "customerID", "SO-000001 SO-000002 SO-000003"},
		{all, stockroom.OrderFilter{Owners: mine}, "", "SO-000001 L-9"},
	} {
		req := stockroom.PageRequest{Page: 1, PageSize: 50, Sort: strings.TrimPrefix(q.sort, "-")}
		if strings.HasPrefix(q.sort, "-") {
			req.Direction = stockroom.DirectionDesc
		}
		if got := s.shippingNos(q.scope, q.filter, req); got != q.want {
			t.Errorf("%+v: %s", q, got)
		}
	}
	p, err := s.ListShippingOrders(ctx, stockroom.Scope{IDs: []int64{2}}, stockroom.OrderFilter{Owners: mine}, stockroom.PageRequest{Page: 1, PageSize: 50})
	must(t, err)
	if len(p.Items) != 2 || p.Items[0].TotalLines != 1 || p.Items[0].Customer != "Name ACME" || p.Items[0].Lines != nil || p.Items[1].SONo != "L-9" {
		t.Fatalf("acme's lines in warehouse 2: %+v", p.Items)
	}
	for _, direct := range []int64{store.DefaultDirectOffset, 0} {
		s.SetDirectOffset(direct)
		var got []string
		for pg := int64(1); pg <= 3; pg++ {
			got = append(got, s.shippingNos(all, stockroom.OrderFilter{}, stockroom.PageRequest{Page: pg, PageSize: 3}))
		}
		if strings.Join(got, "|") != "SO-000001 SO-000002 SO-000003|L-9|" {
			t.Errorf("pages of 3 (direct offset %d): %q", direct, got)
		}
	}
}

// shippingNos lists shipping orders and returns their numbers, space
// separated.
func (s *shipDB) shippingNos(scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest) string {
	s.t.Helper()
	p, err := s.ListShippingOrders(ctx, scope, f, req)
	must(s.t, err)
	nos := make([]string, len(p.Items))
	for i, o := range p.Items {
		nos[i] = o.SONo
	}
	return strings.Join(nos, " ")
}

package storetest

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/stockroom/stockroom"
)

// about keeps the events about subject.
func about(es []stockroom.Event, subject stockroom.EventSubject) []stockroom.Event {
	var out []stockroom.Event
	for _, e := range es {
		if e.Subject == subject {
			out = append(out, e)
		}
	}
	return out
}

// typesOf is the types of the events about subject after the first n of
// the feed.
func (s *stockDB) typesOf(n int, subject stockroom.EventSubject) []stockroom.EventType {
	s.t.Helper()
	return eventTypes(about(s.since(n), subject))
}

func wantTypes(t *testing.T, what string, got []stockroom.EventType, want ...stockroom.EventType) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s: events %v, want %v", what, got, want)
	}
}

func po(a string) stockroom.EventType { return stockroom.OrderEvent("purchaseorder", a) }
func so(a string) stockroom.EventType { return stockroom.OrderEvent("shippingorder", a) }
func wo(a string) stockroom.EventType { return stockroom.OrderEvent("workorder", a) }

// testPurchaseOrderEvents: a purchase order of two warehouses and owners
// appends each event once per warehouse and owner of its lines, each
// carrying only those lines, which a client of another warehouse or owner
// never sees; placing, changing, receiving (to its closing) and canceling
// append theirs, and a refused change or receipt nothing.
func (h *harness) testPurchaseOrderEvents(t *testing.T) {
	s := h.openPurchase(t)
	owners := s.ownersMix()
	mine, theirs := owners[1], owners[2]
	subject := stockroom.EventSubject{Kind: "purchaseorder", ID: "PO-E"}
	n := len(s.events(everyEvent))
	l1, l2 := line(s.a.PartNo, 1, u(10), u(1)), line(s.b.PartNo, 2, u(5), u(1))
	l1.Owner, l2.Owner = mine, theirs
	o := s.mustPlace("PO-E", l1, l2)
	es := about(s.since(n), subject)
	wantTypes(t, "placed", eventTypes(es), po("created"), po("created"))
	for i, want := range []struct{ wid, owner, line int64 }{{1, mine, 1}, {2, theirs, 2}} {
		var got stockroom.PurchaseOrder
		must(t, json.Unmarshal(es[i].Data, &got))
		if es[i].WID != want.wid || es[i].Owner != want.owner || len(got.Lines) != 1 || got.Lines[0].LineNo != want.line ||
			got.TotalLines != 1 || got.PONo != "PO-E" || es[i].ClientID != "tester" {
			t.Errorf("event %d: warehouse %d owner %d, data %s; want warehouse %d, owner %d, line %d only", i, es[i].WID, es[i].Owner, es[i].Data, want.wid, want.owner, want.line)
		}
	}

	n = len(s.events(everyEvent))
	refused := errors.New("refused")
	_, err := s.change("po-e", func(o *stockroom.PurchaseOrder) (bool, error) { o.Remark = "x"; return true, refused })
	if !errors.Is(err, refused) {
		t.Fatal(err)
	}
	_, err = s.change("po-e", func(*stockroom.PurchaseOrder) (bool, error) { return false, nil })
	must(t, err)
	_, err = s.change("po-e", func(o *stockroom.PurchaseOrder) (bool, error) { o.Remark = "new"; return true, nil })
	must(t, err)
	wantTypes(t, "changed", s.typesOf(n, subject), po("updated"), po("updated"))

	n = len(s.events(everyEvent))
	wrong := o
	wrong.Lines = slices.Clone(o.Lines)
	wrong.Lines[0].Warehouse = 2
	if _, err = s.receiveOn(wrong, 1, u(1)); !errors.Is(err, stockroom.ErrOrderLineMismatch) {
		t.Fatalf("a receipt of another warehouse's against line 1: %v", err)
	}
	_, err = s.receiveOn(o, 1, u(10))
	must(t, err)
	_, err = s.receiveOn(o, 2, u(5))
	must(t, err)
	wantTypes(t, "received to the end", s.typesOf(n, subject),
		po("received"), po("received"), po("received"), po("received"), po("closed"), po("closed"))

	f := limitedTo(2, mine)
	s.wantUnseen(t, f, subject)
	mineIn1 := about(s.events(limitedTo(1, mine)), subject)
	if len(mineIn1) != 5 {
		t.Errorf("the client of warehouse 1 and its owner sees %v, want an event of each change", eventTypes(mineIn1))
	}
	for _, e := range mineIn1 {
		var got stockroom.PurchaseOrder
		must(t, json.Unmarshal(e.Data, &got))
		if len(got.Lines) != 1 || got.Lines[0].Owner != mine {
			t.Errorf("%s shows the client of warehouse 1 %s", e.Type, e.Data)
		}
	}

	n = len(s.events(everyEvent))
	s.mustPlace("PO-C", line(s.a.PartNo, 1, u(3), u(1)))
	_, err = s.change("po-c", func(o *stockroom.PurchaseOrder) (bool, error) { return true, o.End(true) })
	must(t, err)
	wantTypes(t, "canceled", s.typesOf(n, stockroom.EventSubject{Kind: "purchaseorder", ID: "PO-C"}), po("created"), po("canceled"))
}

// testShippingOrderEvents: a shipping order's placing, commit, uncommit
// (an update), pack, ships (the last closing it) and cancel each append
// their event; an action that changes nothing or is refused appends none;
// a client of another warehouse sees none.
func (h *harness) testShippingOrderEvents(t *testing.T) {
	s := h.openStock(t)
	s.receive(s.a.PartNo, 1, "X", u(10))
	subject := stockroom.EventSubject{Kind: "shippingorder", ID: "SO-E"}
	n := len(s.events(everyEvent))
	s.insertShippingOrderForTest("SO-E", soLine(s.a.PartNo, 1, u(4)))
	_, err := s.commit("SO-E", stockroom.CommitRequest{})
	must(t, err)
	_, err = s.commit("SO-E", stockroom.CommitRequest{}) // nothing left to commit
	must(t, err)
	_, err = s.uncommit("SO-E", allocLine(1, up(1)))
	must(t, err)
	_, err = s.pack("SO-E")
	must(t, err)
	_, err = s.shipOrder("SO-E", stockroom.ShipRequest{})
	must(t, err)
	_, err = s.shipOrder("SO-E", stockroom.ShipRequest{}) // nothing to ship
	wantCode(t, err, stockroom.ECONFLICT)
	_, err = s.commit("SO-E", stockroom.CommitRequest{})
	must(t, err)
	_, err = s.shipOrder("SO-E", stockroom.ShipRequest{})
	must(t, err)
	es := about(s.since(n), subject)
	wantTypes(t, "SO-E", eventTypes(es), so("created"), so("committed"), so("updated"), so("packed"), so("shipped"),
		so("committed"), so("shipped"), so("closed"))
	var last stockroom.ShippingOrder
	must(t, json.Unmarshal(es[len(es)-1].Data, &last))
	if last.Status != stockroom.OrderClosed || last.Lines[0].UnitsShipped != u(4) || last.CustomerID == 0 || es[0].WID != 1 || es[0].Owner != stockroom.HouseOwner {
		t.Errorf("shippingorder.closed %+v: %s", es[len(es)-1], es[len(es)-1].Data)
	}
	s.wantUnseen(t, limitedTo(2, stockroom.HouseOwner), subject)

	n = len(s.events(everyEvent))
	s.insertShippingOrderForTest("SO-C", soLine(s.a.PartNo, 1, u(1)))
	_, err = s.endOrder("SO-C", true)
	must(t, err)
	s.insertShippingOrderForTest("SO-D", soLine(s.a.PartNo, 1, u(1)))
	_, err = s.endOrder("SO-D", false)
	must(t, err)
	wantTypes(t, "SO-C", s.typesOf(n, stockroom.EventSubject{Kind: "shippingorder", ID: "SO-C"}), so("created"), so("canceled"))
	wantTypes(t, "SO-D", s.typesOf(n, stockroom.EventSubject{Kind: "shippingorder", ID: "SO-D"}), so("created"), so("closed"))
}

// testWorkOrderEvents: a work order's placing, commit, completion (which
// closes it) and cancel append their events; a refused completion none.
func (h *harness) testWorkOrderEvents(t *testing.T) {
	s := h.openStock(t)
	s.receive(s.a.PartNo, 1, "X", u(10))
	subject := stockroom.EventSubject{Kind: "workorder", ID: "WO-E"}
	n := len(s.events(everyEvent))
	s.placeWorkOrder("WO-E", u(2), comp(s.a.PartNo, u(2)))
	_, err := s.CommitOrder(ctx, nil, s.act(stockroom.OrderKindWork, "WO-E", everyone), stockroom.CommitRequest{})
	must(t, err)
	_, err = s.complete("WO-E", u(3))
	wantCode(t, err, stockroom.ECONFLICT)
	_, err = s.complete("WO-E", u(2))
	must(t, err)
	es := about(s.since(n), subject)
	wantTypes(t, "WO-E", eventTypes(es), wo("created"), wo("committed"), wo("completed"), wo("closed"))
	var done stockroom.WorkOrder
	must(t, json.Unmarshal(es[2].Data, &done))
	if done.UnitsCompleted != u(2) || done.ItemID != "B" || len(done.Lines) != 1 || es[2].WID != 1 {
		t.Errorf("workorder.completed %+v: %s", es[2], es[2].Data)
	}
	s.wantUnseen(t, limitedTo(2, stockroom.HouseOwner), subject)

	n = len(s.events(everyEvent))
	s.placeWorkOrder("WO-C", u(1), comp(s.a.PartNo, u(1)))
	_, err = s.EndOutboundOrder(ctx, nil, s.act(stockroom.OrderKindWork, "WO-C", everyone), true)
	must(t, err)
	wantTypes(t, "WO-C", s.typesOf(n, stockroom.EventSubject{Kind: "workorder", ID: "WO-C"}), wo("created"), wo("canceled"))
}

// testTransitEvents: a transfer's receipt and a transfer's cancel append
// transit.received and transit.canceled with both ends; a notice's ship
// and receipt append the transit's events and its purchase order's; a
// refused receipt appends nothing; a client of neither end sees none.
func (h *harness) testTransitEvents(t *testing.T) {
	s := h.openStock(t)
	s.receive(s.a.PartNo, 1, "X", u(10))
	ship := s.transfer(s.a.PartNo, u(4), "R")
	subject := stockroom.EventSubject{Kind: "transit", ID: jsonInt(*ship.TransitID)}
	n := len(s.events(everyEvent))
	_, err := s.receiveTransit(*ship.TransitID, stockroom.TransitReceiveLine{Line: 9, Units: up(1)})
	if err == nil {
		t.Fatal("a receipt of a line the transit lacks was taken")
	}
	_, err = s.receiveTransit(*ship.TransitID)
	must(t, err)
	es := about(s.since(n), subject)
	wantTypes(t, "received", eventTypes(es), stockroom.EventTransitReceived)
	var got stockroom.TransitReceiveResult
	must(t, json.Unmarshal(es[0].Data, &got))
	if es[0].WID != 1 || es[0].ToWID == nil || *es[0].ToWID != 2 || got.Transit.Status != stockroom.TransitReceived || len(got.Lines) != 1 {
		t.Errorf("transit.received %+v: %s", es[0], es[0].Data)
	}
	s.wantUnseen(t, limitedTo(3, stockroom.HouseOwner), subject)

	other := s.transfer(s.a.PartNo, u(1), "R")
	n = len(s.events(everyEvent))
	_, err = s.CancelTransit(ctx, nil, stockroom.TransitAction{ID: *other.TransitID, Entry: s.entry()}, allowTransit)
	must(t, err)
	wantTypes(t, "canceled", s.typesOf(n, stockroom.EventSubject{Kind: "transit", ID: jsonInt(*other.TransitID)}), stockroom.EventTransitCanceled)

	s.placeOrder()
	n = len(s.events(everyEvent))
	tr, err := s.ship("ASN-1", stockroom.ShipNoticeLine{Line: 1, Units: u(100)})
	must(t, err)
	_, err = s.receiveTransit(tr.ID)
	must(t, err)
	notice := stockroom.EventSubject{Kind: "transit", ID: jsonInt(tr.ID)}
	wantTypes(t, "notice", s.typesOf(n, notice), stockroom.EventTransitShipped, stockroom.EventTransitReceived)
	wantTypes(t, "notice's order", s.typesOf(n, stockroom.EventSubject{Kind: "purchaseorder", ID: "PO-1"}),
		po("updated"), po("updated"), po("received"), po("received"))
	if e := about(s.since(n), notice)[0]; e.WID != 2 || e.ToWID != nil {
		t.Errorf("a notice's transit.shipped at warehouse %d (to %v), want its destination 2", e.WID, e.ToWID)
	}
}

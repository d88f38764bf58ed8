package storetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

// testBatchReceipts holds a run of receipts in one atomic batch
// (ApplyStock; on PostgreSQL one statement per kind) to the same receipts
// sent one at a time: the same lots, numbers, ledger and levels, each
// receipt's inventory.received event in order after one stocklevel.changed
// per item, warehouse and owner (in the order of its first receipt) with
// the figures the singles end with; and a refusal anywhere in the run
// names that receipt and changes nothing.
func (h *harness) testBatchReceipts(t *testing.T) {
	batch, each := h.openStock(t), h.openStock(t)
	var fx [2]runFixture
	for i, s := range []*stockDB{batch, each} {
		fx[i] = newRunFixture(t, s)
	}
	rs, entries := fx[0].receipts(), runEntries(12)
	changes := make([]stockroom.StockChange, len(rs))
	for i := range rs {
		changes[i] = stockroom.StockChange{Receipt: &rs[i], Entry: entries[i], Status: 201}
	}
	before := len(batch.events(everyEvent))
	got, failed, err := batch.ApplyStock(ctx, nil, changes, nil)
	if err != nil {
		t.Fatalf("ApplyStock: receipt %d: %v", failed, err)
	}
	eachBefore := len(each.events(everyEvent))
	for i, r := range fx[1].receipts() {
		want, err := each.Receive(ctx, nil, r, entries[i])
		must(t, err)
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("receipt %d in a batch:\n%+v\nalone:\n%+v", i, got[i], want)
		}
	}
	if a, b := batch.ledger(), each.ledger(); !reflect.DeepEqual(a, b) {
		t.Errorf("ledger after the batch:\n%+v\nafter the singles:\n%+v", a, b)
	}
	wantRunEvents(t, batch.since(before), each.since(eachBefore), rs, entries[0].ClientID)
	batch.audit()
	each.audit()
	fx[0].refusals(t, batch)
}

// runFixture is what testBatchReceipts' receipts name besides items A and
// B: item C, whose default owner is customer cust, a discontinued item, a
// customer no longer active.
type runFixture struct {
	s          *stockDB
	c, gone    stockroom.Item
	cust, idle stockroom.Party
	expires    time.Time
}

func newRunFixture(t *testing.T, s *stockDB) runFixture {
	f := runFixture{s: s, cust: newParty(stockroom.Customer, "CUST", t0), idle: newParty(stockroom.Customer, "IDLE", t0)}
	f.idle.Active = false
	must(t, s.CreateParties(ctx, []*stockroom.Party{&f.cust, &f.idle}, nil))
	f.c, f.gone = newItem("C", t0), newItem("GONE", t0)
	f.c.DfltOwner, f.gone.Discontinued = f.cust.ID, true
	must(t, s.CreateItem(ctx, nil, &f.c))
	must(t, s.CreateItem(ctx, nil, &f.gone))
	f.expires = t0.Add(90 * 24 * time.Hour)
	return f
}

// receipt is a receipt of units of part into wid for owner, with a spot,
// serial and reference of its own.
func (f runFixture) receipt(i int, part, wid, owner int64, units int64) stockroom.Receipt {
	return stockroom.Receipt{PartNo: part, Owner: owner, ReceiveRequest: stockroom.ReceiveRequest{
		WID: wid, Units: u(units), Spot: fmt.Sprint("S", i%3), Serial: fmt.Sprint("SN", i), Reference: fmt.Sprint("R", i),
		Price: u(int64(i)), NetWeight: u(2), ReasonCode: 1}}
}

// receipts are twelve receipts over three items, both warehouses and two
// owners (one by the item's default), some keys received more than once.
func (f runFixture) receipts() []stockroom.Receipt {
	a, b, c, cust := f.s.a.PartNo, f.s.b.PartNo, f.c.PartNo, f.cust.ID
	keys := [][3]int64{{b, 2, 0}, {a, 1, 0}, {c, 1, cust}, {a, 1, 0}, {a, 2, cust}, {b, 2, 0},
		{c, 1, cust}, {a, 1, 0}, {b, 1, 0}, {c, 2, cust}, {a, 2, cust}, {b, 2, 0}}
	rs := make([]stockroom.Receipt, len(keys))
	for i, k := range keys {
		rs[i] = f.receipt(i, k[0], k[1], k[2], int64(i+1))
		rs[i].OwnerIsDefault = k[0] == c
	}
	rs[4].Expires = &f.expires
	return rs
}

// runEntries are n ledger entries of one time (a batch's lots take its
// first entry's), each with a reference, remark and details of its own.
func runEntries(n int) []stockroom.LedgerEntry {
	es := make([]stockroom.LedgerEntry, n)
	for i := range es {
		es[i] = stockroom.LedgerEntry{ClientID: fmt.Sprint("client", i%2), Time: t0.Add(time.Hour), Reference: fmt.Sprint("E", i),
			Remark: fmt.Sprint("remark ", i), ReasonCode: int64(i % 2), Details: map[string]any{"n": i}}
	}
	return es
}

// ledger is every ledger entry, newest first.
func (s *stockDB) ledger() []stockroom.Transaction {
	s.t.Helper()
	p, err := s.ListTransactions(ctx, stockroom.Scope{All: true}, stockroom.TransactionFilter{}, stockroom.PageRequest{Page: 1, PageSize: 250})
	must(s.t, err)
	return p.Items
}

// wantRunEvents holds a batch's events to its receipts rs': one
// stocklevel.changed per item, warehouse and owner in the order of its
// first receipt, as the singles' last of it but made by the batch's first
// entry's client, then the singles' inventory.received, in order.
func wantRunEvents(t *testing.T, batch, singles []stockroom.Event, rs []stockroom.Receipt, client string) {
	t.Helper()
	type key struct {
		wid, owner int64
		subject    string
	}
	last := map[key]stockroom.Event{}
	var received []stockroom.Event
	for _, e := range singles {
		switch e.Type {
		case stockroom.EventStockLevelChanged:
			last[key{e.WID, e.Owner, e.Subject.ID}] = e
		case stockroom.EventReceived:
			received = append(received, e)
		}
	}
	var want []stockroom.Event
	seen := map[key]bool{}
	for _, e := range singles {
		k := key{e.WID, e.Owner, e.Subject.ID}
		if e.Type == stockroom.EventStockLevelChanged && !seen[k] {
			seen[k] = true
			want = append(want, last[k])
		}
	}
	want = append(want, received...)
	if len(received) != len(rs) || len(batch) != len(want) {
		t.Fatalf("batch appended %d events, want %d (%d receipts)", len(batch), len(want), len(rs))
	}
	for i, w := range want {
		g, data := batch[i], string(batch[i].Data)
		if w.Type == stockroom.EventStockLevelChanged {
			// A batch's level events are its first entry's; one level's
			// modified time moves on a microsecond a change of one time.
			w.ClientID, data = client, levelFigures(t, g.Data)
			w.Data = []byte(levelFigures(t, w.Data))
		}
		if g.Type != w.Type || g.WID != w.WID || g.Owner != w.Owner || g.Subject != w.Subject ||
			g.ClientID != w.ClientID || !g.Time.Equal(w.Time) || data != string(w.Data) {
			t.Errorf("event %d of the batch:\n%+v %s\nwant\n%+v %s", i, g, g.Data, w, w.Data)
		}
	}
}

// levelFigures is a stocklevel.changed event's data without its modified
// time.
func levelFigures(t *testing.T, data []byte) string {
	var l stockroom.StockLevel
	must(t, json.Unmarshal(data, &l))
	l.Modified = time.Time{}
	return fmt.Sprintf("%+v", l)
}

// refusals sends batches of receipts each with one that is refused, at
// different places in the run, and wants each refused at that receipt and
// nothing changed.
func (f runFixture) refusals(t *testing.T, s *stockDB) {
	ok := f.receipts()[:5]
	wrongDefault := f.receipt(9, f.c.PartNo, 1, 0, 1)
	wrongDefault.OwnerIsDefault = true
	for _, c := range []struct {
		at   int
		bad  stockroom.Receipt
		want error
	}{
		{0, f.receipt(9, f.gone.PartNo, 1, 0, 1), stockroom.ErrDiscontinued},
		{3, f.receipt(9, f.s.a.PartNo, 1, f.idle.ID, 1), stockroom.ErrOwnerInactive},
		{5, wrongDefault, stockroom.ErrDefaultOwnerChanged},
	} {
		rs := append(append(append([]stockroom.Receipt{}, ok[:c.at]...), c.bad), ok[c.at:]...)
		changes := make([]stockroom.StockChange, len(rs))
		entries := runEntries(len(rs))
		for i := range rs {
			changes[i] = stockroom.StockChange{Receipt: &rs[i], Entry: entries[i], Status: 201}
		}
		lots, ledger, before := s.lotCount(), s.ledger(), len(s.events(everyEvent))
		_, failed, err := s.ApplyStock(ctx, nil, changes, nil)
		if failed != c.at || !errors.Is(err, c.want) {
			t.Errorf("batch with receipt %d refused: refused %d, %v; want %d, %v", c.at, failed, err, c.at, c.want)
		}
		if s.lotCount() != lots || !reflect.DeepEqual(s.ledger(), ledger) || len(s.since(before)) != 0 {
			t.Errorf("a refused batch (receipt %d) changed lots, ledger or events", c.at)
		}
		s.audit()
	}
}

// lotCount is the number of lots.
func (s *stockDB) lotCount() int {
	s.t.Helper()
	p, err := s.ListLots(ctx, stockroom.Scope{All: true}, stockroom.LotFilter{IncludeShipped: true}, stockroom.PageRequest{Page: 1, PageSize: 1})
	must(s.t, err)
	return int(p.Total)
}

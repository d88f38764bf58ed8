package storetest

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

// everyEvent is a filter that sees the whole feed.
var everyEvent = stockroom.EventFilter{Limit: stockroom.MaxEventLimit, Warehouses: stockroom.Scope{All: true}}

// events reads the whole feed f sees after f.After, page by page.
func (s *stockDB) events(f stockroom.EventFilter) []stockroom.Event {
	s.t.Helper()
	var all []stockroom.Event
	deadline := time.Now().Add(time.Minute)
	for {
		r, err := s.ReadEvents(ctx, f)
		must(s.t, err)
		if r.Behind && time.Now().Before(deadline) {
			// PostgreSQL: a transaction older than the events read, of
			// any database of the server (another test's), still runs.
			time.Sleep(20 * time.Millisecond)
			continue
		}
		more := len(r.Events) > f.Limit
		if more {
			r.Events = r.Events[:f.Limit]
		}
		all = append(all, r.Events...)
		if !more {
			return all
		}
		var v stockroom.Validation
		f.After = stockroom.ParseEventCursor(r.Events[len(r.Events)-1].ID, "id", &v)
	}
}

func eventTypes(es []stockroom.Event) []stockroom.EventType {
	out := make([]stockroom.EventType, len(es))
	for i, e := range es {
		out[i] = e.Type
	}
	return out
}

func (h *harness) testEvents(t *testing.T) {
	t.Run("StockOperationsAppendTheirEvents", h.testStockEvents)
	t.Run("RefusedWritesAppendNothing", h.testRefusedWritesAppendNoEvents)
	t.Run("ScopeFilters", h.testEventScope)
	t.Run("ItemsAndAliases", h.testItemEvents)
	t.Run("PurchaseOrders", h.testPurchaseOrderEvents)
	t.Run("ShippingOrders", h.testShippingOrderEvents)
	t.Run("WorkOrders", h.testWorkOrderEvents)
	t.Run("Transits", h.testTransitEvents)
	t.Run("PruneExpiresOlderCursors", h.testEventPrune)
	t.Run("NoEventSkipped", h.testNoEventSkipped)
	t.Run("FeedOrdersXIDsAsNumbers", h.testFeedOrdersXIDsAsNumbers)
	t.Run("OtherInstancesWoken", h.testOtherInstancesWoken)
}

// testStockEvents: a receipt, an issue, a move, a hold and a release each
// append their event and one stocklevel.changed per level row of item,
// warehouse and owner changed, carrying the row's figures afterwards.
func (h *harness) testStockEvents(t *testing.T) {
	s := h.openStock(t)
	base := len(s.events(everyEvent)) // the fixture's items'
	lot := s.receive(s.a.PartNo, 1, "X", u(10))
	_, err := s.withdraw(stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: s.a.PartNo, WID: 1, Units: u(3)})
	must(t, err)
	_, err = s.withdraw(stockroom.Withdrawal{Type: stockroom.TxMove, PartNo: s.a.PartNo, WID: 1, Units: u(2), ToWID: 2, ToSpot: "Y"})
	must(t, err)
	_, err = s.SetHold(ctx, nil, stockroom.HoldChange{RecNo: lot.RecNo, Hold: true}, s.entry(), allowAll)
	must(t, err)
	_, err = s.SetHold(ctx, nil, stockroom.HoldChange{RecNo: lot.RecNo, Hold: false}, s.entry(), allowAll)
	must(t, err)

	es := s.since(base)
	want := []stockroom.EventType{
		stockroom.EventStockLevelChanged, stockroom.EventReceived,
		stockroom.EventStockLevelChanged, stockroom.EventIssued,
		stockroom.EventStockLevelChanged, stockroom.EventStockLevelChanged, stockroom.EventMoved,
		stockroom.EventStockLevelChanged, stockroom.EventHeld,
		stockroom.EventStockLevelChanged, stockroom.EventReleased,
	}
	if got := eventTypes(es); !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	for i, e := range es {
		if e.ClientID != "tester" || e.Time.IsZero() || e.ID == "" || e.Subject.ID == "" {
			t.Errorf("event %d = %+v: want the client, time, id and subject", i, e)
		}
		if i > 0 && e.ID == es[i-1].ID {
			t.Errorf("events %d and %d share id %s", i-1, i, e.ID)
		}
	}
	var received stockroom.ReceiveResult
	must(t, json.Unmarshal(es[1].Data, &received))
	if received.RecNo != lot.RecNo || es[1].Subject != (stockroom.EventSubject{Kind: "lot", ID: jsonInt(lot.RecNo)}) || es[1].WID != 1 {
		t.Errorf("inventory.received %+v (data %s), want lot %d in warehouse 1", es[1], es[1].Data, lot.RecNo)
	}
	if es[6].ToWID == nil || *es[6].ToWID != 2 || es[6].WID != 1 {
		t.Errorf("inventory.moved %+v, want from 1 to 2", es[6])
	}
	// The last stocklevel.changed of each warehouse is the level now.
	last := map[int64]stockroom.StockLevel{}
	for _, e := range es {
		if e.Type == stockroom.EventStockLevelChanged {
			var l stockroom.StockLevel
			must(t, json.Unmarshal(e.Data, &l))
			last[e.WID] = l
		}
	}
	for _, wid := range []int64{1, 2} {
		got, now := last[wid], s.level(s.a.PartNo, wid)
		if got.InStock != now.InStock || got.OnHold != now.OnHold || got.Available != now.Available || got.ShortID != "A" || !got.Modified.Equal(now.Modified) {
			t.Errorf("warehouse %d: last stocklevel.changed %+v, level now %+v", wid, got, now)
		}
	}
	if got := s.events(stockroom.EventFilter{Limit: 2, Warehouses: stockroom.Scope{All: true}, Types: []stockroom.EventType{stockroom.EventMoved, stockroom.EventHeld}}); !slices.Equal(eventTypes(got), []stockroom.EventType{stockroom.EventMoved, stockroom.EventHeld}) {
		t.Errorf("types moved, held: %v", eventTypes(got))
	}
}

func jsonInt(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// testRefusedWritesAppendNoEvents: an issue short of stock, and a batch
// member that fails beside members that succeed, append nothing of
// theirs.
func (h *harness) testRefusedWritesAppendNoEvents(t *testing.T) {
	s := h.openStock(t)
	s.receive(s.a.PartNo, 1, "X", u(5))
	before := len(s.events(everyEvent))
	_, err := s.withdraw(stockroom.Withdrawal{Type: stockroom.TxIssue, PartNo: s.a.PartNo, WID: 1, Units: u(6)})
	wantCode(t, err, stockroom.ECONFLICT)
	// A hold of a lot that does not exist, after the lot was read.
	_, err = s.SetHold(ctx, nil, stockroom.HoldChange{RecNo: 999, Hold: true}, s.entry(), allowAll)
	wantCode(t, err, stockroom.ENOTFOUND)
	if got := s.events(everyEvent); len(got) != before {
		t.Fatalf("refused writes appended %v", eventTypes(got[before:]))
	}
	// A batch whose members fail before and after their statements ran,
	// between members that succeed.
	gone := newItem("GONE", t0)
	gone.Discontinued = true
	must(t, s.CreateItem(ctx, nil, &gone))
	before = len(s.events(everyEvent))
	huge := u(4_500_000_000_000) // a second one passes the largest figure kept
	s.runBatchOf([]batchMember{
		{"huge receive", s.receiveOp(ctx, s.b.PartNo, 2, huge, nil), nil},
		{"second huge receive", s.receiveOp(ctx, s.b.PartNo, 2, huge, nil), isErr(stockroom.ErrFigureTooLarge)},
		{"receive of a discontinued item", s.receiveOp(ctx, gone.PartNo, 1, u(1), nil), isErr(stockroom.ErrDiscontinued)},
		{"issue 10 of 5", s.drawOp(stockroom.TxIssue, s.a.PartNo, u(10)), isCode(stockroom.ECONFLICT)},
		{"receive 2 of A", s.receiveOp(ctx, s.a.PartNo, 2, u(2), nil), nil},
	}, nil)
	got := s.events(everyEvent)[before:]
	if len(got) != 4 {
		t.Fatalf("batch appended %v, want the two receipts' events only", eventTypes(got))
	}
	var l stockroom.StockLevel
	must(t, json.Unmarshal(got[0].Data, &l))
	if got[0].Type != stockroom.EventStockLevelChanged || l.InStock != huge || l.PartNo != s.b.PartNo {
		t.Fatalf("first event %s %s, want B's level with the one huge receipt", got[0].Type, got[0].Data)
	}
}

// testEventScope: a reader limited to a warehouse or an owner sees nothing
// of another's.
func (h *harness) testEventScope(t *testing.T) {
	s := h.openStock(t)
	owners := s.ownersMix()
	mine, theirs := owners[1], owners[2]
	start := s.cursorNow() // after the fixture's items'
	for _, r := range []struct {
		wid, owner int64
	}{{1, mine}, {2, mine}, {1, theirs}, {2, stockroom.HouseOwner}} {
		_, err := s.Receive(ctx, nil, stockroom.Receipt{PartNo: s.a.PartNo, Owner: r.owner, ReceiveRequest: stockroom.ReceiveRequest{WID: r.wid, Units: u(1)}}, s.entry())
		must(t, err)
	}
	_, err := s.withdraw(stockroom.Withdrawal{Type: stockroom.TxMove, PartNo: s.a.PartNo, WID: 1, Owner: theirs, Units: u(1), ToWID: 2})
	must(t, err)
	for _, tc := range []struct {
		name   string
		f      stockroom.EventFilter
		wid    []int64
		owners []int64
		n      int
	}{
		{"Warehouse2", stockroom.EventFilter{Warehouses: stockroom.Scope{IDs: []int64{2}}}, []int64{2}, nil, 6},
		{"Mine", stockroom.EventFilter{Warehouses: stockroom.Scope{All: true}, Owners: &stockroom.Scope{IDs: []int64{mine}}}, nil, []int64{mine}, 4},
		{"MineInWarehouse1", stockroom.EventFilter{Warehouses: stockroom.Scope{IDs: []int64{1}}, Owners: &stockroom.Scope{IDs: []int64{mine}}}, []int64{1}, []int64{mine}, 2},
		{"Nothing", stockroom.EventFilter{Warehouses: stockroom.Scope{IDs: []int64{}}}, []int64{}, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.f.Limit, tc.f.After = 100, start
			got := s.events(tc.f)
			for _, e := range got {
				inWID := tc.wid == nil || slices.Contains(tc.wid, e.WID) || e.ToWID != nil && slices.Contains(tc.wid, *e.ToWID)
				if !inWID || tc.owners != nil && !slices.Contains(tc.owners, e.Owner) {
					t.Errorf("sees %s of warehouse %d (to %v), owner %d", e.Type, e.WID, e.ToWID, e.Owner)
				}
			}
			if len(got) != tc.n {
				t.Errorf("sees %d events %v, want %d", len(got), eventTypes(got), tc.n)
			}
		})
	}
}

// testEventPrune: pruning takes the oldest events only, and a cursor before
// the last one pruned is expired; the start and later cursors still read.
func (h *harness) testEventPrune(t *testing.T) {
	s := h.openStock(t)
	s.receive(s.a.PartNo, 1, "X", u(1))
	s.receive(s.a.PartNo, 1, "X", u(1))
	old := s.events(everyEvent)
	s.clock = t0.Add(48 * time.Hour)
	s.receive(s.a.PartNo, 1, "X", u(1))
	n, err := s.PruneEvents(ctx, t0.Add(24*time.Hour), 3)
	must(t, err)
	if n != len(old) {
		t.Fatalf("pruned %d, want the %d old events", n, len(old))
	}
	left := s.events(everyEvent)
	if len(left) != 2 || left[0].Type != stockroom.EventStockLevelChanged || left[1].Type != stockroom.EventReceived {
		t.Fatalf("left %v, want the last receipt's", eventTypes(left))
	}
	var v stockroom.Validation
	f := everyEvent
	f.After = stockroom.ParseEventCursor(old[0].ID, "after", &v)
	_, err = s.ReadEvents(ctx, f)
	wantCode(t, err, stockroom.ECURSOREXPIRED)
	f.After = stockroom.ParseEventCursor(old[len(old)-1].ID, "after", &v)
	r, err := s.ReadEvents(ctx, f)
	must(t, err)
	if len(r.Events) != 2 {
		t.Fatalf("after the last pruned: %v", eventTypes(r.Events))
	}
}

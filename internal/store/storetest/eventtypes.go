package storetest

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/stockroom/stockroom"
)

// since reads the events appended after the first n of the feed.
func (s *stockDB) since(n int) []stockroom.Event {
	s.t.Helper()
	return s.events(everyEvent)[n:]
}

// cursorNow is the cursor after the whole feed as it is now.
func (s *stockDB) cursorNow() stockroom.EventCursor {
	s.t.Helper()
	es := s.events(everyEvent)
	if len(es) == 0 {
		return stockroom.EventCursor{}
	}
	var v stockroom.Validation
	return stockroom.ParseEventCursor(es[len(es)-1].ID, "id", &v)
}

// wantEvents fails unless es are of the types want, in order, each about
// subject, and each with the where (warehouse, owner) given.
// eventAt is where events are expected: their subject, warehouse and owner.
type eventAt struct {
	subject    stockroom.EventSubject
	wid, owner int64
}

func wantEvents(t *testing.T, es []stockroom.Event, at eventAt, want ...stockroom.EventType) {
	t.Helper()
	subject, wid, owner := at.subject, at.wid, at.owner
	if got := eventTypes(es); !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	for _, e := range es {
		if e.Subject != subject || e.WID != wid || e.Owner != owner || e.ClientID != "tester" {
			t.Errorf("%s: subject %+v, warehouse %d, owner %d, client %q; want %+v, %d, %d, tester",
				e.Type, e.Subject, e.WID, e.Owner, e.ClientID, subject, wid, owner)
		}
	}
}

// limitedTo is the filter of a client of one warehouse and one owner.
func limitedTo(wid, owner int64) stockroom.EventFilter {
	return stockroom.EventFilter{Limit: stockroom.MaxEventLimit, Warehouses: stockroom.Scope{IDs: []int64{wid}},
		Owners: &stockroom.Scope{IDs: []int64{owner}}, Catalogues: &stockroom.Scope{IDs: []int64{stockroom.HouseOwner, owner}}}
}

// wantUnseen fails if the client of f sees an event about subject.
func (s *stockDB) wantUnseen(t *testing.T, f stockroom.EventFilter, subject stockroom.EventSubject) {
	t.Helper()
	for _, e := range s.events(f) {
		if e.Subject == subject {
			t.Errorf("a client of warehouses %v, owners %v sees %s of %+v (warehouse %d, owner %d)",
				f.Warehouses, f.Owners, e.Type, e.Subject, e.WID, e.Owner)
		}
	}
}

// testItemEvents: creating, changing and discontinuing an item, and making
// and removing an alias, each append their event, with no warehouse and
// the item's catalogue as owner; a change that changes nothing, or is
// refused, appends none; a client of another catalogue sees none.
func (h *harness) testItemEvents(t *testing.T) {
	s := h.openStock(t)
	owners := s.ownersMix()
	mine, theirs := owners[1], owners[2]
	item := stockroom.EventSubject{Kind: "item", ID: "MINE"}
	start := s.cursorNow()
	n := len(s.events(everyEvent))
	it := newItem("MINE", t0)
	it.DfltOwner = mine
	must(t, s.CreateItem(ctx, nil, &it))
	es := s.since(n)
	wantEvents(t, es, eventAt{item, 0, mine}, stockroom.EventItemCreated)
	var got stockroom.Item
	must(t, json.Unmarshal(es[0].Data, &got))
	if got.PartNo != it.PartNo || got.DfltOwner != mine {
		t.Errorf("item.created data %s", es[0].Data)
	}
	dup := newItem("mine", t0)
	wantCode(t, s.CreateItem(ctx, nil, &dup), stockroom.ECONFLICT)

	n = len(s.events(everyEvent))
	update := func(fn func(*stockroom.Item) (bool, error)) error {
		_, err := s.UpdateItem(ctx, "mine", byTester, fn)
		return err
	}
	must(t, update(func(it *stockroom.Item) (bool, error) { return true, nil })) // nothing changed
	must(t, update(func(it *stockroom.Item) (bool, error) { it.Description = "new"; return true, nil }))
	must(t, update(func(it *stockroom.Item) (bool, error) { it.Discontinued = true; return true, nil }))
	must(t, update(func(it *stockroom.Item) (bool, error) { it.Discontinued = true; return true, nil })) // again
	refused := errors.New("refused")
	if err := update(func(it *stockroom.Item) (bool, error) { it.Description = "x"; return true, refused }); !errors.Is(err, refused) {
		t.Fatalf("refused update: %v", err)
	}
	es = s.since(n)
	wantEvents(t, es, eventAt{item, 0, mine}, stockroom.EventItemUpdated, stockroom.EventItemDiscontinued)
	must(t, json.Unmarshal(es[1].Data, &got))
	if got.Description != "new" || !got.Discontinued {
		t.Errorf("item.discontinued data %s", es[1].Data)
	}

	n = len(s.events(everyEvent))
	al := stockroom.Alias{Alias: "MY-ALIAS", ShortID: "mine", Created: t0, Modified: t0}
	must(t, s.CreateAlias(ctx, nil, &al, byTester, anyItem))
	again := al
	wantCode(t, s.CreateAlias(ctx, nil, &again, byTester, anyItem), stockroom.ECONFLICT)
	_, err := s.DeleteAlias(ctx, "my-alias", byTester, func(stockroom.Item) error { return refused })
	if !errors.Is(err, refused) {
		t.Fatalf("refused alias delete: %v", err)
	}
	_, err = s.DeleteAlias(ctx, "my-alias", byTester, anyItem)
	must(t, err)
	es = s.since(n)
	wantEvents(t, es, eventAt{stockroom.EventSubject{Kind: "alias", ID: "MY-ALIAS"}, 0, mine}, stockroom.EventAliasCreated, stockroom.EventAliasDeleted)
	var alias stockroom.Alias
	must(t, json.Unmarshal(es[1].Data, &alias))
	if alias.Alias != "MY-ALIAS" || alias.ShortID != "MINE" || alias.PartNo != it.PartNo {
		t.Errorf("alias.deleted data %s", es[1].Data)
	}

	s.wantUnseen(t, limitedTo(1, theirs), item)
	s.wantUnseen(t, limitedTo(1, theirs), stockroom.EventSubject{Kind: "alias", ID: "MY-ALIAS"})
	f := limitedTo(2, mine)
	f.After = start
	if got := s.events(f); len(got) != 5 {
		t.Errorf("a client of the item's catalogue sees %v, want its 5 events", eventTypes(got))
	}
}

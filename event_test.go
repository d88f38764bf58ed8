package stockroom_test

import (
	"testing"

	"github.com/stockroom/stockroom"
)

func TestEventFilterSeesAs(t *testing.T) {
	one := &stockroom.Scope{IDs: []int64{1}}
	base := stockroom.EventFilter{Limit: 100, Types: []stockroom.EventType{stockroom.EventItemCreated},
		Warehouses: stockroom.Scope{IDs: []int64{1, 2}}, Owners: one}
	same := base
	same.After, same.Limit = stockroom.EventCursor{Seq: 9}, 5
	same.Warehouses = stockroom.Scope{IDs: []int64{1, 2}}
	same.Owners = &stockroom.Scope{IDs: []int64{1}}
	if !base.SeesAs(same) {
		t.Fatal("the same scope read from another position is not the same read")
	}
	for name, change := range map[string]func(*stockroom.EventFilter){
		"warehouses":  func(f *stockroom.EventFilter) { f.Warehouses = stockroom.Scope{All: true} },
		"owners":      func(f *stockroom.EventFilter) { f.Owners = &stockroom.Scope{IDs: []int64{2}} },
		"every owner": func(f *stockroom.EventFilter) { f.Owners = nil },
		"catalogues":  func(f *stockroom.EventFilter) { f.Catalogues = one },
		"types":       func(f *stockroom.EventFilter) { f.Types = nil },
	} {
		other := base
		change(&other)
		if base.SeesAs(other) || other.SeesAs(base) {
			t.Errorf("%s changed, yet the reads see the same", name)
		}
	}
}

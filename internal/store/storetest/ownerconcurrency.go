package storetest

import (
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/testdb"
)

// testOwnerConcurrency runs the mix of testInventoryConcurrency for two
// customers and the house at once on the same items and bins, then proves
// that no owner's stock counted another's: no draw took another owner's
// lot, the audit (per item, warehouse and owner) finds nothing, and each
// owner's level is the net of its successes and the sum of its lots.
func (h *harness) testOwnerConcurrency(t *testing.T) {
	s := h.openStock(t)
	owners := s.ownersMix()
	c := newItem("C", t0)
	must(t, s.CreateItem(ctx, nil, &c))
	items := []int64{s.a.PartNo, s.b.PartNo, c.PartNo}
	m := newMixState(owners...)
	steps := 30
	if testdb.Race { // see skipSizeUnderRace: SQLite under the race detector is slow
		steps = 13
	}
	before := s.WriteStats()
	s.runMix(m, items, mixWorkers, steps, 40)
	if t.Failed() {
		return
	}
	s.checkBatched(before)
	for _, f := range m.foreign {
		t.Error(f)
	}
	s.audit()
	for i, part := range items {
		for wid := int64(1); wid <= 3; wid++ {
			var sum stockroom.Units
			for _, o := range owners {
				l := s.ownerLevel(part, wid, o)
				inLots, held := s.ownerLots(part, wid, o)
				if net := m.net[mixLot{i, wid, o}]; l.InStock != net || l.InStock != inLots || l.OnHold != held {
					t.Errorf("item %d warehouse %d owner %d: inStock %s onHold %s; its successes net %s, its lots hold %s (%s held)",
						part, wid, o, l.InStock, l.OnHold, net, inLots, held)
				}
				sum = sum.Add(l.InStock)
			}
			if l := s.level(part, wid); l.InStock != sum {
				t.Errorf("item %d warehouse %d: inStock %s over owners, the owners' levels sum to %s", part, wid, l.InStock, sum)
			}
		}
	}
	s.checkLedgerByReference(m.outcomes)
	checkMix(t, m.outcomes)
}

// ownersMix readies the fixture for the owners' mix: a third warehouse and
// two customers. It returns the owners: the house and the customers.
func (s *stockDB) ownersMix() []int64 {
	s.t.Helper()
	must(s.t, s.CreateWarehouse(ctx, stockroom.Warehouse{ID: 3, Name: "W3", Active: true, Created: t0, Modified: t0}))
	owners := []int64{stockroom.HouseOwner}
	for _, id := range []string{"ACME", "BETA"} {
		p := newParty(stockroom.Customer, id, t0)
		must(s.t, s.CreateParty(ctx, nil, &p))
		owners = append(owners, p.ID)
	}
	return owners
}

// ownerLevel is one owner's level of an item in a warehouse.
func (s *stockDB) ownerLevel(part, wid, owner int64) stockroom.StockLevel {
	s.t.Helper()
	f := stockroom.StockFilter{WID: wid, IncludeZero: true, Owners: &stockroom.Scope{IDs: []int64{owner}}}
	p, err := s.ListStockLevels(ctx, stockroom.Scope{All: true}, f, stockroom.PageRequest{Page: 1, PageSize: 250})
	must(s.t, err)
	for _, l := range p.Items {
		if l.PartNo == part {
			return l
		}
	}
	return stockroom.StockLevel{}
}

// ownerLots sums the units, and the held units, of one owner's lots of an
// item in a warehouse, failing on any lot listed of another owner.
func (s *stockDB) ownerLots(part, wid, owner int64) (units, held stockroom.Units) {
	s.t.Helper()
	f := stockroom.LotFilter{WID: wid, Owners: &stockroom.Scope{IDs: []int64{owner}}}
	for page := int64(1); ; page++ {
		p, err := s.ListLots(ctx, stockroom.Scope{All: true}, f, stockroom.PageRequest{Page: page, PageSize: 250})
		must(s.t, err)
		for _, l := range p.Items {
			if l.Owner != owner {
				s.t.Errorf("owner %d's lots list lot %d of owner %d", owner, l.RecNo, l.Owner)
			}
			if l.PartNo == part {
				units = units.Add(l.Units)
				if l.Hold {
					held = held.Add(l.Units)
				}
			}
		}
		if !p.HasMore() {
			return units, held
		}
	}
}

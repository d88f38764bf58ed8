package service

import (
	"context"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
)

// Item lookup types of GET /Item?key=K&type=T.
const (
	LookupShortID = "id"
	LookupAlias   = "alias"
)

// ListItems returns a page of the catalog: active items, or all of them.
func (s *Service) ListItems(ctx context.Context, all bool, req stockroom.PageRequest) (stockroom.Page[stockroom.Item], error) {
	return s.store.ListItems(ctx, !all, req)
}

// GetItem returns an item by PartNo, whatever its state.
func (s *Service) GetItem(ctx context.Context, partNo int64) (stockroom.Item, error) {
	return s.store.FindItem(ctx, partNo)
}

// LookupItem finds an item by ShortID (lookup "id" or "") or alias, whatever
// its state.
func (s *Service) LookupItem(ctx context.Context, key, lookup string) (stockroom.Item, error) {
	var v stockroom.Validation
	key = strings.TrimSpace(key)
	if key == "" {
		v.Add("key", "is required")
	}
	switch strings.ToLower(lookup) {
	case "", LookupShortID:
		lookup = LookupShortID
	case LookupAlias:
		lookup = LookupAlias
	default:
		v.Add("type", "must be id or alias")
	}
	if err := v.Err(); err != nil {
		return stockroom.Item{}, err
	}
	if lookup == LookupAlias {
		return s.store.FindItemByAlias(ctx, key)
	}
	return s.store.FindItemByShortID(ctx, key)
}

// ItemsInCategory returns every active item of a category, in ShortID order.
func (s *Service) ItemsInCategory(ctx context.Context, category int64) ([]stockroom.Item, error) {
	return s.store.ListItemsInCategory(ctx, category)
}

// CreateItem validates and stores a new item created by the principal.
func (s *Service) CreateItem(ctx context.Context, p *stockroom.Principal, ch stockroom.ItemChange) (stockroom.Item, error) {
	var v stockroom.Validation
	ch.Validate(&v)
	if err := v.Err(); err != nil {
		return stockroom.Item{}, err
	}
	now := s.now()
	it := stockroom.Item{ShortID: ch.ShortID, Created: now, Modified: now, CreatedBy: p.ClientID}
	ch.Apply(&it)
	if err := s.store.CreateItem(ctx, &it); err != nil {
		return stockroom.Item{}, err
	}
	return it, nil
}

// UpdateItem applies a partial update to the item named by the change's
// ShortID. partNo, shortID, created and createdBy never change; modified
// moves forward only when a value changed.
func (s *Service) UpdateItem(ctx context.Context, ch stockroom.ItemChange) (stockroom.Item, error) {
	var v stockroom.Validation
	ch.Validate(&v)
	if err := v.Err(); err != nil {
		return stockroom.Item{}, err
	}
	return s.store.UpdateItem(ctx, ch.ShortID, func(it *stockroom.Item) (bool, error) {
		if !ch.Apply(it) {
			return false, nil
		}
		it.Modified = later(s.now(), it.Modified)
		return true, nil
	})
}

// DiscontinueItem marks an item discontinued. Repeating it changes nothing
// and succeeds.
func (s *Service) DiscontinueItem(ctx context.Context, shortID string) (stockroom.Item, error) {
	yes := true
	return s.UpdateItem(ctx, stockroom.ItemChange{ShortID: shortID, Discontinued: &yes})
}

// later returns now, or a microsecond after prev if the clock (of this
// instance, against another's) has not passed prev: a modification time never
// moves backwards, so incremental sync never misses a change.
func later(now, prev time.Time) time.Time {
	if now.After(prev) {
		return now
	}
	return prev.Add(time.Microsecond)
}

// ListAliases returns a page of aliases, of one item when itemShortID is set.
func (s *Service) ListAliases(ctx context.Context, itemShortID string, req stockroom.PageRequest) (stockroom.Page[stockroom.Alias], error) {
	return s.store.ListAliases(ctx, strings.TrimSpace(itemShortID), req)
}

// CreateAlias points a new alias at the item with ShortID itemID.
func (s *Service) CreateAlias(ctx context.Context, alias, itemID string) (stockroom.Alias, error) {
	var v stockroom.Validation
	al := stockroom.Alias{Alias: strings.TrimSpace(alias)}
	itemID = strings.TrimSpace(itemID)
	stockroom.ValidateKey(&v, "alias", al.Alias)
	stockroom.ValidateKey(&v, "itemID", itemID)
	if err := v.Err(); err != nil {
		return al, err
	}
	now := s.now()
	al.Created, al.Modified = now, now
	err := s.store.CreateAlias(ctx, &al, itemID)
	return al, err
}

// DeleteAlias removes an alias.
func (s *Service) DeleteAlias(ctx context.Context, alias string) (stockroom.Alias, error) {
	return s.store.DeleteAlias(ctx, strings.TrimSpace(alias))
}

// ImportItems validates and stores many new items at once, skipping ShortIDs
// that exist, and returns how many were stored. It serves bulk loads such as
// the demo command.
func (s *Service) ImportItems(ctx context.Context, createdBy string, changes []stockroom.ItemChange) (int64, error) {
	now := s.now()
	items := make([]stockroom.Item, 0, len(changes))
	for _, ch := range changes {
		var v stockroom.Validation
		ch.Validate(&v)
		if err := v.Err(); err != nil {
			return 0, err
		}
		it := stockroom.Item{ShortID: ch.ShortID, Created: now, Modified: now, CreatedBy: createdBy}
		ch.Apply(&it)
		items = append(items, it)
	}
	return s.store.CreateItems(ctx, items)
}

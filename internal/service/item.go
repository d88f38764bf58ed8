package service

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
)

// itemStore keeps the catalog: items and their aliases.
type itemStore interface {
	CreateItem(ctx context.Context, key *stockroom.IdempotencyKey, it *stockroom.Item) error
	CreateItems(ctx context.Context, items []stockroom.Item, mark *stockroom.ImportMark) (int64, error)
	FindItem(ctx context.Context, partNo int64) (stockroom.Item, error)
	FindItemByShortID(ctx context.Context, shortID string) (stockroom.Item, error)
	FindItemByAlias(ctx context.Context, alias string) (stockroom.Item, error)
	UpdateItem(ctx context.Context, shortID string, e stockroom.LedgerEntry, fn func(*stockroom.Item) (bool, error)) (stockroom.Item, error)
	ListItems(ctx context.Context, activeOnly bool, catalogues *stockroom.Scope, req stockroom.PageRequest) (stockroom.Page[stockroom.Item], error)
	ListItemsInCategory(ctx context.Context, category int64, catalogues *stockroom.Scope) ([]stockroom.Item, error)
	CreateAlias(ctx context.Context, key *stockroom.IdempotencyKey, al *stockroom.Alias, e stockroom.LedgerEntry, check func(stockroom.Item) error) error
	DeleteAlias(ctx context.Context, alias string, e stockroom.LedgerEntry, check func(stockroom.Item) error) (stockroom.Alias, error)
	ListAliases(ctx context.Context, itemShortID string, catalogues *stockroom.Scope, req stockroom.PageRequest) (stockroom.Page[stockroom.Alias], error)
}

// Reading the catalog needs permission 11, changing it 116. A client
// limited to owners sees and keeps the catalogues owner.go says.

// Item lookup types of GET /Item?key=K&type=T.
const (
	LookupShortID = "id"
	LookupAlias   = "alias"
)

// ListItems returns a page of the catalog: active items, or all of them.
func (s *Service) ListItems(ctx context.Context, p *stockroom.Principal, all bool, req Request[stockroom.PageRequest]) (stockroom.Page[stockroom.Item], error) {
	if err := s.admitRead(ctx, p, &req, 0); err != nil {
		return stockroom.Page[stockroom.Item]{}, err
	}
	page, err := s.db.ListItems(ctx, !all, catalogues(p), req.In)
	page.Items = itemsSeen(p, page.Items)
	return page, err
}

// GetItem returns an item by PartNo, whatever its state.
func (s *Service) GetItem(ctx context.Context, p *stockroom.Principal, req Request[int64]) (stockroom.Item, error) {
	if err := s.admitRead(ctx, p, &req, 0); err != nil {
		return stockroom.Item{}, err
	}
	partNo := req.In
	it, err := s.db.FindItem(ctx, partNo)
	it, err = itemSeen(p, it, err)
	return it, noItem(err, "partNo", formatInt(partNo))
}

// itemSeen is an item found for the client as it sees it: one of a
// catalogue it does not see is not found.
func itemSeen(p *stockroom.Principal, it stockroom.Item, err error) (stockroom.Item, error) {
	if err == nil && !seesItem(p, it.DfltOwner) {
		return stockroom.Item{}, stockroom.ErrNotFound
	}
	it.CreatedBy = clientSeen(p, it.CreatedBy)
	return it, err
}

// ItemLookup is a request for one item by ShortID or alias.
type ItemLookup struct {
	Key  string
	Type string // LookupShortID (or "") or LookupAlias
}

// LookupItem finds an item by ShortID or alias, whatever its state.
func (s *Service) LookupItem(ctx context.Context, p *stockroom.Principal, req Request[ItemLookup]) (stockroom.Item, error) {
	if err := s.admit(p, stockroom.PermItemRead, false, &req); err != nil {
		return stockroom.Item{}, err
	}
	key, v := trimmed(req.In.Key), &req.Problems
	if key == "" {
		v.Add("key", "is required")
	}
	lookup := strings.ToLower(req.In.Type)
	switch lookup {
	case "", LookupShortID:
		lookup = LookupShortID
	case LookupAlias:
	default:
		v.Add("type", "must be id or alias")
	}
	if err := v.Err(); err != nil {
		return stockroom.Item{}, err
	}
	if lookup == LookupAlias {
		it, err := s.db.FindItemByAlias(ctx, key)
		it, err = itemSeen(p, it, err)
		return it, noItem(err, "alias", quote(key))
	}
	it, err := s.db.FindItemByShortID(ctx, key)
	it, err = itemSeen(p, it, err)
	return it, noItem(err, "ShortID", quote(key))
}

// ItemsInCategory returns every active item of a category, in ShortID order.
func (s *Service) ItemsInCategory(ctx context.Context, p *stockroom.Principal, req Request[int64]) ([]stockroom.Item, error) {
	if err := s.admitRead(ctx, p, &req, 0); err != nil {
		return nil, err
	}
	items, err := s.db.ListItemsInCategory(ctx, req.In, catalogues(p))
	return itemsSeen(p, items), err
}

// CreateItem validates and stores a new item created by the principal, in
// the catalogue newItemOwner says, which the client must keep.
func (s *Service) CreateItem(ctx context.Context, p *stockroom.Principal, req Request[stockroom.ItemChange]) (stockroom.Item, error) {
	it, err := s.prepareItem(ctx, p, &req)
	if err != nil {
		return stockroom.Item{}, err
	}
	if err := s.db.CreateItem(ctx, req.Key, &it); err != nil {
		if errors.Is(err, stockroom.ErrDuplicate) {
			err = itemExists(it.ShortID)
		}
		return stockroom.Item{}, err
	}
	return it, nil
}

// prepareItem judges a new item (permission, fields, the records it names,
// the catalogue) and makes it, unstored.
func (s *Service) prepareItem(ctx context.Context, p *stockroom.Principal, req *Request[stockroom.ItemChange]) (stockroom.Item, error) {
	if err := s.admit(p, stockroom.PermItemWrite, true, req); err != nil {
		return stockroom.Item{}, err
	}
	ch := req.In
	ch.Validate(&req.Problems)
	if !req.Problems.Has("dfltOwner") {
		ch.DfltOwner = new(newItemOwner(p, ch.DfltOwner))
	}
	if err := s.checkItemReferences(ctx, p.Owners, &req.Problems, ch); err != nil {
		return stockroom.Item{}, err
	}
	if err := req.Problems.Err(); err != nil {
		return stockroom.Item{}, err
	}
	if err := authorizeCatalogue(p, *ch.DfltOwner); err != nil {
		return stockroom.Item{}, err
	}
	now := s.now()
	it := stockroom.Item{ShortID: ch.ShortID, Created: now, Modified: now, CreatedBy: p.ClientID}
	ch.Apply(&it)
	return it, nil
}

// itemExists is the refusal of a new item whose ShortID is taken.
func itemExists(shortID string) error {
	return stockroom.Errorf(stockroom.ECONFLICT, "An item with ShortID %q already exists.", shortID)
}

// UpdateItem applies a partial update to the item named by the change's
// ShortID. partNo, shortID, created and createdBy never change; modified
// moves forward only when a value changed. A new dfltOwner must be a
// catalogue the client keeps (403, with scope), and so must the item's
// current one, judged on the row the update locks: an item the client does
// not see is not found.
func (s *Service) UpdateItem(ctx context.Context, p *stockroom.Principal, req Request[stockroom.ItemChange]) (stockroom.Item, error) {
	if err := s.admit(p, stockroom.PermItemWrite, true, &req); err != nil {
		return stockroom.Item{}, err
	}
	ch := req.In
	ch.Validate(&req.Problems)
	if err := s.checkItemReferences(ctx, p.Owners, &req.Problems, ch); err != nil {
		return stockroom.Item{}, err
	}
	if err := req.Problems.Err(); err != nil {
		return stockroom.Item{}, err
	}
	if ch.DfltOwner != nil {
		if err := authorizeCatalogue(p, *ch.DfltOwner); err != nil {
			return stockroom.Item{}, err
		}
	}
	return s.updateItem(ctx, p, ch)
}

func (s *Service) updateItem(ctx context.Context, p *stockroom.Principal, ch stockroom.ItemChange) (stockroom.Item, error) {
	e := s.entry(p, 0, "", "", nil)
	it, err := s.db.UpdateItem(ctx, ch.ShortID, e, func(it *stockroom.Item) (bool, error) {
		if err := authorizeItemChange(p, *it); err != nil {
			return false, err
		}
		if !ch.Apply(it) {
			return false, nil
		}
		it.Modified = later(e.Time, it.Modified)
		return true, nil
	})
	if err == nil {
		s.defaultOwners.put(it.PartNo, it.DfltOwner)
	}
	return it, noItem(err, "ShortID", quote(ch.ShortID))
}

// DiscontinueItem marks an item discontinued. Repeating it changes nothing
// and succeeds.
func (s *Service) DiscontinueItem(ctx context.Context, p *stockroom.Principal, req Request[string]) (stockroom.Item, error) {
	if err := s.admit(p, stockroom.PermItemWrite, true, &req); err != nil {
		return stockroom.Item{}, err
	}
	if err := req.problems(); err != nil {
		return stockroom.Item{}, err
	}
	yes := true
	return s.updateItem(ctx, p, stockroom.ItemChange{ShortID: trimmed(req.In), Discontinued: &yes})
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

// AliasQuery is a request for a page of aliases, of one item when ItemID is
// set.
type AliasQuery struct {
	ItemID string
	Page   stockroom.PageRequest
}

// ListAliases returns a page of the aliases of the items the client sees.
func (s *Service) ListAliases(ctx context.Context, p *stockroom.Principal, req Request[AliasQuery]) (stockroom.Page[stockroom.Alias], error) {
	if err := s.admitRead(ctx, p, &req, 0); err != nil {
		return stockroom.Page[stockroom.Alias]{}, err
	}
	return s.db.ListAliases(ctx, trimmed(req.In.ItemID), catalogues(p), req.In.Page)
}

// AliasRequest asks for a new alias of an item.
type AliasRequest struct {
	Alias  string `json:"alias"`
	ItemID string `json:"itemID"`
}

// CreateAlias points a new alias at an item of a catalogue the client
// keeps (authorizeItemChange).
func (s *Service) CreateAlias(ctx context.Context, p *stockroom.Principal, req Request[AliasRequest]) (stockroom.Alias, error) {
	if err := s.admit(p, stockroom.PermItemWrite, true, &req); err != nil {
		return stockroom.Alias{}, err
	}
	v := &req.Problems
	al := stockroom.Alias{Alias: trimmed(req.In.Alias)}
	itemID := trimmed(req.In.ItemID)
	stockroom.ValidateKey(v, "alias", al.Alias)
	stockroom.ValidateKey(v, "itemID", itemID)
	if err := v.Err(); err != nil {
		return al, err
	}
	e := s.entry(p, 0, "", "", nil)
	al.Created, al.Modified, al.ShortID = e.Time, e.Time, itemID
	err := s.db.CreateAlias(ctx, req.Key, &al, e, func(it stockroom.Item) error { return authorizeItemChange(p, it) })
	switch {
	case errors.Is(err, stockroom.ErrDuplicate):
		err = stockroom.Errorf(stockroom.ECONFLICT, "Alias %q already exists.", al.Alias)
	case err != nil:
		err = noItem(err, "ShortID", quote(itemID))
	}
	return al, err
}

// DeleteAlias removes an alias of an item of a catalogue the client keeps
// (authorizeItemChange); an alias of an item it does not see is not found.
func (s *Service) DeleteAlias(ctx context.Context, p *stockroom.Principal, req Request[string]) (stockroom.Alias, error) {
	if err := s.admit(p, stockroom.PermItemWrite, true, &req); err != nil {
		return stockroom.Alias{}, err
	}
	if err := req.problems(); err != nil {
		return stockroom.Alias{}, err
	}
	alias := req.In
	al, err := s.db.DeleteAlias(ctx, trimmed(alias), s.entry(p, 0, "", "", nil), func(it stockroom.Item) error { return authorizeItemChange(p, it) })
	if errors.Is(err, stockroom.ErrNotFound) {
		err = stockroom.Errorf(stockroom.ENOTFOUND, "No alias %q.", trimmed(alias))
	}
	return al, err
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
		// An operator's bulk load: every owner may be named.
		if err := s.checkItemReferences(ctx, stockroom.Scope{All: true}, &v, ch); err != nil {
			return 0, err
		}
		if err := v.Err(); err != nil {
			return 0, err
		}
		it := stockroom.Item{ShortID: ch.ShortID, Created: now, Modified: now, CreatedBy: createdBy}
		ch.Apply(&it)
		items = append(items, it)
	}
	return s.db.CreateItems(ctx, items, nil)
}

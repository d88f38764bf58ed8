package service

import (
	"context"
	"errors"

	"github.com/stockroom/stockroom"
)

// Categories (contract §9): reading needs permission 11, writing 116. They
// are the house's: every client reads them, and a client limited to owners
// does not change them (authorizeHouseRecord).

// ListCategories returns a page of categories: active ones, or all of them.
func (s *Service) ListCategories(ctx context.Context, p *stockroom.Principal, all bool, req Request[stockroom.PageRequest]) (stockroom.Page[stockroom.Category], error) {
	if err := s.admitRead(ctx, p, &req, 0); err != nil {
		return stockroom.Page[stockroom.Category]{}, err
	}
	return s.db.ListCategories(ctx, !all, req.In)
}

// GetCategory returns a category by id, whatever its state.
func (s *Service) GetCategory(ctx context.Context, p *stockroom.Principal, req Request[int64]) (stockroom.Category, error) {
	if err := s.admitRead(ctx, p, &req, 0); err != nil {
		return stockroom.Category{}, err
	}
	c, err := s.db.FindCategory(ctx, req.In)
	return c, noCategory(err, req.In)
}

// CreateCategory validates and stores a new category; without a
// categoryID it takes the next after the largest.
func (s *Service) CreateCategory(ctx context.Context, p *stockroom.Principal, req Request[stockroom.CategoryChange]) (stockroom.Category, error) {
	if err := s.admit(p, stockroom.PermItemWrite, true, &req); err != nil {
		return stockroom.Category{}, err
	}
	ch := req.In
	ch.Validate(&req.Problems, true)
	if err := req.Problems.Err(); err != nil {
		return stockroom.Category{}, err
	}
	if err := authorizeHouseRecord(p); err != nil {
		return stockroom.Category{}, err
	}
	now := s.now()
	c := stockroom.Category{CategoryID: ch.CategoryID, Active: true, Created: now, Modified: now}
	ch.Apply(&c)
	if err := s.db.CreateCategory(ctx, req.Key, &c); err != nil {
		if errors.Is(err, stockroom.ErrDuplicate) {
			err = stockroom.Errorf(stockroom.ECONFLICT, "Category %d already exists.", c.CategoryID)
		}
		return stockroom.Category{}, err
	}
	s.categories.Store(c.CategoryID, struct{}{})
	return c, nil
}

// UpdateCategory applies a partial update to the category named by the
// change's categoryID; modified moves forward only when a value changed.
func (s *Service) UpdateCategory(ctx context.Context, p *stockroom.Principal, req Request[stockroom.CategoryChange]) (stockroom.Category, error) {
	if err := s.admit(p, stockroom.PermItemWrite, true, &req); err != nil {
		return stockroom.Category{}, err
	}
	ch := req.In
	ch.Validate(&req.Problems, false)
	if err := req.Problems.Err(); err != nil {
		return stockroom.Category{}, err
	}
	if err := authorizeHouseRecord(p); err != nil {
		return stockroom.Category{}, err
	}
	return s.updateCategory(ctx, ch)
}

// DiscontinueCategory sets a category inactive. Its items keep it; it
// stays valid for them. Repeating it changes nothing and succeeds.
func (s *Service) DiscontinueCategory(ctx context.Context, p *stockroom.Principal, req Request[int64]) (stockroom.Category, error) {
	if err := s.admit(p, stockroom.PermItemWrite, true, &req); err != nil {
		return stockroom.Category{}, err
	}
	if err := req.problems(); err != nil {
		return stockroom.Category{}, err
	}
	if err := authorizeHouseRecord(p); err != nil {
		return stockroom.Category{}, err
	}
	if err := req.missing(); err != nil {
		return stockroom.Category{}, err
	}
	no := false
	return s.updateCategory(ctx, stockroom.CategoryChange{CategoryID: req.In, Active: &no})
}

func (s *Service) updateCategory(ctx context.Context, ch stockroom.CategoryChange) (stockroom.Category, error) {
	c, err := s.db.UpdateCategory(ctx, ch.CategoryID, func(c *stockroom.Category) (bool, error) {
		if !ch.Apply(c) {
			return false, nil
		}
		c.Modified = later(s.now(), c.Modified)
		return true, nil
	})
	return c, noCategory(err, ch.CategoryID)
}

// noCategory names the missing category of a lookup that found none.
func noCategory(err error, id int64) error {
	if errors.Is(err, stockroom.ErrNotFound) {
		return stockroom.Errorf(stockroom.ENOTFOUND, "No category %d.", id)
	}
	return err
}

// checkCategory adds a problem with field to v when id is neither 0 nor an
// existing category (active or not: a discontinued category still names
// its items). Categories are never deleted, so one found is remembered.
func (s *Service) checkCategory(ctx context.Context, v *stockroom.Validation, field string, id int64) error {
	if id == 0 || v.Has(field) {
		return nil
	}
	if _, ok := s.categories.Load(id); ok {
		return nil
	}
	_, err := s.db.FindCategory(ctx, id)
	switch {
	case errors.Is(err, stockroom.ErrNotFound):
		v.Add(field, "is not a category (see GET /Category)")
		return nil
	case err != nil:
		return err
	}
	s.categories.Store(id, struct{}{})
	return nil
}

// checkItemReferences checks the records an item change names: its
// category and subCategory, and its default owner.
func (s *Service) checkItemReferences(ctx context.Context, owners stockroom.Scope, v *stockroom.Validation, ch stockroom.ItemChange) error {
	for field, id := range map[string]*int64{"category": ch.Category, "subCategory": ch.SubCategory} {
		if id != nil {
			if err := s.checkCategory(ctx, v, field, *id); err != nil {
				return err
			}
		}
	}
	// An owner outside a limited client's owners is refused as such once
	// the fields pass (authorizeCatalogue), whether or not it exists.
	if ch.DfltOwner != nil && owners.Contains(*ch.DfltOwner) {
		return s.checkParty(ctx, v, partyRef{field: "dfltOwner", kind: stockroom.Customer, id: *ch.DfltOwner, seen: owners})
	}
	return nil
}

// ImportCategories stores the categories whose ids do not exist yet, for
// bulk loads such as the demo command, and returns how many it stored.
func (s *Service) ImportCategories(ctx context.Context, changes []stockroom.CategoryChange) (int64, error) {
	now := s.now()
	cs := make([]stockroom.Category, 0, len(changes))
	for _, ch := range changes {
		var v stockroom.Validation
		ch.Validate(&v, true)
		if ch.CategoryID == 0 {
			v.Add("categoryID", "is required")
		}
		if err := v.Err(); err != nil {
			return 0, err
		}
		c := stockroom.Category{CategoryID: ch.CategoryID, Active: true, Created: now, Modified: now}
		ch.Apply(&c)
		cs = append(cs, c)
	}
	return s.db.CreateCategories(ctx, cs)
}

package service

import (
	"context"
	"errors"

	"github.com/stockroom/stockroom"
)

// ownerStore keeps customers, vendors and categories: the master records
// items, lots and orders name.
type ownerStore interface {
	FindParty(ctx context.Context, kind stockroom.PartyKind, id int64) (stockroom.Party, error)
	FindPartyByShortID(ctx context.Context, kind stockroom.PartyKind, shortID string) (stockroom.Party, error)
	ListParties(ctx context.Context, kind stockroom.PartyKind, activeOnly bool, owners stockroom.Scope, req stockroom.PageRequest) (stockroom.Page[stockroom.Party], error)
	CreateParty(ctx context.Context, key *stockroom.IdempotencyKey, p *stockroom.Party) error
	CreateParties(ctx context.Context, ps []*stockroom.Party, mark *stockroom.ImportMark) error
	UpdateParty(ctx context.Context, kind stockroom.PartyKind, shortID string, fn func(*stockroom.Party) (bool, error)) (stockroom.Party, error)
	FindCategory(ctx context.Context, id int64) (stockroom.Category, error)
	ListCategories(ctx context.Context, activeOnly bool, req stockroom.PageRequest) (stockroom.Page[stockroom.Category], error)
	CreateCategory(ctx context.Context, key *stockroom.IdempotencyKey, c *stockroom.Category) error
	CreateCategories(ctx context.Context, cs []stockroom.Category) (int64, error)
	UpdateCategory(ctx context.Context, id int64, fn func(*stockroom.Category) (bool, error)) (stockroom.Category, error)
}

// Customers and vendors (contract §9): reading needs permission 11,
// writing 116. A client limited to owners sees, and changes, only the
// customers among its owners (partyScope); any other customer is not found,
// as if it did not exist, and it may not create customers. Vendors are the
// house's: every client reads them, and one limited to owners does not
// create or change them (authorizePartyWrite).

// ListParties returns a page of customers or vendors: active ones, or all
// of them.
func (s *Service) ListParties(ctx context.Context, p *stockroom.Principal, kind stockroom.PartyKind, all bool, req Request[stockroom.PageRequest]) (stockroom.Page[stockroom.Party], error) {
	if err := s.admitRead(ctx, p, &req, 0); err != nil {
		return stockroom.Page[stockroom.Party]{}, err
	}
	return s.db.ListParties(ctx, kind, !all, partyScope(p, kind), req.In)
}

// GetParty returns a customer or vendor by ShortID, whatever its state.
func (s *Service) GetParty(ctx context.Context, p *stockroom.Principal, kind stockroom.PartyKind, req Request[string]) (stockroom.Party, error) {
	if err := s.admitRead(ctx, p, &req, 0); err != nil {
		return stockroom.Party{}, err
	}
	shortID := trimmed(req.In)
	party, err := s.db.FindPartyByShortID(ctx, kind, shortID)
	if err == nil && !partyScope(p, kind).Contains(party.ID) {
		err = stockroom.ErrNotFound
	}
	return party, noParty(err, kind, shortID)
}

// CreateParty validates and stores a new customer or vendor.
func (s *Service) CreateParty(ctx context.Context, p *stockroom.Principal, kind stockroom.PartyKind, req Request[stockroom.PartyChange]) (stockroom.Party, error) {
	party, err := s.prepareParty(p, kind, &req)
	if err != nil {
		return stockroom.Party{}, err
	}
	if err := s.db.CreateParty(ctx, req.Key, &party); err != nil {
		if errors.Is(err, stockroom.ErrDuplicate) {
			err = partyExists(kind, party.ShortID)
		}
		return stockroom.Party{}, err
	}
	s.parties.Store(party.ID, kind)
	return party, nil
}

// prepareParty judges a new customer or vendor and makes it, unstored.
func (s *Service) prepareParty(p *stockroom.Principal, kind stockroom.PartyKind, req *Request[stockroom.PartyChange]) (stockroom.Party, error) {
	if err := s.admit(p, stockroom.PermItemWrite, true, req); err != nil {
		return stockroom.Party{}, err
	}
	ch := req.In
	ch.Validate(&req.Problems, true)
	if err := req.Problems.Err(); err != nil {
		return stockroom.Party{}, err
	}
	// A new customer is none of a limited client's owners; a vendor is the
	// house's.
	if err := authorizeHouseRecord(p); err != nil {
		return stockroom.Party{}, err
	}
	now := s.now()
	party := stockroom.Party{Kind: kind, ShortID: ch.ShortID, Active: true, Created: now, Modified: now}
	ch.Apply(&party)
	return party, nil
}

// partyExists is the refusal of a new customer or vendor whose ShortID is
// taken.
func partyExists(kind stockroom.PartyKind, shortID string) error {
	return stockroom.Errorf(stockroom.ECONFLICT, "A %s with ShortID %q already exists.", kind, shortID)
}

// UpdateParty applies a partial update to the customer or vendor named by
// the change's ShortID; modified moves forward only when a value changed.
func (s *Service) UpdateParty(ctx context.Context, p *stockroom.Principal, kind stockroom.PartyKind, req Request[stockroom.PartyChange]) (stockroom.Party, error) {
	if err := s.admit(p, stockroom.PermItemWrite, true, &req); err != nil {
		return stockroom.Party{}, err
	}
	ch := req.In
	ch.Validate(&req.Problems, false)
	if err := req.Problems.Err(); err != nil {
		return stockroom.Party{}, err
	}
	return s.updateParty(ctx, p, kind, ch)
}

// DiscontinueParty sets a customer or vendor inactive. Repeating it changes
// nothing and succeeds.
func (s *Service) DiscontinueParty(ctx context.Context, p *stockroom.Principal, kind stockroom.PartyKind, req Request[string]) (stockroom.Party, error) {
	if err := s.admit(p, stockroom.PermItemWrite, true, &req); err != nil {
		return stockroom.Party{}, err
	}
	if err := req.problems(); err != nil {
		return stockroom.Party{}, err
	}
	no := false
	return s.updateParty(ctx, p, kind, stockroom.PartyChange{ShortID: trimmed(req.In), Active: &no})
}

func (s *Service) updateParty(ctx context.Context, p *stockroom.Principal, kind stockroom.PartyKind, ch stockroom.PartyChange) (stockroom.Party, error) {
	if err := authorizePartyWrite(p, kind); err != nil {
		return stockroom.Party{}, err
	}
	scope := partyScope(p, kind)
	party, err := s.db.UpdateParty(ctx, kind, ch.ShortID, func(party *stockroom.Party) (bool, error) {
		if !scope.Contains(party.ID) {
			return false, stockroom.ErrNotFound
		}
		if !ch.Apply(party) {
			return false, nil
		}
		party.Modified = later(s.now(), party.Modified)
		return true, nil
	})
	return party, noParty(err, kind, ch.ShortID)
}

// noParty names the missing customer or vendor of a lookup that found none.
func noParty(err error, kind stockroom.PartyKind, shortID string) error {
	if errors.Is(err, stockroom.ErrNotFound) {
		return stockroom.Errorf(stockroom.ENOTFOUND, "No %s with ShortID %q.", kind, shortID)
	}
	return err
}

// partyRef is a field of a request that names a customer or vendor by id
// (an item's dfltOwner, an issue's shipto, a receipt's supplier): its name,
// the kind of party it names, the id given, and the parties of that kind
// the client sees.
type partyRef struct {
	field string
	kind  stockroom.PartyKind
	id    int64
	seen  stockroom.Scope
}

// checkParty adds a problem with the field to v when its id is neither 0
// nor a party of its kind among those seen: one the client does not see is
// as one that does not exist. It returns only the errors of the database.
// Parties are never deleted and never change kind, so an answer once found
// holds for good and is remembered.
func (s *Service) checkParty(ctx context.Context, v *stockroom.Validation, ref partyRef) error {
	if ref.id == 0 || v.Has(ref.field) {
		return nil
	}
	known, err := s.isParty(ctx, ref.kind, ref.id)
	if err == nil && (!known || !ref.seen.Contains(ref.id)) {
		v.Add(ref.field, "is not a "+string(ref.kind)+" (see GET /"+partyPath(ref.kind)+")")
	}
	return err
}

// partyPath is the API's resource name of a kind of party.
func partyPath(kind stockroom.PartyKind) string {
	if kind == stockroom.Vendor {
		return "Vendor"
	}
	return "Customer"
}

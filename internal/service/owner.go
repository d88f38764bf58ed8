package service

import (
	"context"
	"errors"

	"github.com/stockroom/stockroom"
)

// Owners: every lot belongs to one (a customer, or the house, 0). This file
// resolves the owner a request names, and the owner of a stock change that
// names none; whether the client may see or name an owner is scope.go's to
// say.

// ownerChoice is the owner a request names, resolved while its fields are
// validated; whether the client may name it is judged later, beside
// warehouse scope (contract §2).
type ownerChoice struct {
	named  bool  // the request names an owner
	id     int64 // the customerID named (0: the house)
	hidden bool  // an owner the client may not see, or none it could see
}

// nameOwner resolves an owner reference into a customerID (0, the house, as
// it is). For a client of every owner, a reference to no customer is a
// problem of the field, added to v with the others; a client limited to
// owners is refused any owner outside them, existing or not, so that it
// learns nothing of other customers (see authorize).
func (s *Service) nameOwner(ctx context.Context, p *stockroom.Principal, v *stockroom.Validation, ref *stockroom.OwnerRef) (ownerChoice, error) {
	return s.nameOwnerAs(ctx, p, v, "owner", ref)
}

// nameOwnerAs is nameOwner for an owner given in another field (an order
// line's, "lines[2].owner").
func (s *Service) nameOwnerAs(ctx context.Context, p *stockroom.Principal, v *stockroom.Validation, field string, ref *stockroom.OwnerRef) (ownerChoice, error) {
	switch {
	case ref == nil || v.Has(field):
		return ownerChoice{}, nil
	case ref.ShortID == "" && ref.ID < 0:
		v.Add(field, "must be a customerID, 0 or a customer ShortID")
		return ownerChoice{}, nil
	}
	c := ownerChoice{named: true, id: ref.ID}
	var err error
	switch {
	case ref.ShortID != "":
		var party stockroom.Party
		party, err = s.db.FindPartyByShortID(ctx, stockroom.Customer, ref.ShortID)
		c.id = party.ID
	case c.id < 0 || c.id > stockroom.MaxWarehouseID:
		err = stockroom.ErrNotFound
	case c.id != stockroom.HouseOwner:
		var known bool
		if known, err = s.isParty(ctx, stockroom.Customer, c.id); err == nil && !known {
			err = stockroom.ErrNotFound
		}
	}
	if err != nil && !errors.Is(err, stockroom.ErrNotFound) {
		return c, err
	}
	c.hidden = hidesOwner(p, c.id, err == nil)
	if err != nil && !c.hidden {
		v.Add(field, "is not a customer: give a customerID or customer ShortID (see GET /Customer), or 0 for the house's own stock")
	}
	return c, nil
}

// isParty reports whether id is a customer or vendor of the kind, whatever
// its state. Parties are never removed and never change kind, so one found is
// remembered.
func (s *Service) isParty(ctx context.Context, kind stockroom.PartyKind, id int64) (bool, error) {
	if k, ok := s.parties.Load(id); ok {
		return k == kind, nil
	}
	p, err := s.db.FindParty(ctx, kind, id)
	switch {
	case errors.Is(err, stockroom.ErrNotFound):
		return false, nil
	case err != nil:
		return false, err
	}
	s.parties.Store(id, p.Kind)
	return true, nil
}

// ownerView is the owners a read covers: the one asked for, which the
// client must be allowed to see, or all the client may see (nil: every
// owner).
func (s *Service) ownerView(ctx context.Context, p *stockroom.Principal, ref *stockroom.OwnerRef) (*stockroom.Scope, error) {
	if ref == nil {
		return ownersSeen(p), nil
	}
	var v stockroom.Validation
	c, err := s.nameOwner(ctx, p, &v, ref)
	if err == nil {
		err = v.Err()
	}
	if err == nil {
		err = c.authorize()
	}
	if err != nil {
		return nil, err
	}
	return &stockroom.Scope{IDs: []int64{c.id}}, nil
}

// stockOwner is the owner of a stock change: the one the request named
// (resolved and authorized already); else, for a client limited to exactly
// one owner, that owner (soleOwner); or else the item's dfltOwner as last
// seen (isDefault), which must be in the client's scope too; the store
// confirms it in the transaction. A remembered default outside the client's
// scope is read afresh before it is refused: it may have changed on another
// instance to one in scope, and the store's confirmation never sees a
// request refused here. Read afresh, an item moved to a catalogue the
// client does not see is not found (stockroom.ErrNotFound: the caller
// names the item). A sole owner that is also the item's remembered default
// is given as the default, so that the store confirms it: an item moved
// meanwhile to another owner's catalogue is then read afresh, and hidden.
func (s *Service) stockOwner(ctx context.Context, p *stockroom.Principal, named ownerChoice, partNo int64, fresh bool) (owner int64, isDefault bool, err error) {
	if named.named {
		return named.id, false, nil
	}
	sole, isSole := soleOwner(p)
	owner, ok := s.defaultOwners.get(partNo)
	if !ok || fresh || !isSole && p.AuthorizeOwner(owner) != nil {
		it, err := s.db.FindItem(ctx, partNo)
		if err != nil {
			return 0, false, err
		}
		owner = it.DfltOwner
		s.defaultOwners.put(partNo, owner)
		if !seesItem(p, owner) {
			return 0, false, stockroom.ErrNotFound
		}
	}
	if isSole {
		return sole, owner == sole, nil
	}
	return owner, true, p.AuthorizeOwner(owner)
}

// retriesOnStaleDefault bounds how often a stock change is asked again
// because the item's default owner changed under it (on another instance).
const retriesOnStaleDefault = 3

// itemsSeen is items as the client sees them: createdBy by clientSeen.
func itemsSeen(p *stockroom.Principal, items []stockroom.Item) []stockroom.Item {
	for i := range items {
		items[i].CreatedBy = clientSeen(p, items[i].CreatedBy)
	}
	return items
}

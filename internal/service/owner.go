package service

import (
	"context"
	"errors"

	"github.com/stockroom/stockroom"
)

// Owners: every lot belongs to one (a customer, or the house, 0). This file
// resolves the owner a request names and checks it against the client's
// owner scope, the one place that does.

// resolveOwner turns an owner reference into a customerID (0, the house,
// as it is). An owner the client may not see is 403 whether or not it
// exists, so a client limited to owners learns nothing of other customers;
// for any other client a reference to no customer is a validation problem,
// added to v (the result is then 0).
func (s *Service) resolveOwner(ctx context.Context, p *stockroom.Principal, v *stockroom.Validation, ref stockroom.OwnerRef) (int64, error) {
	id := ref.ID
	var err error
	switch {
	case ref.ShortID != "":
		var c stockroom.Party
		c, err = s.db.FindPartyByShortID(ctx, stockroom.Customer, ref.ShortID)
		id = c.ID
	case id < 0 || id > stockroom.MaxWarehouseID:
		err = stockroom.ErrNotFound
	case id != stockroom.HouseOwner:
		var known bool
		if known, err = s.isParty(ctx, stockroom.Customer, id); err == nil && !known {
			err = stockroom.ErrNotFound
		}
	}
	switch {
	case err != nil && !errors.Is(err, stockroom.ErrNotFound):
		return 0, err
	case !p.Owners.All && (err != nil || !p.Owners.Contains(id)):
		return 0, stockroom.Errorf(stockroom.EFORBIDDEN, stockroom.MsgOwnerOutOfScope)
	case err != nil:
		v.Add("owner", "is not a customer: give a customerID or customer ShortID (see GET /Customer), or 0 for the house's own stock")
		return 0, nil
	}
	return id, nil
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

// authorizeOwner checks an owner against the client's owner scope.
func authorizeOwner(p *stockroom.Principal, owner int64) error {
	if !p.Owners.Contains(owner) {
		return stockroom.Errorf(stockroom.EFORBIDDEN, stockroom.MsgOwnerOutOfScope)
	}
	return nil
}

// ownerView is the owners a read covers: the one asked for, which the
// client must be allowed to see, or all the client may see (nil: every
// owner).
func (s *Service) ownerView(ctx context.Context, p *stockroom.Principal, ref *stockroom.OwnerRef) (*stockroom.Scope, error) {
	if ref == nil {
		if p.Owners.All {
			return nil, nil
		}
		return &p.Owners, nil
	}
	var v stockroom.Validation
	id, err := s.resolveOwner(ctx, p, &v, *ref)
	if err == nil {
		err = v.Err()
	}
	if err != nil {
		return nil, err
	}
	return &stockroom.Scope{IDs: []int64{id}}, nil
}

// stockOwner is the owner of a stock change: the request's, resolved and in
// the client's scope, or else the item's dfltOwner as last seen (isDefault),
// which must be in scope too; the store confirms it in the transaction.
// A remembered default outside the client's scope is read afresh before it
// is refused: it may have changed on another instance to one in scope, and
// the store's confirmation never sees a request refused here.
func (s *Service) stockOwner(ctx context.Context, p *stockroom.Principal, ref *stockroom.OwnerRef, partNo int64, fresh bool) (owner int64, isDefault bool, err error) {
	if ref != nil {
		var v stockroom.Validation
		owner, err = s.resolveOwner(ctx, p, &v, *ref)
		if err == nil {
			err = v.Err()
		}
		return owner, false, err
	}
	owner, ok := s.defaultOwners.get(partNo)
	if !ok || fresh || !p.Owners.Contains(owner) {
		it, err := s.db.FindItem(ctx, partNo)
		if err != nil {
			return 0, false, err
		}
		owner = it.DfltOwner
		s.defaultOwners.put(partNo, owner)
	}
	return owner, true, authorizeOwner(p, owner)
}

// retriesOnStaleDefault bounds how often a stock change is asked again
// because the item's default owner changed under it (on another instance).
const retriesOnStaleDefault = 3

// withFreshDefault runs a stock change, and runs it again with the item's
// default owner read afresh when the store reports that the one it was given
// is stale.
func withFreshDefault[T any](do func(fresh bool) (T, error)) (T, error) {
	res, err := do(false)
	for i := 0; i < retriesOnStaleDefault && errors.Is(err, stockroom.ErrDefaultOwnerChanged); i++ {
		res, err = do(true)
	}
	return res, err
}

// ownersSeen is the owners whose records the client may see (nil: every
// owner).
func ownersSeen(p *stockroom.Principal) *stockroom.Scope {
	if p.Owners.All {
		return nil
	}
	return &p.Owners
}

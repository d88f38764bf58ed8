package service

import (
	"context"
	"errors"

	"github.com/stockroom/stockroom"
)

// UpdateClient changes an existing client's name, permissions, warehouse
// scope, owner scope or read-only flag; fields the change leaves nil stay.
// Its tokens are kept: a server looks a token's client up again at the
// latest when its authentication cache entry ends (serve --auth-cache), so
// the change reaches every server within that time, and this instance's own
// cache at once. The modification time moves forward only when a value
// changed.
func (s *Service) UpdateClient(ctx context.Context, p *stockroom.Principal, id string, ch stockroom.ClientChange) (*stockroom.Client, error) {
	if err := admitAdministrator(p); err != nil {
		return nil, err
	}
	if err := ch.Validate(); err != nil {
		return nil, err
	}
	if err := s.checkScopes(ctx, ch.Scope, ch.Owners); err != nil {
		return nil, err
	}
	defer s.auth.forget(id)
	defer s.webhooks.forget(id)
	c, err := s.db.UpdateClient(ctx, id, func(c *stockroom.Client) (bool, error) {
		if !ch.Apply(c) {
			return false, nil
		}
		c.Modified = later(s.now(), c.Modified)
		return true, nil
	})
	return c, noClient(err, id)
}

// UpdateWarehouse renames, deactivates or reactivates a warehouse; fields
// the change leaves nil stay. The modification time moves forward only when
// a value changed.
func (s *Service) UpdateWarehouse(ctx context.Context, p *stockroom.Principal, wid int64, ch stockroom.WarehouseChange) (stockroom.Warehouse, error) {
	if err := admitAdministrator(p); err != nil {
		return stockroom.Warehouse{}, err
	}
	if err := ch.Validate(wid); err != nil {
		return stockroom.Warehouse{}, err
	}
	w, err := s.db.UpdateWarehouse(ctx, wid, func(w *stockroom.Warehouse) (bool, error) {
		if !ch.Apply(w) {
			return false, nil
		}
		w.Modified = later(s.now(), w.Modified)
		return true, nil
	})
	if errors.Is(err, stockroom.ErrNotFound) {
		err = stockroom.Errorf(stockroom.ENOTFOUND, "Warehouse %d does not exist.", wid)
	}
	return w, err
}

package service

import (
	"context"
	"iter"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/auth"
)

// The operations in this file serve the admin commands. Whoever can reach the
// database is its administrator, so they take no principal.

// Bootstrap gives a fresh database warehouse 1 "Main", the default reason
// codes and an administrator client with every permission on every warehouse.
// It returns the administrator's credentials when this call created them, and
// ok=false when the database was bootstrapped before.
func (s *Service) Bootstrap(ctx context.Context) (clientID, secret string, ok bool, err error) {
	now := s.now()
	admin := &stockroom.Client{
		ID:          auth.NewClientID(),
		Name:        "Administrator",
		Permissions: stockroom.AllPermissions,
		Scope:       stockroom.Scope{All: true},
		Enabled:     true,
		Created:     now,
		Modified:    now,
	}
	secret = auth.NewSecret()
	hash, err := auth.HashSecret(secret)
	if err != nil {
		return "", "", false, err
	}
	wh := stockroom.DefaultWarehouse
	ok, err = s.store.RunBootstrap(ctx, wh, stockroom.DefaultReasonCodes, admin, hash, now)
	if err != nil || !ok {
		return "", "", false, err
	}
	return admin.ID, secret, true, nil
}

// AddWarehouse validates and stores a new warehouse.
func (s *Service) AddWarehouse(ctx context.Context, w stockroom.Warehouse) error {
	if err := w.Validate(); err != nil {
		return err
	}
	w.Active = true
	w.Created, w.Modified = s.now(), s.now()
	return s.store.CreateWarehouse(ctx, w)
}

// AllWarehouses walks every warehouse in id order.
func (s *Service) AllWarehouses(ctx context.Context) iter.Seq2[stockroom.Warehouse, error] {
	return walk(func(req stockroom.PageRequest) (stockroom.Page[stockroom.Warehouse], error) {
		return s.store.ListWarehouses(ctx, stockroom.Scope{All: true}, req)
	})
}

// AddReasonCode validates and stores a new reason code.
func (s *Service) AddReasonCode(ctx context.Context, rc stockroom.ReasonCode) error {
	if err := rc.Validate(); err != nil {
		return err
	}
	rc.Created = s.now()
	return s.store.CreateReasonCode(ctx, rc)
}

// AllReasonCodes walks every reason code in code order.
func (s *Service) AllReasonCodes(ctx context.Context) iter.Seq2[stockroom.ReasonCode, error] {
	return walk(func(req stockroom.PageRequest) (stockroom.Page[stockroom.ReasonCode], error) {
		return s.store.ListReasonCodes(ctx, req)
	})
}

// walk yields every record of a paged list, page by page.
func walk[T any](list func(stockroom.PageRequest) (stockroom.Page[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		req := stockroom.PageRequest{Page: 1, PageSize: stockroom.MaxPageSize}
		for {
			page, err := list(req)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, item := range page.Items {
				if !yield(item, nil) {
					return
				}
			}
			if !page.HasMore() {
				return
			}
			req.Page++
		}
	}
}

// NewClient is an operator's request for a client. An empty ID or Secret is
// generated.
type NewClient struct {
	ID          string
	Name        string
	Secret      string
	Permissions []stockroom.Permission
	Scope       stockroom.Scope
	ReadOnly    bool
}

// AddClient validates and stores a new client and returns its id and secret.
// The secret is not kept and cannot be shown again.
func (s *Service) AddClient(ctx context.Context, nc NewClient) (id, secret string, err error) {
	now := s.now()
	c := &stockroom.Client{
		ID:          nc.ID,
		Name:        nc.Name,
		Permissions: nc.Permissions,
		Scope:       nc.Scope,
		ReadOnly:    nc.ReadOnly,
		Enabled:     true,
		Created:     now,
		Modified:    now,
	}
	if c.ID == "" {
		c.ID = auth.NewClientID()
	}
	secret = nc.Secret
	if secret == "" {
		secret = auth.NewSecret()
	}
	if err := c.Validate(); err != nil {
		return "", "", err
	}
	if err := stockroom.ValidateSecret(secret); err != nil {
		return "", "", err
	}
	hash, err := auth.HashSecret(secret)
	if err != nil {
		return "", "", err
	}
	if err := s.store.CreateClient(ctx, c, hash); err != nil {
		return "", "", err
	}
	return c.ID, secret, nil
}

// ListClients returns every client; secrets are never read.
func (s *Service) ListClients(ctx context.Context) ([]*stockroom.Client, error) {
	return s.store.ListClients(ctx)
}

// SetClientEnabled enables or disables a client. A disabled client cannot get
// tokens, and the tokens it holds are revoked at once.
func (s *Service) SetClientEnabled(ctx context.Context, id string, enabled bool) error {
	defer s.auth.forget(id)
	return s.store.SetClientEnabled(ctx, id, enabled, s.now())
}

// RotateSecret gives a client a new generated secret and revokes its tokens.
func (s *Service) RotateSecret(ctx context.Context, id string) (string, error) {
	secret := auth.NewSecret()
	hash, err := auth.HashSecret(secret)
	if err != nil {
		return "", err
	}
	defer s.auth.forget(id)
	if err := s.store.SetClientSecret(ctx, id, hash, s.now()); err != nil {
		return "", err
	}
	return secret, nil
}

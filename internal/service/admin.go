package service

import (
	"context"
	"errors"
	"iter"
	"strconv"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/auth"
)

// adminStore keeps what the operator administers: warehouses, reason codes,
// clients, and the first start's setup.
type adminStore interface {
	RunBootstrap(ctx context.Context, b stockroom.Bootstrap) (bool, error)
	CreateWarehouse(ctx context.Context, w stockroom.Warehouse) error
	FindWarehouse(ctx context.Context, wid int64) (stockroom.Warehouse, error)
	ListWarehouses(ctx context.Context, scope stockroom.Scope, req stockroom.PageRequest) (stockroom.Page[stockroom.Warehouse], error)
	CreateReasonCode(ctx context.Context, rc stockroom.ReasonCode) error
	ListReasonCodes(ctx context.Context, req stockroom.PageRequest) (stockroom.Page[stockroom.ReasonCode], error)
	CreateClient(ctx context.Context, c *stockroom.Client, secretHash string) error
	ListClients(ctx context.Context) ([]*stockroom.Client, error)
	SetClientEnabled(ctx context.Context, id string, enabled bool, now time.Time) error
	SetClientSecret(ctx context.Context, id, secretHash string, now time.Time) error
	UpdateClient(ctx context.Context, id string, fn func(*stockroom.Client) (bool, error)) (*stockroom.Client, error)
	UpdateWarehouse(ctx context.Context, wid int64, fn func(*stockroom.Warehouse) (bool, error)) (stockroom.Warehouse, error)
	FindParty(ctx context.Context, kind stockroom.PartyKind, id int64) (stockroom.Party, error)
}

// The operations in this file serve the admin commands and the console's
// administration screen. Each takes the principal it acts for and admits
// only an administrator (admitAdministrator); the commands act as Operator,
// since whoever can reach the database is its administrator. Bootstrap
// alone takes none: it makes the first administrator.

// Operator is the principal of whoever runs the command line on the
// database: every permission over every warehouse, owner and report.
var Operator = &stockroom.Principal{ClientID: "operator", Name: "operator", Permissions: stockroom.AllPermissions,
	Scope: stockroom.Scope{All: true}, Owners: stockroom.Scope{All: true}, Reports: stockroom.Scope{All: true}}

// admitAdministrator admits a principal to the admin operations: a client
// with every permission over every warehouse and every owner, not
// read-only, as the administrator the first start creates is.
func admitAdministrator(p *stockroom.Principal) error {
	if p == nil || p.ReadOnly || !p.Scope.All || !p.Owners.All {
		return &stockroom.Error{Code: stockroom.EFORBIDDEN, Message: stockroom.MsgNotAdministrator}
	}
	for _, perm := range stockroom.AllPermissions {
		if !p.Can(perm) {
			return &stockroom.Error{Code: stockroom.EFORBIDDEN, Message: stockroom.MsgNotAdministrator}
		}
	}
	return nil
}

// Bootstrap gives a fresh database warehouse 1 "Main", the default reason
// codes and an administrator client with every permission on every warehouse
// and every owner.
// It returns the administrator's credentials when this call created them, and
// ok=false when the database was bootstrapped before.
func (s *Service) Bootstrap(ctx context.Context) (clientID, secret string, ok bool, err error) {
	now := s.now()
	admin := &stockroom.Client{
		ID:          auth.NewClientID(),
		Name:        "Administrator",
		Permissions: stockroom.AllPermissions,
		Scope:       stockroom.Scope{All: true},
		Owners:      stockroom.Scope{All: true},
		Reports:     stockroom.Scope{All: true},
		Enabled:     true,
		Created:     now,
		Modified:    now,
	}
	secret = auth.NewSecret()
	hash, err := auth.HashSecret(secret)
	if err != nil {
		return "", "", false, err
	}
	ok, err = s.db.RunBootstrap(ctx, stockroom.Bootstrap{Warehouse: stockroom.DefaultWarehouse,
		ReasonCodes: stockroom.DefaultReasonCodes, Admin: admin, SecretHash: hash, Time: now})
	if err != nil || !ok {
		return "", "", false, err
	}
	return admin.ID, secret, true, nil
}

// AddWarehouse validates and stores a new warehouse.
func (s *Service) AddWarehouse(ctx context.Context, p *stockroom.Principal, w stockroom.Warehouse) error {
	if err := admitAdministrator(p); err != nil {
		return err
	}
	if err := w.Validate(); err != nil {
		return err
	}
	w.Active = true
	w.Created, w.Modified = s.now(), s.now()
	err := s.db.CreateWarehouse(ctx, w)
	if errors.Is(err, stockroom.ErrDuplicate) {
		err = stockroom.Errorf(stockroom.ECONFLICT, "Warehouse %d already exists.", w.ID)
	}
	return err
}

// AllWarehouses walks every warehouse in id order.
func (s *Service) AllWarehouses(ctx context.Context, p *stockroom.Principal) iter.Seq2[stockroom.Warehouse, error] {
	return walk(p, func(req stockroom.PageRequest) (stockroom.Page[stockroom.Warehouse], error) {
		return s.db.ListWarehouses(ctx, stockroom.Scope{All: true}, req)
	})
}

// AddReasonCode validates and stores a new reason code.
func (s *Service) AddReasonCode(ctx context.Context, p *stockroom.Principal, rc stockroom.ReasonCode) error {
	if err := admitAdministrator(p); err != nil {
		return err
	}
	if err := rc.Validate(); err != nil {
		return err
	}
	rc.Created = s.now()
	err := s.db.CreateReasonCode(ctx, rc)
	if errors.Is(err, stockroom.ErrDuplicate) {
		err = stockroom.Errorf(stockroom.ECONFLICT, "Reason code %d already exists.", rc.Code)
	}
	return err
}

// AllReasonCodes walks every reason code in code order.
func (s *Service) AllReasonCodes(ctx context.Context, p *stockroom.Principal) iter.Seq2[stockroom.ReasonCode, error] {
	return walk(p, func(req stockroom.PageRequest) (stockroom.Page[stockroom.ReasonCode], error) {
		return s.db.ListReasonCodes(ctx, req)
	})
}

// walk yields every record of a paged list, page by page, to an
// administrator (else only the refusal).
func walk[T any](p *stockroom.Principal, list func(stockroom.PageRequest) (stockroom.Page[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		if err := admitAdministrator(p); err != nil {
			var zero T
			yield(zero, err)
			return
		}
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
	// Owners limits the client to some owners' stock; nil is every owner,
	// the default of `client add --owners`.
	Owners *stockroom.Scope
	// Reports are the reports the client may run; none unless given.
	Reports  stockroom.Scope
	ReadOnly bool
}

// AddClient validates and stores a new client and returns its id and secret.
// The secret is not kept and cannot be shown again.
func (s *Service) AddClient(ctx context.Context, p *stockroom.Principal, nc NewClient) (id, secret string, err error) {
	if err := admitAdministrator(p); err != nil {
		return "", "", err
	}
	now := s.now()
	c := &stockroom.Client{
		ID:          nc.ID,
		Name:        nc.Name,
		Permissions: nc.Permissions,
		Scope:       nc.Scope,
		Owners:      stockroom.Scope{All: true},
		Reports:     nc.Reports.Clone(),
		ReadOnly:    nc.ReadOnly,
		Enabled:     true,
		Created:     now,
		Modified:    now,
	}
	if nc.Owners != nil {
		c.Owners = nc.Owners.Clone()
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
	if err := s.checkScopes(ctx, &c.Scope, &c.Owners); err != nil {
		return "", "", err
	}
	if err := s.db.CreateClient(ctx, c, hash); err != nil {
		if errors.Is(err, stockroom.ErrDuplicate) {
			err = stockroom.Errorf(stockroom.ECONFLICT, "Client %q already exists.", c.ID)
		}
		return "", "", err
	}
	return c.ID, secret, nil
}

// ListClients returns every client; secrets are never read.
func (s *Service) ListClients(ctx context.Context, p *stockroom.Principal) ([]*stockroom.Client, error) {
	if err := admitAdministrator(p); err != nil {
		return nil, err
	}
	return s.db.ListClients(ctx)
}

// SetClientEnabled enables or disables a client. A disabled client cannot get
// tokens, and the tokens it holds are revoked at once.
func (s *Service) SetClientEnabled(ctx context.Context, p *stockroom.Principal, id string, enabled bool) error {
	if err := admitAdministrator(p); err != nil {
		return err
	}
	defer s.auth.forget(id)
	defer s.webhooks.forget(id)
	return noClient(s.db.SetClientEnabled(ctx, id, enabled, s.now()), id)
}

// RotateSecret gives a client a new generated secret and revokes its tokens.
func (s *Service) RotateSecret(ctx context.Context, p *stockroom.Principal, id string) (string, error) {
	if err := admitAdministrator(p); err != nil {
		return "", err
	}
	secret := auth.NewSecret()
	hash, err := auth.HashSecret(secret)
	if err != nil {
		return "", err
	}
	defer s.auth.forget(id)
	if err := noClient(s.db.SetClientSecret(ctx, id, hash, s.now()), id); err != nil {
		return "", err
	}
	return secret, nil
}

// checkScopes refuses scopes naming a warehouse or an owner that does not
// exist, naming each; a nil scope is not checked. Owner 0, the house's own
// stock, always exists; any other owner is a customer, active or not.
func (s *Service) checkScopes(ctx context.Context, warehouses, owners *stockroom.Scope) error {
	var v stockroom.Validation
	for _, wid := range scopeIDs(warehouses) {
		_, err := s.db.FindWarehouse(ctx, wid)
		switch {
		case errors.Is(err, stockroom.ErrNotFound):
			v.Add("warehouses", "warehouse "+strconv.FormatInt(wid, 10)+" does not exist")
		case err != nil:
			return err
		}
	}
	for _, owner := range scopeIDs(owners) {
		if owner == stockroom.HouseOwner {
			continue
		}
		_, err := s.db.FindParty(ctx, stockroom.Customer, owner)
		switch {
		case errors.Is(err, stockroom.ErrNotFound):
			v.Add("owners", "customer "+strconv.FormatInt(owner, 10)+" does not exist")
		case err != nil:
			return err
		}
	}
	return v.Err()
}

// scopeIDs is the list of a scope that may be nil.
func scopeIDs(s *stockroom.Scope) []int64 {
	if s == nil || s.All {
		return nil
	}
	return s.IDs
}

// noClient names the client a change found missing.
func noClient(err error, id string) error {
	if errors.Is(err, stockroom.ErrNotFound) {
		return stockroom.Errorf(stockroom.ENOTFOUND, "Client %q does not exist.", id)
	}
	return err
}

// Package service is the one place for Stockroom's rules: validation,
// authorization by warehouse scope, and the order in which a request's checks
// happen. The HTTP API and the admin commands both go through it; stores only
// keep data.
package service

import (
	"context"
	"sync"
	"time"

	"github.com/stockroom/stockroom"
)

// Store is the persistence the service needs. Both engines of the store
// package satisfy it; each method runs in one transaction.
type Store interface {
	Ping(ctx context.Context) error

	RunBootstrap(ctx context.Context, wh stockroom.Warehouse, codes []stockroom.ReasonCode, admin *stockroom.Client, secretHash string, now time.Time) (bool, error)

	CreateWarehouse(ctx context.Context, w stockroom.Warehouse) error
	FindWarehouse(ctx context.Context, wid int64) (stockroom.Warehouse, error)
	ListWarehouses(ctx context.Context, scope stockroom.Scope, req stockroom.PageRequest) (stockroom.Page[stockroom.Warehouse], error)

	CreateReasonCode(ctx context.Context, rc stockroom.ReasonCode) error
	ListReasonCodes(ctx context.Context, req stockroom.PageRequest) (stockroom.Page[stockroom.ReasonCode], error)

	CreateClient(ctx context.Context, c *stockroom.Client, secretHash string) error
	FindClient(ctx context.Context, id string) (*stockroom.Client, string, error)
	ListClients(ctx context.Context) ([]*stockroom.Client, error)
	SetClientEnabled(ctx context.Context, id string, enabled bool, now time.Time) error
	SetClientSecret(ctx context.Context, id, secretHash string, now time.Time) error

	CreateItem(ctx context.Context, it *stockroom.Item) error
	CreateItems(ctx context.Context, items []stockroom.Item) (int64, error)
	FindItem(ctx context.Context, partNo int64) (stockroom.Item, error)
	FindItemByShortID(ctx context.Context, shortID string) (stockroom.Item, error)
	FindItemByAlias(ctx context.Context, alias string) (stockroom.Item, error)
	UpdateItem(ctx context.Context, shortID string, fn func(*stockroom.Item) (bool, error)) (stockroom.Item, error)
	ListItems(ctx context.Context, activeOnly bool, req stockroom.PageRequest) (stockroom.Page[stockroom.Item], error)
	ListItemsInCategory(ctx context.Context, category int64) ([]stockroom.Item, error)

	CreateAlias(ctx context.Context, al *stockroom.Alias, itemShortID string) error
	DeleteAlias(ctx context.Context, alias string) (stockroom.Alias, error)
	ListAliases(ctx context.Context, itemShortID string, req stockroom.PageRequest) (stockroom.Page[stockroom.Alias], error)

	FindReasonCode(ctx context.Context, code int64) (stockroom.ReasonCode, error)
	ListLots(ctx context.Context, scope stockroom.Scope, f stockroom.LotFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.Lot], error)
	ListStockLevels(ctx context.Context, scope stockroom.Scope, f stockroom.StockFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.StockLevel], error)
	Receive(ctx context.Context, r stockroom.Receipt, e stockroom.LedgerEntry) (stockroom.Lot, int64, error)
	ReceiveMany(ctx context.Context, rs []stockroom.Receipt, e stockroom.LedgerEntry) (int, error)
	Withdraw(ctx context.Context, w stockroom.Withdrawal, e stockroom.LedgerEntry) ([]stockroom.Draw, int64, error)
	SetHold(ctx context.Context, recNo int64, hold bool, e stockroom.LedgerEntry, check func(stockroom.Lot) error) (stockroom.Lot, int64, error)
	FindTransaction(ctx context.Context, scope stockroom.Scope, id int64) (stockroom.Transaction, error)
	ListTransactions(ctx context.Context, scope stockroom.Scope, f stockroom.TransactionFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.Transaction], error)
	Audit(ctx context.Context) ([]stockroom.Discrepancy, error)

	ClaimIdempotencyKey(ctx context.Context, clientID, key, hash string, now time.Time, lease, ttl time.Duration) (int, stockroom.IdempotencyRecord, error)
	CompleteIdempotencyKey(ctx context.Context, clientID, key string, status int, contentType, location string, body []byte) error
	ReleaseIdempotencyKey(ctx context.Context, clientID, key string) error
	DeleteExpiredIdempotencyKeys(ctx context.Context, now time.Time) (int64, error)
	WithIdempotencyKey(ctx context.Context, clientID, key string) context.Context

	CreateToken(ctx context.Context, hash, clientID string, created, expires time.Time) error
	FindPrincipalByToken(ctx context.Context, hash string, now time.Time) (*stockroom.Principal, error)
}

// Options configures a Service.
type Options struct {
	// TokenTTL is the lifetime of issued tokens; 4 hours when zero.
	TokenTTL time.Duration
	// Now is the clock; stockroom.Now when nil. Tests move it to expire tokens.
	Now func() time.Time
	// AuthCacheTTL is how long an authenticated token is remembered without
	// asking the database again; 0 turns the cache off. It bounds how long a
	// token keeps working after its client is disabled elsewhere (at most 60 s
	// by the contract).
	AuthCacheTTL time.Duration
}

// Service carries out every operation of the API and the admin commands.
type Service struct {
	store    Store
	now      func() time.Time
	tokenTTL time.Duration
	auth     *authCache

	// Facts that never change once true, remembered by this instance.
	warehouses sync.Map  // wid -> struct{}: the warehouse exists
	reasons    sync.Map  // code -> stockroom.ReasonCode
	partNos    *keyCache // folded ShortID -> partNo
}

// DefaultTokenTTL is the token lifetime of the original product.
const DefaultTokenTTL = 4 * time.Hour

// New returns a Service over store.
func New(store Store, opts Options) *Service {
	s := &Service{store: store, now: opts.Now, tokenTTL: opts.TokenTTL, auth: newAuthCache(opts.AuthCacheTTL), partNos: newKeyCache(maxKeyCacheEntries)}
	if s.now == nil {
		s.now = stockroom.Now
	}
	if s.tokenTTL <= 0 {
		s.tokenTTL = DefaultTokenTTL
	}
	return s
}

// Ready reports whether the database answers.
func (s *Service) Ready(ctx context.Context) error { return s.store.Ping(ctx) }

// ListWarehouses returns a page of the warehouses in the principal's scope.
func (s *Service) ListWarehouses(ctx context.Context, p *stockroom.Principal, req stockroom.PageRequest) (stockroom.Page[stockroom.Warehouse], error) {
	return s.store.ListWarehouses(ctx, p.Scope, req)
}

// ListReasonCodes returns a page of the reason codes, which every client may
// read: receive and issue requests need them.
func (s *Service) ListReasonCodes(ctx context.Context, req stockroom.PageRequest) (stockroom.Page[stockroom.ReasonCode], error) {
	return s.store.ListReasonCodes(ctx, req)
}

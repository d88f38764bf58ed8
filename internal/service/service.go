// Package service is the one place for Stockroom's rules: which permission
// each operation needs, the order in which a request's checks happen
// (contract §2), validation, warehouse scope, and the messages refusals
// carry. The HTTP API and the admin commands both go through it; stores only
// keep data, and the HTTP layer only translates.
package service

import (
	"cmp"
	"context"
	"runtime"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/stockroom/stockroom"
)

// Store is everything the service keeps in a database: the union of the
// smaller interfaces declared beside the operations that use them (authStore
// in auth.go, itemStore in item.go, stockStore in stock.go, adminStore in
// admin.go, keyStore in idempotency.go, transitStore in transit.go). Both
// engines of the store package satisfy it; each method runs in one
// transaction.
type Store interface {
	Ping(ctx context.Context) error
	authStore
	itemStore
	stockStore
	ownerStore
	orderStore
	workStore
	adminStore
	keyStore
	batchStore
	importStore
	transitStore
	shippingActionStore
	eventStore
	webhookStore
	exportStore
	reportStore
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
	// SecretChecks caps the client-secret comparisons that run at once
	// (each a bcrypt hash of ~50 ms of a core); nil means 2×GOMAXPROCS.
	// Tests pass one they can fill.
	SecretChecks *semaphore.Weighted
	// Webhooks configure webhook deliveries (webhookworker.go).
	Webhooks WebhookOptions
}

// Service carries out every operation of the API and the admin commands.
type Service struct {
	db       Store
	now      func() time.Time
	tokenTTL time.Duration
	auth     *authCache
	// secretChecks: see Options.SecretChecks.
	secretChecks *semaphore.Weighted
	// webhooks delivers to subscriptions (webhookworker.go).
	webhooks *webhooks

	// Facts that never change once true, remembered by this instance.
	warehouses sync.Map                 // wid -> struct{}: the warehouse exists
	reasons    sync.Map                 // code -> stockroom.ReasonCode
	partNos    *keyCache[string, int64] // folded ShortID -> partNo
	// orderNumbers: folded purchase order number -> the number as stored.
	orderNumbers *keyCache[string, string]
	parties      sync.Map // customerID or vendorID -> stockroom.PartyKind
	categories   sync.Map // category id -> struct{}: the category exists

	// defaultOwners remembers items' dfltOwner (partNo -> owner). It may go
	// stale when another instance changes an item; the store confirms the
	// owner in the transaction that uses it.
	defaultOwners *keyCache[int64, int64]
}

// DefaultTokenTTL is the token lifetime of the original product.
const DefaultTokenTTL = 4 * time.Hour

// New returns a Service over store.
func New(store Store, opts Options) *Service {
	s := &Service{db: store, now: opts.Now, tokenTTL: opts.TokenTTL, auth: newAuthCache(opts.AuthCacheTTL), partNos: newKeyCache[string, int64](maxKeyCacheEntries),
		orderNumbers: newKeyCache[string, string](maxKeyCacheEntries), defaultOwners: newKeyCache[int64, int64](maxKeyCacheEntries)}
	if s.now == nil {
		s.now = stockroom.Now
	}
	if s.tokenTTL <= 0 {
		s.tokenTTL = DefaultTokenTTL
	}
	s.secretChecks = opts.SecretChecks
	s.webhooks = newWebhooks(opts.Webhooks)
	if s.secretChecks == nil {
		s.secretChecks = semaphore.NewWeighted(int64(2 * runtime.GOMAXPROCS(0)))
	}
	return s
}

// Request is a request as the HTTP layer read it, for the service to judge
// in the contract's order (§2): the permission first, then whether the
// request could be read at all, then its fields, then scope, existence and
// state.
type Request[T any] struct {
	In T
	// Decode, when not nil, reads the request's body into In (the part of
	// it the path did not give), returning the body's problems as a
	// validation error or why it cannot be read. admit calls it once the
	// permission is held, so that a caller without it costs the server no
	// more than the body's bounded read (contract §14).
	Decode func(in *T) error
	// Unreadable is why the request could not be read: a body that is not
	// JSON, an unusable Idempotency-Key. It is reported only once the
	// permission check has passed.
	Unreadable error
	// Problems are the fields that could not be decoded (a value of the
	// wrong JSON type, say), reported together with the service's own
	// validation of the rest.
	Problems stockroom.Validation
	// Missing is a path that names nothing there can be (a warehouse id
	// that is not a number, say), reported where existence is checked.
	Missing error
	// Key is the request's Idempotency-Key; nil when it has none.
	Key *stockroom.IdempotencyKey
}

// incoming is a *Request[T] of any T, as admit reads it.
type incoming interface {
	read(now time.Time) error
}

// admit applies the checks of contract §2 that come before a request's
// content is looked at: a read-only account may not write, and the
// permission must be held (perm 0: none beyond a token). Only then is the
// request read (see read), and it must have been readable: the work that
// does not depend on the caller's rights is work a caller without them
// cannot ask for (contract §14).
func (s *Service) admit(p *stockroom.Principal, perm stockroom.Permission, write bool, req incoming) error {
	if err := p.Authorize(perm, write); err != nil {
		return err
	}
	return req.read(s.now())
}

// read reads the request once its caller's permission is held: it stamps
// its key with the request's time and makes the key's hash, and decodes
// its body, whose problems join Problems, after those of the checks every
// route shares. It returns why the request cannot be read, if it cannot.
func (r *Request[T]) read(now time.Time) error {
	if r.Key != nil {
		r.Key.Time = now
		hashRequest(r.Key)
	}
	if r.Decode != nil {
		if err := r.Decode(&r.In); !r.Problems.Merge(err) {
			r.Unreadable = cmp.Or(r.Unreadable, err)
		}
		r.Decode = nil
	}
	return r.Unreadable
}

// Ready reports whether the database answers.
func (s *Service) Ready(ctx context.Context) error { return s.db.Ping(ctx) }

// ListWarehouses returns a page of the warehouses in the principal's scope.
// Every client may read them: stock requests name them.
func (s *Service) ListWarehouses(ctx context.Context, p *stockroom.Principal, req Request[stockroom.PageRequest]) (stockroom.Page[stockroom.Warehouse], error) {
	if err := s.admitPage(p, req); err != nil {
		return stockroom.Page[stockroom.Warehouse]{}, err
	}
	return s.db.ListWarehouses(ctx, p.Scope, req.In)
}

// ListReasonCodes returns a page of the reason codes. Every client may read
// them: receive and issue requests need them.
func (s *Service) ListReasonCodes(ctx context.Context, p *stockroom.Principal, req Request[stockroom.PageRequest]) (stockroom.Page[stockroom.ReasonCode], error) {
	if err := s.admitPage(p, req); err != nil {
		return stockroom.Page[stockroom.ReasonCode]{}, err
	}
	return s.db.ListReasonCodes(ctx, req.In)
}

// admitPage admits a read that needs no permission beyond a token, with the
// problems of its paging parameters.
func (s *Service) admitPage(p *stockroom.Principal, req Request[stockroom.PageRequest]) error {
	if err := s.admit(p, 0, false, &req); err != nil {
		return err
	}
	return req.problems()
}

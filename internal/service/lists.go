package service

import (
	"context"
	"errors"

	"github.com/stockroom/stockroom"
)

// The reads of the inventory: every one needs permission 11 and covers the
// client's warehouses only.

// Query is a request for a page of a list, narrowed by a filter.
type Query[F any] struct {
	Filter F
	Page   stockroom.PageRequest
}

// ListLots returns a page of lots in scope, or of one warehouse.
func (s *Service) ListLots(ctx context.Context, p *stockroom.Principal, req Request[Query[stockroom.LotFilter]]) (stockroom.Page[stockroom.Lot], error) {
	f := req.In.Filter
	var err error
	if f.Owners, err = s.admitList(ctx, p, &req, f.WID, f.Owner); err != nil {
		return stockroom.Page[stockroom.Lot]{}, err
	}
	return s.db.ListLots(ctx, p.Scope, f, req.In.Page)
}

// ListStockLevels returns a page of stock levels in scope, or of one
// warehouse.
func (s *Service) ListStockLevels(ctx context.Context, p *stockroom.Principal, req Request[Query[stockroom.StockFilter]]) (stockroom.Page[stockroom.StockLevel], error) {
	f := req.In.Filter
	var err error
	if f.Owners, err = s.admitList(ctx, p, &req, f.WID, f.Owner); err != nil {
		return stockroom.Page[stockroom.StockLevel]{}, err
	}
	return s.db.ListStockLevels(ctx, p.Scope, f, req.In.Page)
}

// ListTransactions returns a page of the ledger entries touching the
// principal's warehouses, of its owners, each with the client id it sees
// (clientSeen).
func (s *Service) ListTransactions(ctx context.Context, p *stockroom.Principal, req Request[Query[stockroom.TransactionFilter]]) (stockroom.Page[stockroom.Transaction], error) {
	f := req.In.Filter
	var err error
	if f.Owners, err = s.admitList(ctx, p, &req, f.WID, f.Owner); err != nil {
		return stockroom.Page[stockroom.Transaction]{}, err
	}
	page, err := s.db.ListTransactions(ctx, p.Scope, f, req.In.Page)
	for i := range page.Items {
		page.Items[i].ClientID = clientSeen(p, page.Items[i].ClientID)
	}
	return page, err
}

// admitList admits a read of a list, which has no body (its filters are
// the query's): of the warehouse wid, when not 0 (admitRead). It returns
// the owners the list covers: the one asked for, when the client may see
// it, else all it may (ownerView).
func (s *Service) admitList(ctx context.Context, p *stockroom.Principal, req reading, wid int64, owner *stockroom.OwnerRef) (*stockroom.Scope, error) {
	if err := s.admitRead(ctx, p, req, wid); err != nil {
		return nil, err
	}
	return s.ownerView(ctx, p, owner)
}

// GetTransaction returns one ledger entry; one outside the principal's scope
// is not found.
func (s *Service) GetTransaction(ctx context.Context, p *stockroom.Principal, req Request[int64]) (stockroom.Transaction, error) {
	if err := s.admitRead(ctx, p, &req, 0); err != nil {
		return stockroom.Transaction{}, err
	}
	id := req.In
	t, err := s.db.FindTransaction(ctx, p.Scope, ownersSeen(p), id)
	if errors.Is(err, stockroom.ErrNotFound) {
		err = stockroom.Errorf(stockroom.ENOTFOUND, "No transaction %d.", id)
	}
	t.ClientID = clientSeen(p, t.ClientID)
	return t, err
}

// admitRead admits a read of permission 11 in the contract's order: its
// query's problems, the warehouse it names, if any, and a path that names
// nothing.
func (s *Service) admitRead(ctx context.Context, p *stockroom.Principal, req reading, wid int64) error {
	if err := s.admit(p, stockroom.PermItemRead, false, req); err != nil {
		return err
	}
	if err := req.problems(); err != nil {
		return err
	}
	if wid != 0 {
		if err := s.authorizeWarehouse(ctx, p, wid); err != nil {
			return err
		}
	}
	return req.missing()
}

// reading is a *Request[T] of any T, as admitRead reads it.
type reading interface {
	incoming
	problems() error
	missing() error
}

// problems reports what could not be read of a request, then its fields'
// problems.
func (r Request[T]) problems() error {
	if r.Unreadable != nil {
		return r.Unreadable
	}
	return r.Problems.Err()
}

// missing reports a path that names nothing.
func (r Request[T]) missing() error { return r.Missing }

// Audit checks the inventory's invariants over the whole database.
func (s *Service) Audit(ctx context.Context) ([]stockroom.Discrepancy, error) {
	return s.db.Audit(ctx)
}

// ImportLots receives many lots at once for bulk loads such as the demo
// command, recorded in the ledger like any receipt. The receipts must name
// existing items and warehouses.
func (s *Service) ImportLots(ctx context.Context, clientID string, rs []stockroom.Receipt) (int, error) {
	for _, r := range rs {
		if r.Units.Sign() <= 0 || r.PartNo <= 0 || r.WID <= 0 {
			return 0, stockroom.Errorf(stockroom.EINVALID, "Invalid receipt %+v.", r)
		}
	}
	e := stockroom.LedgerEntry{ClientID: clientID, Time: s.now(), ReasonCode: openingBalance, Reference: "demo"}
	n, err := s.db.ReceiveMany(ctx, rs, e)
	if errors.Is(err, stockroom.ErrDiscontinued) {
		err = stockroom.Errorf(stockroom.ECONFLICT, "A discontinued item cannot be received.")
	}
	return n, err
}

// openingBalance is the default reason code bulk loads are recorded under.
const openingBalance = 11

// PartNos returns the partNos of the items with the given ShortIDs, in order.
func (s *Service) PartNos(ctx context.Context, shortIDs []string) ([]int64, error) {
	out := make([]int64, len(shortIDs))
	for i, id := range shortIDs {
		it, err := s.db.FindItemByShortID(ctx, id)
		if err != nil {
			return nil, noItem(err, "ShortID", quote(id))
		}
		out[i] = it.PartNo
	}
	return out, nil
}

package service

import (
	"context"

	"github.com/stockroom/stockroom"
)

// The CSV exports of the lists (contract §13): every record the list would
// show, in its order, with no paging, handed to fn one at a time. An export
// is admitted exactly as its list is (the same permission, warehouse and
// owner scope, in the same order of checks), so nothing is handed on when
// the list would be refused. An error of fn ends the export and is
// returned as it is.

// exportStore is what the exports read: each list's records one at a time,
// from the reports' reader (a replica when one answers).
type exportStore interface {
	EachLot(ctx context.Context, scope stockroom.Scope, f stockroom.LotFilter, req stockroom.PageRequest, fn func(stockroom.Lot) error) error
	EachTransaction(ctx context.Context, scope stockroom.Scope, f stockroom.TransactionFilter, req stockroom.PageRequest, fn func(stockroom.Transaction) error) error
	EachStockLevel(ctx context.Context, scope stockroom.Scope, f stockroom.StockFilter, req stockroom.PageRequest, fn func(stockroom.StockLevel) error) error
	EachPurchaseOrder(ctx context.Context, scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest, fn func(stockroom.PurchaseOrder) error) error
	EachShippingOrder(ctx context.Context, scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest, fn func(stockroom.ShippingOrder) error) error
	EachWorkOrder(ctx context.Context, scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest, fn func(stockroom.WorkOrder) error) error
	EachTransit(ctx context.Context, scope stockroom.Scope, f stockroom.TransitFilter, req stockroom.PageRequest, fn func(stockroom.Transit) error) error
}

// ExportLots hands every lot ListLots would list to fn.
func (s *Service) ExportLots(ctx context.Context, p *stockroom.Principal, req Request[Query[stockroom.LotFilter]], fn func(stockroom.Lot) error) error {
	f := req.In.Filter
	var err error
	if f.Owners, err = s.admitList(ctx, p, &req, f.WID, f.Owner); err != nil {
		return err
	}
	return s.db.EachLot(ctx, p.Scope, f, req.In.Page, fn)
}

// ExportStockLevels hands every stock level ListStockLevels would list to
// fn.
func (s *Service) ExportStockLevels(ctx context.Context, p *stockroom.Principal, req Request[Query[stockroom.StockFilter]], fn func(stockroom.StockLevel) error) error {
	f := req.In.Filter
	var err error
	if f.Owners, err = s.admitList(ctx, p, &req, f.WID, f.Owner); err != nil {
		return err
	}
	return s.db.EachStockLevel(ctx, p.Scope, f, req.In.Page, fn)
}

// ExportTransactions hands every ledger entry ListTransactions would list
// to fn, each with the client id the principal sees (clientSeen).
func (s *Service) ExportTransactions(ctx context.Context, p *stockroom.Principal, req Request[Query[stockroom.TransactionFilter]], fn func(stockroom.Transaction) error) error {
	f := req.In.Filter
	var err error
	if f.Owners, err = s.admitList(ctx, p, &req, f.WID, f.Owner); err != nil {
		return err
	}
	return s.db.EachTransaction(ctx, p.Scope, f, req.In.Page, func(t stockroom.Transaction) error {
		t.ClientID = clientSeen(p, t.ClientID)
		return fn(t)
	})
}

// ExportTransits hands every transit ListTransits would list to fn.
func (s *Service) ExportTransits(ctx context.Context, p *stockroom.Principal, all bool, req Request[Query[stockroom.TransitFilter]], fn func(stockroom.Transit) error) error {
	f := req.In.Filter
	var err error
	if f.Owners, err = s.admitList(ctx, p, &req, f.WID, f.Owner); err != nil {
		return err
	}
	f.OpenOnly = !all
	return s.db.EachTransit(ctx, p.Scope, f, req.In.Page, fn)
}

// Export hands every order List would list to fn, each header as the
// client sees it (orderHeadSeen).
func (k Orders[O, P, R, PR]) Export(ctx context.Context, p *stockroom.Principal, all bool, req Request[Query[stockroom.OrderFilter]], fn func(O) error) error {
	f := req.In.Filter
	var err error
	if f.Owners, err = k.s.admitList(ctx, p, &req, f.WID, f.Owner); err != nil {
		return err
	}
	f.OpenOnly = !all
	return k.each(k.s.db, ctx, p.Scope, f, req.In.Page, func(o O) error {
		orderHeadSeen(p, P(&o).Header())
		return fn(o)
	})
}

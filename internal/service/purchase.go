package service

import (
	"context"

	"github.com/stockroom/stockroom"
)

// Purchase orders (contract §10): the shared order flow (order.go) with
// permission 301 for writes, onOrder and the ledger kept by the store.

// EndPurchaseOrder closes (cancel false) or cancels an open purchase order
// (permission 301): what is still due stops counting in onOrder.
func (s *Service) EndPurchaseOrder(ctx context.Context, p *stockroom.Principal, cancel bool, req Request[string]) (stockroom.PurchaseOrder, error) {
	var none stockroom.PurchaseOrder
	if err := s.admit(p, stockroom.PermPurchaseOrders, true, &req); err != nil {
		return none, err
	}
	if err := req.problems(); err != nil {
		return none, err
	}
	no := trimmed(req.In)
	res, err := s.db.ChangePurchaseOrder(ctx, req.Key, no, s.entry(p, 0, "", "", nil), func(o *stockroom.PurchaseOrder) (bool, error) {
		if err := writable(p, o); err != nil {
			return false, err
		}
		return true, o.End(cancel)
	})
	return res, orderRefusal(err, stockroom.OrderKindPurchase, no)
}

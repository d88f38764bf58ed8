package service

import (
	"context"
	"errors"

	"github.com/stockroom/stockroom"
)

// Work orders (contract §11): reading needs permission 11, placing one and
// its actions (commit, complete, cancel, close) 303 and the order's
// warehouse and owner in the client's scope. A work order's components are
// all at its warehouse, of its owner: a client sees all of the order or
// none of it.

// workStore keeps work orders and runs their actions.
type workStore interface {
	FindWorkOrder(ctx context.Context, no string) (stockroom.WorkOrder, error)
	ListWorkOrders(ctx context.Context, scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.WorkOrder], error)
	CreateWorkOrder(ctx context.Context, key *stockroom.IdempotencyKey, o stockroom.WorkOrder, e stockroom.LedgerEntry) (stockroom.WorkOrder, error)
	CommitOrder(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.OrderLinesAction, req stockroom.CommitRequest) (stockroom.AllocationResult, error)
	EndOutboundOrder(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.OrderLinesAction, cancel bool) (stockroom.AllocationResult, error)
	CompleteWorkOrder(ctx context.Context, key *stockroom.IdempotencyKey, a stockroom.OrderLinesAction, units stockroom.Units) (stockroom.CompleteResult, error)
}

// WorkOrders are the operations on work orders; List and Get are those of
// every kind.
type WorkOrders struct {
	s      *Service
	orders Orders[stockroom.WorkOrder, *stockroom.WorkOrder, stockroom.WorkOrderRequest, *stockroom.WorkOrderRequest]
}

// WorkOrders returns the operations on work orders.
func (s *Service) WorkOrders() WorkOrders {
	return WorkOrders{s: s, orders: Orders[stockroom.WorkOrder, *stockroom.WorkOrder, stockroom.WorkOrderRequest, *stockroom.WorkOrderRequest]{
		s: s, kind: stockroom.OrderKindWork, perm: stockroom.PermWorkOrders, find: Store.FindWorkOrder, list: Store.ListWorkOrders, each: Store.EachWorkOrder}}
}

// List returns a page of the work orders the client sees.
func (w WorkOrders) List(ctx context.Context, p *stockroom.Principal, all bool, req Request[Query[stockroom.OrderFilter]]) (stockroom.Page[stockroom.WorkOrder], error) {
	return w.orders.List(ctx, p, all, req)
}

// Export hands every work order List would list to fn.
func (w WorkOrders) Export(ctx context.Context, p *stockroom.Principal, all bool, req Request[Query[stockroom.OrderFilter]], fn func(stockroom.WorkOrder) error) error {
	return w.orders.Export(ctx, p, all, req, fn)
}

// Get returns a work order with its components.
func (w WorkOrders) Get(ctx context.Context, p *stockroom.Principal, req Request[string]) (stockroom.WorkOrder, error) {
	return w.orders.Get(ctx, p, req)
}

// Create validates and places a work order, in the contract's order: every
// field (and the owner named), then the warehouse's and the owner's scope,
// then the items (404), then the product's dfltOwner when no owner is
// named, which must be in scope too.
func (w WorkOrders) Create(ctx context.Context, p *stockroom.Principal, req Request[stockroom.WorkOrderRequest]) (stockroom.WorkOrder, error) {
	s, r, v := w.s, &req.In, &req.Problems
	if err := s.admit(p, stockroom.PermWorkOrders, true, &req); err != nil {
		return stockroom.WorkOrder{}, err
	}
	r.Validate(v, true)
	owner, err := s.nameOwner(ctx, p, v, r.Owner)
	if err != nil {
		return stockroom.WorkOrder{}, err
	}
	if err := v.Err(); err != nil {
		return stockroom.WorkOrder{}, err
	}
	if err := s.authorizeWarehouse(ctx, p, r.WID); err != nil {
		return stockroom.WorkOrder{}, err
	}
	if err := owner.authorize(); err != nil {
		return stockroom.WorkOrder{}, err
	}
	o := stockroom.WorkOrder{WONo: r.WONo, Units: *r.Units, WID: r.WID, StartDate: r.StartDate, DueDate: r.DueDate,
		OrderHead: stockroom.OrderHead{OrderDate: s.now(), Status: stockroom.OrderOpen}}
	setIf(&o.Spot, r.Spot)
	setIf(&o.Description, r.Description)
	setIf(&o.Assignee, r.Assignee)
	if o.PartNo, err = s.findPartNo(ctx, p, r.ItemID); err != nil {
		return o, err
	}
	for _, c := range r.Components {
		partNo, err := s.findPartNo(ctx, p, c.ItemID)
		if err != nil {
			return o, err
		}
		units, _ := stockroom.ComponentUnits(*c.Units, o.Units) // validated
		o.Lines = append(o.Lines, stockroom.WorkLine{OrderLine: stockroom.OrderLine{LineNo: int64(len(o.Lines) + 1), PartNo: partNo,
			Units: units, Warehouse: o.WID}, PerUnit: *c.Units})
	}
	if o.Owner, _, err = s.stockOwner(ctx, p, owner, o.PartNo, true); err != nil {
		return o, noItem(err, "ShortID", quote(r.ItemID))
	}
	for i := range o.Lines {
		o.Lines[i].Owner = o.Owner
	}
	res, err := s.db.CreateWorkOrder(ctx, req.Key, o, s.entry(p, 0, "", "", nil))
	return res, workRefusal(err, r.WONo)
}

func setIf(dst, src *string) {
	if src != nil {
		*dst = *src
	}
}

// Commit allocates lots to components, as a shipping order's commit does.
func (w WorkOrders) Commit(ctx context.Context, p *stockroom.Principal, req Request[OrderAction[stockroom.CommitRequest]]) (stockroom.AllocationResult, error) {
	return runAction(w.s, p, &req, outboundAction[stockroom.AllocationResult]{
		perm: stockroom.PermWorkOrders, kind: stockroom.OrderKindWork, no: req.In.No, refusal: workRefusal,
		validate: func(v *stockroom.Validation) { req.In.Body.Validate(v) },
		act: func(a stockroom.OrderLinesAction) (stockroom.AllocationResult, error) {
			return w.s.db.CommitOrder(ctx, req.Key, a, req.In.Body)
		},
	})
}

// End cancels (nothing completed yet) or closes a work order, releasing
// every allocation of its components.
func (w WorkOrders) End(ctx context.Context, p *stockroom.Principal, cancel bool, req Request[OrderAction[struct{}]]) (stockroom.AllocationResult, error) {
	return runAction(w.s, p, &req, outboundAction[stockroom.AllocationResult]{
		perm: stockroom.PermWorkOrders, kind: stockroom.OrderKindWork, no: req.In.No, refusal: workRefusal,
		act: func(a stockroom.OrderLinesAction) (stockroom.AllocationResult, error) {
			return w.s.db.EndOutboundOrder(ctx, req.Key, a, cancel)
		},
	})
}

// Complete builds units products: it consumes their components and
// receives the products as one lot (ledger type assemble).
func (w WorkOrders) Complete(ctx context.Context, p *stockroom.Principal, req Request[OrderAction[stockroom.CompleteRequest]]) (stockroom.CompleteResult, error) {
	return runAction(w.s, p, &req, outboundAction[stockroom.CompleteResult]{
		perm: stockroom.PermWorkOrders, kind: stockroom.OrderKindWork, no: req.In.No, refusal: workRefusal,
		validate: func(v *stockroom.Validation) { req.In.Body.Validate(v) },
		act: func(a stockroom.OrderLinesAction) (stockroom.CompleteResult, error) {
			return w.s.db.CompleteWorkOrder(ctx, req.Key, a, *req.In.Body.Units)
		},
	})
}

// workRefusal names what a store refused of a work order: the product's
// item, warehouse or owner (line 0 of a new order, or its receipt), or
// as orderRefusal does.
func workRefusal(err error, no string) error {
	var lr *stockroom.OrderLineRefusal
	if errors.As(err, &lr) && lr.Line != 0 {
		return orderRefusal(err, stockroom.OrderKindWork, no)
	}
	name, wid := "of the work order", int64(0)
	if lr != nil {
		name, wid, err = lr.Name, lr.ID, lr.Err
	}
	switch {
	case errors.Is(err, stockroom.ErrDiscontinued):
		return stockroom.Errorf(stockroom.ECONFLICT, "The product of work order %q is discontinued and cannot be built; reactivate it first (PUT /Item with \"discontinued\": false).", no)
	case errors.Is(err, stockroom.ErrWarehouseInactive):
		return inactiveWarehouse("", name, wid)
	case errors.Is(err, stockroom.ErrOwnerInactive):
		return stockroom.Errorf(stockroom.ECONFLICT, "Customer %s is inactive and takes no stock; reactivate it first (PUT /Customer with \"active\": true).", name)
	}
	return orderRefusal(err, stockroom.OrderKindWork, no)
}

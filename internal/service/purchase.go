package service

import (
	"context"
	"errors"

	"github.com/stockroom/stockroom"
)

// purchaseStore keeps purchase orders. Each write keeps onOrder and the
// ledger in its own transaction.
type purchaseStore interface {
	FindPurchaseOrder(ctx context.Context, no string) (stockroom.PurchaseOrder, error)
	FindPurchaseLine(ctx context.Context, no string, lineNo int64) (stockroom.PurchaseOrder, error)
	ListPurchaseOrders(ctx context.Context, scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.PurchaseOrder], error)
	CreatePurchaseOrder(ctx context.Context, key *stockroom.IdempotencyKey, o stockroom.PurchaseOrder, e stockroom.LedgerEntry) (stockroom.PurchaseOrder, error)
	ChangePurchaseOrder(ctx context.Context, key *stockroom.IdempotencyKey, no string, e stockroom.LedgerEntry, fn func(*stockroom.PurchaseOrder) (bool, error)) (stockroom.PurchaseOrder, error)
}

// Purchase orders (contract §10): reading needs permission 11, writing 301.
// A client sees an order when one of its lines is in the client's
// warehouses and of its owners, and sees only those lines; an order it does
// not see is not found, as if it did not exist. Changing, closing or
// canceling an order needs every line of it in scope.

// ListPurchaseOrders returns a page of the purchase orders the client sees:
// the open ones, or all. Order lists are at most MaxOrderPerPage long.
func (s *Service) ListPurchaseOrders(ctx context.Context, p *stockroom.Principal, all bool, req Request[Query[stockroom.OrderFilter]]) (stockroom.Page[stockroom.PurchaseOrder], error) {
	return readPage(ctx, s, p, req, req.In.Filter.WID, func() (stockroom.Page[stockroom.PurchaseOrder], error) {
		f, page := req.In.Filter, req.In.Page
		f.OpenOnly = !all
		page.PageSize = min(page.PageSize, stockroom.MaxOrderPerPage)
		var err error
		if f.Owners, err = s.ownerView(ctx, p, f.Owner); err != nil {
			return stockroom.Page[stockroom.PurchaseOrder]{}, err
		}
		return s.db.ListPurchaseOrders(ctx, p.Scope, f, page)
	})
}

// GetPurchaseOrder returns a purchase order with the lines the client sees.
func (s *Service) GetPurchaseOrder(ctx context.Context, p *stockroom.Principal, req Request[string]) (stockroom.PurchaseOrder, error) {
	if err := s.admitRead(ctx, p, req, 0); err != nil {
		return stockroom.PurchaseOrder{}, err
	}
	o, err := s.findOrder(ctx, p, trimmed(req.In))
	return o, orderRefusal(err, trimmed(req.In))
}

// findOrder returns the order numbered no as the client sees it, or
// stockroom.ErrNotFound.
func (s *Service) findOrder(ctx context.Context, p *stockroom.Principal, no string) (stockroom.PurchaseOrder, error) {
	o, err := s.db.FindPurchaseOrder(ctx, no)
	if err != nil {
		return o, err
	}
	o, ok := o.Seen(p.Scope, ownersSeen(p))
	if !ok {
		return o, stockroom.ErrNotFound
	}
	return o, nil
}

// CreatePurchaseOrder validates and places a purchase order (permission
// 301): 201 with the order as stored.
func (s *Service) CreatePurchaseOrder(ctx context.Context, p *stockroom.Principal, req Request[stockroom.PurchaseOrderRequest]) (stockroom.PurchaseOrder, error) {
	var none stockroom.PurchaseOrder
	if err := s.admit(p, stockroom.PermPurchaseOrders, true, req.Unreadable, req.Key); err != nil {
		return none, err
	}
	r, v := req.In, &req.Problems
	r.Validate(v, true)
	vendor, err := s.orderVendor(ctx, v, r.VendorID, true)
	if err != nil {
		return none, err
	}
	lines, err := s.orderLines(ctx, p, v, r.Lines, true)
	if err != nil {
		return none, err
	}
	now := s.now()
	o := stockroom.PurchaseOrder{PONo: r.PONo, VendorID: vendor.ID, OrderDate: now, ExpectedDate: r.ExpectedDate}
	if r.OrderDate != nil {
		o.OrderDate = *r.OrderDate
	}
	setIfGiven(&o.Reference, r.Reference)
	setIfGiven(&o.Remark, r.Remark)
	for _, l := range lines {
		o.Lines = append(o.Lines, l.NewLine())
	}
	res, err := s.db.CreatePurchaseOrder(ctx, req.Key, o, s.entry(p, 0, "", "", nil))
	if err == nil {
		s.orderNumbers.put(stockroom.FoldKey(res.PONo), res.PONo)
	}
	return res, orderRefusal(err, r.PONo)
}

// UpdatePurchaseOrder changes an open purchase order (permission 301): its
// dates and texts, its lines' units and prices, and new lines.
func (s *Service) UpdatePurchaseOrder(ctx context.Context, p *stockroom.Principal, req Request[stockroom.PurchaseOrderRequest]) (stockroom.PurchaseOrder, error) {
	var none stockroom.PurchaseOrder
	if err := s.admit(p, stockroom.PermPurchaseOrders, true, req.Unreadable, nil); err != nil {
		return none, err
	}
	r, v := req.In, &req.Problems
	r.Validate(v, false)
	vendor, err := s.orderVendor(ctx, v, r.VendorID, false)
	if err != nil {
		return none, err
	}
	lines, err := s.orderLines(ctx, p, v, r.Lines, false)
	if err != nil {
		return none, err
	}
	ch := stockroom.PurchaseOrderChange{VendorID: vendor.ID, OrderDate: r.OrderDate, ExpectedDate: r.ExpectedDate,
		Reference: r.Reference, Remark: r.Remark, Lines: lines}
	res, err := s.db.ChangePurchaseOrder(ctx, nil, r.PONo, s.entry(p, 0, "", "", nil), func(o *stockroom.PurchaseOrder) (bool, error) {
		if err := writable(p, *o); err != nil {
			return false, err
		}
		return ch.Apply(o)
	})
	return res, orderRefusal(err, r.PONo)
}

// EndPurchaseOrder closes (cancel false) or cancels an open purchase order
// (permission 301): what is still due stops counting in onOrder.
func (s *Service) EndPurchaseOrder(ctx context.Context, p *stockroom.Principal, cancel bool, req Request[string]) (stockroom.PurchaseOrder, error) {
	var none stockroom.PurchaseOrder
	if err := s.admit(p, stockroom.PermPurchaseOrders, true, req.Unreadable, req.Key); err != nil {
		return none, err
	}
	if err := req.problems(); err != nil {
		return none, err
	}
	no := trimmed(req.In)
	res, err := s.db.ChangePurchaseOrder(ctx, req.Key, no, s.entry(p, 0, "", "", nil), func(o *stockroom.PurchaseOrder) (bool, error) {
		if err := writable(p, *o); err != nil {
			return false, err
		}
		return true, o.End(cancel)
	})
	return res, orderRefusal(err, no)
}

// writable refuses a change to an order the client does not see (not
// found) or does not see whole (403): every line's warehouse and owner must
// be in its scope.
func writable(p *stockroom.Principal, o stockroom.PurchaseOrder) error {
	if _, ok := o.Seen(p.Scope, ownersSeen(p)); !ok {
		return stockroom.ErrNotFound
	}
	for _, l := range o.Lines {
		if !p.Scope.Contains(l.Warehouse) {
			return stockroom.Errorf(stockroom.EFORBIDDEN, stockroom.MsgOutOfScope)
		}
		if err := authorizeOwner(p, l.Owner); err != nil {
			return err
		}
	}
	return nil
}

// orderVendor resolves the vendor an order names, a vendorID or ShortID: a
// vendor (an active one, when active), else a problem of vendorID.
func (s *Service) orderVendor(ctx context.Context, v *stockroom.Validation, ref *stockroom.OwnerRef, active bool) (stockroom.Party, error) {
	if ref == nil || v.Has("vendorID") {
		return stockroom.Party{}, nil
	}
	var (
		vendor stockroom.Party
		err    error
	)
	if ref.ShortID != "" {
		vendor, err = s.db.FindPartyByShortID(ctx, stockroom.Vendor, ref.ShortID)
	} else {
		vendor, err = s.db.FindParty(ctx, stockroom.Vendor, ref.ID)
	}
	switch {
	case errors.Is(err, stockroom.ErrNotFound):
		v.Add("vendorID", "is not a vendor: give a vendorID or vendor ShortID (see GET /Vendor)")
	case err != nil:
		return vendor, err
	case active && !vendor.Active:
		v.Add("vendorID", "is an inactive vendor; reactivate it first (PUT /Vendor with \"active\": true)")
	}
	return vendor, nil
}

// orderLines resolves a request's lines in the contract's order: the
// owners named (problems of fields, reported with the others); once every
// field is valid, each new line's warehouse scope and each named owner's;
// then the new lines' items (404); then the default owner of a new line
// naming none, the item's dfltOwner read afresh, which must be in the
// client's scope too. Every line of a new order (create) is new.
func (s *Service) orderLines(ctx context.Context, p *stockroom.Principal, v *stockroom.Validation, lines []stockroom.PurchaseLineRequest, create bool) ([]stockroom.PurchaseLineChange, error) {
	out := make([]stockroom.PurchaseLineChange, len(lines))
	named := make([]ownerChoice, len(lines))
	for i, l := range lines {
		out[i].PurchaseLineRequest = l
		var err error
		if named[i], err = s.nameOwnerAs(ctx, p, v, stockroom.LineField(i)+"owner", l.Owner); err != nil {
			return nil, err
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	isNew := func(l stockroom.PurchaseLineRequest) bool { return create || l.LineNo == 0 }
	for i, l := range lines {
		if isNew(l) {
			if err := s.authorizeWarehouse(ctx, p, l.Warehouse); err != nil {
				return nil, err
			}
		}
		if err := named[i].authorize(); err != nil {
			return nil, err
		}
	}
	for i, l := range lines {
		if isNew(l) {
			var err error
			if out[i].PartNo, err = s.findPartNo(ctx, l.ItemID); err != nil {
				return nil, err
			}
		}
	}
	defaults := map[int64]int64{} // partNo -> dfltOwner
	for i, l := range lines {
		out[i].Owner, out[i].OwnerGiven = named[i].id, named[i].named
		if !isNew(l) || named[i].named {
			continue
		}
		owner, ok := defaults[out[i].PartNo]
		if !ok {
			var err error
			if owner, _, err = s.stockOwner(ctx, p, named[i], out[i].PartNo, true); err != nil {
				return nil, err
			}
			defaults[out[i].PartNo] = owner
		}
		out[i].Owner = owner
	}
	return out, nil
}

// orderRefusal names the order or line a store refused.
func orderRefusal(err error, no string) error {
	var lr *stockroom.OrderLineRefusal
	switch {
	case errors.Is(err, stockroom.ErrNotFound):
		return stockroom.Errorf(stockroom.ENOTFOUND, "No purchase order %q.", no)
	case errors.Is(err, stockroom.ErrDuplicate):
		return stockroom.Errorf(stockroom.ECONFLICT, "Purchase order %q exists already; order numbers are unique without regard to letter case.", no)
	case !errors.As(err, &lr):
		return err
	case errors.Is(lr.Err, stockroom.ErrDiscontinued):
		return stockroom.Errorf(stockroom.ECONFLICT, "Line %d: item %q is discontinued and cannot be ordered; reactivate it first (PUT /Item with \"discontinued\": false).", lr.Line, lr.Name)
	case errors.Is(lr.Err, stockroom.ErrWarehouseInactive):
		return stockroom.Errorf(stockroom.ECONFLICT, "Line %d: warehouse %s is inactive and takes no stock; reactivate it first (stockroom warehouse update %s --active=true).", lr.Line, lr.Name, lr.Name)
	}
	return stockroom.Errorf(stockroom.ECONFLICT, "Line %d: customer %s is inactive and takes no stock; reactivate it first (PUT /Customer with \"active\": true).", lr.Line, lr.Name)
}

func setIfGiven(dst *string, src *string) {
	if src != nil {
		*dst = *src
	}
}

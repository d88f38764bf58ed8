package service

import (
	"context"
	"errors"
	"fmt"

	"github.com/stockroom/stockroom"
)

// orderStore keeps purchase and shipping orders. A purchase order's writes
// keep onOrder and the ledger in their own transaction; a shipping order's
// move no figure.
type orderStore interface {
	FindPurchaseOrder(ctx context.Context, no string) (stockroom.PurchaseOrder, error)
	FindPurchaseLine(ctx context.Context, no string, lineNo int64) (stockroom.PurchaseOrder, error)
	ListPurchaseOrders(ctx context.Context, scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.PurchaseOrder], error)
	CreatePurchaseOrder(ctx context.Context, key *stockroom.IdempotencyKey, o stockroom.PurchaseOrder, e stockroom.LedgerEntry) (stockroom.PurchaseOrder, error)
	ChangePurchaseOrder(ctx context.Context, key *stockroom.IdempotencyKey, no string, e stockroom.LedgerEntry, fn func(*stockroom.PurchaseOrder) (bool, error)) (stockroom.PurchaseOrder, error)
	FindShippingOrder(ctx context.Context, no string) (stockroom.ShippingOrder, error)
	ListShippingOrders(ctx context.Context, scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.ShippingOrder], error)
	CreateShippingOrder(ctx context.Context, key *stockroom.IdempotencyKey, o stockroom.ShippingOrder, e stockroom.LedgerEntry) (stockroom.ShippingOrder, error)
	ChangeShippingOrder(ctx context.Context, key *stockroom.IdempotencyKey, no string, e stockroom.LedgerEntry, fn func(*stockroom.ShippingOrder) (bool, error)) (stockroom.ShippingOrder, error)
}

// Orders of every kind (contract §10, §11): reading needs permission 11,
// writing the kind's own (301 purchase, 302 shipping orders). A client sees
// an order when one of its lines is in the client's warehouses and of its
// owners, and sees only those lines; an order it does not see is not found,
// as if it did not exist. Changing an order needs every line of it in
// scope. The operations are the same for every kind (Orders); a kind is
// its store's calls and its permission (PurchaseOrders, ShippingOrders).

// PurchaseOrders and ShippingOrders are the operations of the two kinds.
type (
	PurchaseOrders = Orders[stockroom.PurchaseOrder, *stockroom.PurchaseOrder, stockroom.PurchaseOrderRequest, *stockroom.PurchaseOrderRequest]
	ShippingOrders = Orders[stockroom.ShippingOrder, *stockroom.ShippingOrder, stockroom.ShippingOrderRequest, *stockroom.ShippingOrderRequest]
)

// PurchaseOrders: the store keeps onOrder and the ledger with each write.
func (s *Service) PurchaseOrders() PurchaseOrders {
	return PurchaseOrders{s: s, kind: stockroom.OrderKindPurchase, perm: stockroom.PermPurchaseOrders, find: Store.FindPurchaseOrder,
		list: Store.ListPurchaseOrders, each: Store.EachPurchaseOrder, create: Store.CreatePurchaseOrder, change: Store.ChangePurchaseOrder}
}

// ShippingOrders: a new line's owner defaults to the request's owner (then
// the item's dfltOwner); the customer must be one the client may see
// (GET /Customer). Writes move no figure.
func (s *Service) ShippingOrders() ShippingOrders {
	return ShippingOrders{s: s, kind: stockroom.OrderKindShipping, perm: stockroom.PermShippingOrders, find: Store.FindShippingOrder,
		list: Store.ListShippingOrders, each: Store.EachShippingOrder, create: Store.CreateShippingOrder, change: Store.ChangeShippingOrder}
}

// Orders are the operations on one kind of order, O, placed and changed
// by requests R. Get one from PurchaseOrders or ShippingOrders.
type Orders[O any, P OrderOf[O], R any, PR RequestOf[R]] struct {
	s    *Service
	kind stockroom.OrderKind
	perm stockroom.Permission // of writes
	// The store's calls, as method expressions of Store.
	find   func(db Store, ctx context.Context, no string) (O, error)
	list   func(db Store, ctx context.Context, scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest) (stockroom.Page[O], error)
	each   func(db Store, ctx context.Context, scope stockroom.Scope, f stockroom.OrderFilter, req stockroom.PageRequest, fn func(O) error) error
	create func(db Store, ctx context.Context, key *stockroom.IdempotencyKey, o O, e stockroom.LedgerEntry) (O, error)
	change func(db Store, ctx context.Context, key *stockroom.IdempotencyKey, no string, e stockroom.LedgerEntry, fn func(*O) (bool, error)) (O, error)
}

// OrderOf is a kind's order type as Orders handle it.
type OrderOf[O any] interface {
	*O
	stockroom.AnyOrder
	Seen(scope stockroom.Scope, owners *stockroom.Scope) (O, bool)
}

// RequestOf is a kind's request type (its body on POST and PUT).
type RequestOf[R any] interface {
	*R
	Validate(v *stockroom.Validation, create bool)
	Form() stockroom.OrderForm
}

// List returns a page of the orders the client sees: the open ones, or
// all. Order lists are at most MaxOrderPerPage long.
func (k Orders[O, P, R, PR]) List(ctx context.Context, p *stockroom.Principal, all bool, req Request[Query[stockroom.OrderFilter]]) (stockroom.Page[O], error) {
	f, page := req.In.Filter, req.In.Page
	var err error
	if f.Owners, err = k.s.admitList(ctx, p, &req, f.WID, f.Owner); err != nil {
		return stockroom.Page[O]{}, err
	}
	f.OpenOnly = !all
	page.PageSize = min(page.PageSize, stockroom.MaxOrderPerPage)
	res, err := k.list(k.s.db, ctx, p.Scope, f, page)
	for i := range res.Items {
		orderHeadSeen(p, P(&res.Items[i]).Header())
	}
	return res, err
}

// Get returns an order with the lines the client sees.
func (k Orders[O, P, R, PR]) Get(ctx context.Context, p *stockroom.Principal, req Request[string]) (O, error) {
	if err := k.s.admitRead(ctx, p, &req, 0); err != nil {
		var none O
		return none, err
	}
	o, err := k.seen(ctx, p, trimmed(req.In))
	return o, orderRefusal(err, k.kind, trimmed(req.In))
}

// seen returns the order numbered no as the client sees it (its lines,
// its header: orderHeadSeen), or stockroom.ErrNotFound.
func (k Orders[O, P, R, PR]) seen(ctx context.Context, p *stockroom.Principal, no string) (O, error) {
	o, err := k.find(k.s.db, ctx, no)
	if err != nil {
		return o, err
	}
	o, ok := P(&o).Seen(p.Scope, ownersSeen(p))
	if !ok {
		var none O
		return none, stockroom.ErrNotFound
	}
	orderHeadSeen(p, P(&o).Header())
	return o, nil
}

// Create validates and places an order: 201 with the order as stored.
// The new order is the empty one, Open and dated now, with the request
// applied as a change.
func (k Orders[O, P, R, PR]) Create(ctx context.Context, p *stockroom.Principal, req Request[R]) (O, error) {
	var o O
	if err := k.s.admit(p, k.perm, true, &req); err != nil {
		return o, err
	}
	ch, err := k.s.orderChange(ctx, p, PR(&req.In), &req.Problems, true)
	if err != nil {
		return o, err
	}
	h, no := P(&o).Header(), *PR(&req.In).Form().No
	*h.No, *h.PartyID, h.OrderDate, h.Status = no, ch.PartyID, k.s.now(), stockroom.OrderOpen
	if _, err := ch.Apply(P(&o)); err != nil {
		return o, err
	}
	res, err := k.create(k.s.db, ctx, req.Key, o, k.s.entry(p, 0, "", "", nil))
	if err == nil && k.kind == stockroom.OrderKindPurchase { // for receipts against it (receiptOrder)
		no := *P(&res).Header().No
		k.s.orderNumbers.put(stockroom.FoldKey(no), no)
	}
	return res, orderRefusal(err, k.kind, no)
}

// Update changes an open order (a PUT, naming the order by its number):
// its dates and texts, its lines' units (and a purchase line's price), and
// new lines.
func (k Orders[O, P, R, PR]) Update(ctx context.Context, p *stockroom.Principal, req Request[R]) (O, error) {
	var none O
	if err := k.s.admit(p, k.perm, true, &req); err != nil {
		return none, err
	}
	ch, err := k.s.orderChange(ctx, p, PR(&req.In), &req.Problems, false)
	if err != nil {
		return none, err
	}
	no := *PR(&req.In).Form().No
	res, err := k.change(k.s.db, ctx, nil, no, k.s.entry(p, 0, "", "", nil), func(o *O) (bool, error) {
		if err := writable(p, P(o)); err != nil {
			return false, err
		}
		return ch.Apply(P(o))
	})
	orderHeadSeen(p, P(&res).Header())
	return res, orderRefusal(err, k.kind, no)
}

// orderChange validates an order request of any kind and resolves its
// references, in the contract's order: every field first, with the party
// and the owners named (problems of fields, reported with the others); then
// warehouse and owner scope, the items, and new lines' default owners
// (orderLines).
func (s *Service) orderChange(ctx context.Context, p *stockroom.Principal, r interface {
	Validate(v *stockroom.Validation, create bool)
	Form() stockroom.OrderForm
}, v *stockroom.Validation, create bool) (stockroom.OrderChange, error) {
	r.Validate(v, create)
	f := r.Form()
	in := orderInput{form: f, v: v, create: create}
	party, err := s.orderParty(ctx, p, in)
	if err != nil {
		return stockroom.OrderChange{}, err
	}
	var owner ownerChoice // the order's default owner of new lines
	if f.Owner != nil {
		if owner, err = s.nameOwner(ctx, p, v, *f.Owner); err != nil {
			return stockroom.OrderChange{}, err
		}
	}
	lines, err := s.orderLines(ctx, p, in, owner)
	return stockroom.OrderChange{PartyID: party.ID, OrderDate: *f.OrderDate, DueDate: *f.DueDate, Reference: *f.Reference,
		Remark: *f.Remark, Lines: lines}, err
}

// orderInput is an order request of any kind as it is judged: its fields
// (form), their problems so far (v), and whether it places a new order
// (create) or changes one.
type orderInput struct {
	form   stockroom.OrderForm
	v      *stockroom.Validation
	create bool
}

// orderParty resolves the vendor or customer an order names, an id or a
// ShortID: one of the kind that the client may see (an active one, for a
// new order), else a problem of the field.
func (s *Service) orderParty(ctx context.Context, p *stockroom.Principal, in orderInput) (stockroom.Party, error) {
	kind, ref, v, active := in.form.Kind.Party(), *in.form.Party, in.v, in.create
	field := kind.IDField()
	if ref == nil || v.Has(field) {
		return stockroom.Party{}, nil
	}
	var (
		party stockroom.Party
		err   error
	)
	if ref.ShortID != "" {
		party, err = s.db.FindPartyByShortID(ctx, kind, ref.ShortID)
	} else {
		party, err = s.db.FindParty(ctx, kind, ref.ID)
	}
	if err == nil && !partyScope(p, kind).Contains(party.ID) {
		err = stockroom.ErrNotFound
	}
	switch {
	case errors.Is(err, stockroom.ErrNotFound):
		v.Add(field, "is not a "+string(kind)+": give a "+field+" or "+string(kind)+" ShortID (see GET /"+kind.Path()+")")
	case err != nil:
		return party, err
	case active && !party.Active:
		v.Add(field, "is an inactive "+string(kind)+"; reactivate it first (PUT /"+kind.Path()+" with \"active\": true)")
	}
	return party, nil
}

// orderLines resolves a request's lines in the contract's order: the
// owners named (problems of fields, reported with the others); once every
// field is valid, each new line's warehouse scope, each named owner's and
// the order's default owner's; then the new lines' items (404); then the
// default owner of a new line naming none (the order's, else the item's
// dfltOwner read afresh), which must be in the client's scope too. Every
// line of a new order (create) is new.
func (s *Service) orderLines(ctx context.Context, p *stockroom.Principal, in orderInput, owner ownerChoice) ([]stockroom.OrderLineChange, error) {
	v, lines, create := in.v, *in.form.Lines, in.create
	out := make([]stockroom.OrderLineChange, len(lines))
	named := make([]ownerChoice, len(lines))
	for i, l := range lines {
		out[i].OrderLineRequest = l
		if create {
			out[i].LineNo = 0 // a new order's lines are numbered as given
		}
		var err error
		if named[i], err = s.nameOwnerAs(ctx, p, v, stockroom.LineField(i)+"owner", l.Owner); err != nil {
			return nil, err
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := owner.authorize(); err != nil {
		return nil, err
	}
	for i, l := range lines {
		if l.IsNew(create) {
			if err := s.authorizeWarehouse(ctx, p, l.Warehouse); err != nil {
				return nil, err
			}
		}
		if err := named[i].authorize(); err != nil {
			return nil, err
		}
	}
	for i, l := range lines {
		if l.IsNew(create) {
			var err error
			if out[i].PartNo, err = s.findPartNo(ctx, p, l.ItemID); err != nil {
				return nil, err
			}
		}
	}
	defaults := map[int64]int64{} // partNo -> dfltOwner
	for i, l := range lines {
		out[i].Owner, out[i].OwnerGiven = named[i].id, named[i].named
		if !l.IsNew(create) || named[i].named {
			continue
		}
		if owner.named {
			out[i].Owner = owner.id
			continue
		}
		dflt, ok := defaults[out[i].PartNo]
		if !ok {
			var err error
			if dflt, _, err = s.stockOwner(ctx, p, named[i], out[i].PartNo, true); err != nil {
				return nil, noItem(err, "ShortID", quote(l.ItemID))
			}
			defaults[out[i].PartNo] = dflt
		}
		out[i].Owner = dflt
	}
	return out, nil
}

// orderRefusal names the order or line a store refused.
func orderRefusal(err error, kind stockroom.OrderKind, no string) error {
	var lr *stockroom.OrderLineRefusal
	switch {
	case errors.Is(err, stockroom.ErrNotFound):
		return stockroom.Errorf(stockroom.ENOTFOUND, "No %s %q.", kind.Name(), no)
	case errors.Is(err, stockroom.ErrDuplicate):
		return stockroom.Errorf(stockroom.ECONFLICT, "%s %q exists already; order numbers are unique without regard to letter case.", kind.Noun(), no)
	case !errors.As(err, &lr):
		return err
	case errors.Is(lr.Err, stockroom.ErrDiscontinued):
		return stockroom.Errorf(stockroom.ECONFLICT, "Line %d: item %q is discontinued and cannot be ordered; reactivate it first (PUT /Item with \"discontinued\": false).", lr.Line, lr.Name)
	case errors.Is(lr.Err, stockroom.ErrWarehouseInactive):
		return inactiveWarehouse(fmt.Sprintf("Line %d: ", lr.Line), lr.Name, lr.ID)
	}
	return stockroom.Errorf(stockroom.ECONFLICT, "Line %d: customer %s is inactive and takes no stock; reactivate it first (PUT /Customer with \"active\": true).", lr.Line, lr.Name)
}

package store

import (
	"slices"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
)

// Orders and transits in the feed. Their lines may be of several
// warehouses and owners, and a client limited to some sees only their lines
// (an order's Seen, a transit's lines of its owners), and a customer's
// header only when it sees that customer (service orderHeadSeen). So one
// change appends one event per action and per warehouse and owner of the
// lines (a transit's: per owner, at both its ends), and each carries, as
// data, the resource as a client of exactly that warehouse and owner
// sees it: the header and those lines. The feed shows an event only to a
// client of its warehouse (either end) and owner, so no event shows a line
// the client's GET would not; the customer of a shipping order is blanked
// when read, by the GET's own rule (service eventSeen). An order of one
// warehouse and owner, the common case, is one event with the whole order.
//
// Which actions a change appends, by kind of order:
//
//	change                         purchaseorder   shippingorder   workorder
//	placed                         created         created         created
//	changed (PUT, a change made)   updated         updated         -
//	ended by close / cancel        closed/canceled closed/canceled closed/canceled
//	receipt against a line         received (+closed when it closes the order)
//	notice shipped / canceled      updated         -               -
//	notice received                received (+closed)
//	commit                         -               committed       committed
//	uncommit                       -               updated         updated
//	pack                           -               packed          -
//	ship                           -               shipped (+closed when all shipped)
//	completion                     -               -               completed (+closed)
//
// Nothing that changes nothing appends anything.

// linePair is one warehouse and owner of an order's or transit's lines.
type linePair struct{ wid, owner int64 }

// orderPairs are the warehouses and owners of lines, in line order.
func orderPairs(lines []*stockroom.OrderLine) []linePair {
	var out []linePair
	for _, l := range lines {
		if p := (linePair{l.Warehouse, l.Owner}); !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// seeable is an order type that shows a client the lines of its scopes.
type seeable[O any] interface {
	Seen(scope stockroom.Scope, owners *stockroom.Scope) (O, bool)
}

// orderEvents appends the events of actions on order o as it is after the
// change: for each action, one per warehouse and owner of its lines.
func orderEvents[O seeable[O], P orderOf[O]](t *Tx, e stockroom.LedgerEntry, o O, actions ...string) error {
	h := P(&o).Header()
	kind := h.Kind.EventKind()
	pairs := orderPairs(P(&o).OrderLines())
	for _, a := range actions {
		for _, p := range pairs {
			seen, _ := o.Seen(stockroom.Scope{IDs: []int64{p.wid}}, &stockroom.Scope{IDs: []int64{p.owner}})
			if err := t.appendEvent(stockroom.NewEvent{Type: stockroom.OrderEvent(kind, a), Time: e.Time, ClientID: e.ClientID,
				WID: p.wid, Owner: p.owner, Subject: stockroom.EventSubject{Kind: kind, ID: *h.No}, Data: seen}); err != nil {
				return err
			}
		}
	}
	return nil
}

// changeActions are the actions of a change of an order from status was
// (empty for a new order) to is: created, or updated; and closed or
// canceled when it ended so.
func changeActions(was, is stockroom.OrderStatus) []string {
	var out []string
	switch {
	case was == "":
		out = append(out, "created")
	case is == was || is.IsOpen():
		out = append(out, "updated")
	}
	return append(out, endActions(was, is)...)
}

// endActions is closed or canceled when an order's status became so.
func endActions(was, is stockroom.OrderStatus) []string {
	if is != was && (is == stockroom.OrderClosed || is == stockroom.OrderCanceled) {
		return []string{strings.ToLower(string(is))}
	}
	return nil
}

// purchaseReadEvents reads purchase order no back, one query, and appends
// the events of actions on it and of its closing when the change closed it
// (from was).
func (t *Tx) purchaseReadEvents(e stockroom.LedgerEntry, no string, was stockroom.OrderStatus, actions ...string) error {
	o, err := purchaseOrders.readBack(t, &stockroom.PurchaseOrder{PONo: no})
	if err != nil {
		return err
	}
	return orderEvents(t, e, o, append(actions, endActions(was, o.Status)...)...)
}

// allocActions are the actions of an order action on allocations (act) that
// left the order, was before, is.
func allocActions(act allocAction, was, is stockroom.OrderStatus) []string {
	var out []string
	switch act.typ {
	case stockroom.TxCommit:
		out = append(out, "committed")
	case stockroom.TxUncommit:
		out = append(out, "updated")
	case stockroom.TxPack:
		out = append(out, "packed")
	case stockroom.TxShip:
		out = append(out, "shipped")
	case stockroom.TxAssemble:
		out = append(out, "completed")
	}
	return append(out, endActions(was, is)...)
}

// outboundEvents reads the order o back (a shipping order in one query, a
// work order with its product in two) and appends the events of actions.
func (t *Tx) outboundEvents(o *outboundOrder, e stockroom.LedgerEntry, actions []string) error {
	if o.kind == stockroom.OrderKindWork {
		wo, err := t.readWork(o.head.no)
		if err != nil {
			return err
		}
		return orderEvents(t, e, wo, actions...)
	}
	so, err := shippingOrders.readBack(t, &stockroom.ShippingOrder{SONo: o.head.no})
	if err != nil {
		return err
	}
	return orderEvents(t, e, so, actions...)
}

// transitEvents appends typ for transit tr after the change, one event per
// owner of its lines, with the transit's two ends (a notice's one, its
// destination) and, as data, data(owner): the answer as a client of that
// owner sees it.
func (t *Tx) transitEvents(typ stockroom.EventType, e stockroom.LedgerEntry, tr stockroom.Transit, data func(owner int64) any) error {
	var owners []int64
	for _, l := range tr.Lines {
		if !slices.Contains(owners, l.Owner) {
			owners = append(owners, l.Owner)
		}
	}
	wid, to := tr.ToWID, (*int64)(nil)
	if tr.FromWID != nil {
		wid, to = *tr.FromWID, &tr.ToWID
	}
	for _, owner := range owners {
		if err := t.appendEvent(stockroom.NewEvent{Type: typ, Time: e.Time, ClientID: e.ClientID, WID: wid, ToWID: to, Owner: owner,
			Subject: stockroom.EventSubject{Kind: "transit", ID: strconv.FormatInt(tr.ID, 10)}, Data: data(owner)}); err != nil {
			return err
		}
	}
	return nil
}

// transitOf is transit tr with the lines of owner only.
func transitOf(tr stockroom.Transit, owner int64) stockroom.Transit {
	lines := tr.Lines
	tr.Lines = []stockroom.TransitLine{}
	for _, l := range lines {
		if l.Owner == owner {
			tr.Lines = append(tr.Lines, l)
		}
	}
	return tr
}

// receiptOf is a transit receipt's answer with the lines of owner only.
func receiptOf(res stockroom.TransitReceiveResult, owner int64) stockroom.TransitReceiveResult {
	res.Transit = transitOf(res.Transit, owner)
	lines := res.Lines
	res.Lines = []stockroom.TransitReceipt{}
	for _, r := range lines {
		for _, l := range res.Transit.Lines {
			if l.Line == r.Line {
				res.Lines = append(res.Lines, r)
			}
		}
	}
	return res
}

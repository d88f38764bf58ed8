package service

import (
	"context"
	"errors"
	"fmt"

	"github.com/stockroom/stockroom"
)

// receiptOrder is the purchase order line a receive is against, when it
// names one: line with poNo, or line with the order's number in reference
// and no poNo. Against an order this instance has seen, it reads nothing:
// the store takes the line in the receipt's transaction, with its price and
// the order's vendor where the receipt gives none, and refuses the receipt
// (stockroom.ErrOrderLineMismatch) when the line is missing or is not of
// the receipt's item, warehouse and owner; then readReceiptOrder judges it.
// The owner is the one named, or the item's default for a client that may
// take every owner's stock; for any other client the line is read first,
// as its owner may be one the item's default is not.
func (s *Service) receiptOrder(ctx context.Context, p *stockroom.Principal, r *stockroom.ReceiveRequest, partNo int64, named *ownerChoice) (*stockroom.ReceiptOrder, error) {
	no, _ := receiptOrderNo(r)
	if r.Line == 0 || no == "" {
		return nil, nil
	}
	canonical, seen := s.orderNumbers.get(stockroom.FoldKey(no))
	if !seen || (!named.named && !p.Owners.All) {
		return s.readReceiptOrder(ctx, p, r, partNo, named)
	}
	if r.Reference == "" {
		r.Reference = canonical
	}
	return &stockroom.ReceiptOrder{PONo: canonical, Line: r.Line, OnOrder: r.Units.Neg()}, nil
}

// readReceiptOrder reads the purchase order line a receive names and judges
// the receive against it. A reference that names no order the client sees
// is only a reference, as it always was (nil); an unknown poNo, or a line
// the order lacks or the client does not see, is not found. The line must
// be of the receive's item and warehouse, and of its owner when it names
// one (else problems of those fields). The receipt takes the line's owner,
// and, when it gives none, the line's unit price, the order's vendor as
// supplier and the order's number as reference.
func (s *Service) readReceiptOrder(ctx context.Context, p *stockroom.Principal, r *stockroom.ReceiveRequest, partNo int64, named *ownerChoice) (*stockroom.ReceiptOrder, error) {
	no, explicit := receiptOrderNo(r)
	o, err := s.db.FindPurchaseLine(ctx, no, r.Line)
	if err == nil {
		o, _ = o.Seen(p.Scope, ownersSeen(p))
	}
	if err != nil || len(o.Lines) == 0 {
		// No such line, or not one the client sees: is the order there?
		if o, err = s.PurchaseOrders().seen(ctx, p, no); err == nil {
			return nil, stockroom.Errorf(stockroom.ENOTFOUND, "Purchase order %s has no line %d.", o.PONo, r.Line)
		}
		if errors.Is(err, stockroom.ErrNotFound) && !explicit {
			return nil, nil
		}
		return nil, orderRefusal(err, stockroom.OrderKindPurchase, no)
	}
	s.orderNumbers.put(stockroom.FoldKey(o.PONo), o.PONo)
	l := o.Lines[0]
	var v stockroom.Validation
	of := fmt.Sprintf("line %d of purchase order %s", l.LineNo, o.PONo)
	if l.PartNo != partNo {
		v.Add("itemID", fmt.Sprintf("is not the item of %s (%s)", of, l.ShortID))
	}
	if l.Warehouse != r.WID {
		v.Add("wid", fmt.Sprintf("is not the warehouse of %s (%d)", of, l.Warehouse))
	}
	if named.named && named.id != l.Owner {
		v.Add("owner", fmt.Sprintf("is not the owner of %s (%d)", of, l.Owner))
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	*named = ownerChoice{named: true, id: l.Owner}
	ro := &stockroom.ReceiptOrder{PONo: o.PONo, Line: l.LineNo, OnOrder: stockroom.MinUnits(r.Units, l.Due(o.Status)).Neg()}
	if r.Price.IsZero() {
		r.Price = l.UnitPrice
	}
	if r.Supplier == 0 {
		r.Supplier = o.VendorID
	}
	if r.Reference == "" {
		r.Reference = o.PONo
	}
	return ro, nil
}

// receiptOrderNo is the order number a receive names: its poNo (explicit),
// or else its reference, which may be one.
func receiptOrderNo(r *stockroom.ReceiveRequest) (no string, explicit bool) {
	if r.PONo != "" {
		return r.PONo, true
	}
	return trimmed(r.Reference), false
}

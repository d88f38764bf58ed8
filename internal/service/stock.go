package service

import (
	"context"
	"errors"
	"maps"
	"time"

	"github.com/stockroom/stockroom"
)

// stockStore keeps lots, stock levels and the ledger. Each write records the
// answer of its Idempotency-Key, when given, in its own transaction.
type stockStore interface {
	FindReasonCode(ctx context.Context, code int64) (stockroom.ReasonCode, error)
	Receive(ctx context.Context, key *stockroom.IdempotencyKey, r stockroom.Receipt, e stockroom.LedgerEntry) (stockroom.ReceiveResult, error)
	ReceiveMany(ctx context.Context, rs []stockroom.Receipt, e stockroom.LedgerEntry) (int, error)
	Withdraw(ctx context.Context, key *stockroom.IdempotencyKey, w stockroom.Withdrawal, e stockroom.LedgerEntry) (stockroom.DrawResult, error)
	SetHold(ctx context.Context, key *stockroom.IdempotencyKey, recNo int64, hold bool, e stockroom.LedgerEntry, check func(stockroom.Lot) error) (stockroom.HoldResult, error)
	ListLots(ctx context.Context, scope stockroom.Scope, f stockroom.LotFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.Lot], error)
	ListStockLevels(ctx context.Context, scope stockroom.Scope, f stockroom.StockFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.StockLevel], error)
	FindTransaction(ctx context.Context, scope stockroom.Scope, owners *stockroom.Scope, id int64) (stockroom.Transaction, error)
	ListTransactions(ctx context.Context, scope stockroom.Scope, f stockroom.TransactionFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.Transaction], error)
	Audit(ctx context.Context) ([]stockroom.Discrepancy, error)
}

// The stock operations apply the contract's checks in its order: permission,
// then validation (all fields at once, reason codes included), then
// warehouse scope, then existence, then state.

// Receive creates a lot (permission 95), against a purchase order line when
// it names one (receiptOrder).
func (s *Service) Receive(ctx context.Context, p *stockroom.Principal, req Request[stockroom.ReceiveRequest]) (stockroom.ReceiveResult, error) {
	var none stockroom.ReceiveResult
	if err := s.admit(p, stockroom.PermReceive, true, req.Unreadable, req.Key); err != nil {
		return none, err
	}
	r, v := req.In, &req.Problems
	r.Validate(v)
	if err := s.checkParty(ctx, v, "supplier", stockroom.Vendor, r.Supplier); err != nil {
		return none, err
	}
	partNo, named, err := s.checkStockLine(ctx, p, v, r.ReasonCode, stockroom.DirectionReceive, r.Owner, r.ItemID, r.WID)
	if err != nil {
		return none, err
	}
	r.Spot = trimmed(r.Spot)
	details := map[string]any{
		"spot": r.Spot, "serial": r.Serial, "serial2": r.Serial2, "rfidTag": r.RFIDTag, "netWeight": r.NetWeight,
		"grossWeight": r.GrossWeight, "price": r.Price, "supplier": r.Supplier, "line": r.Line, "jobid": r.JobID,
	}
	if r.Expires != nil {
		details["expires"] = r.Expires.Format(time.RFC3339Nano)
	}
	asked, askedOwner := r, named
	order, err := s.receiptOrder(ctx, p, &r, partNo, &named)
	if err != nil {
		return none, err
	}
	res, owner, err := s.receiveAs(ctx, p, req.Key, receiveAs{r, partNo, named, order, details})
	if errors.Is(err, stockroom.ErrOrderLineMismatch) {
		// The line is not what the receipt took it for: judge the receipt
		// against the line as read, and ask once more.
		r, named = asked, askedOwner
		if order, err = s.readReceiptOrder(ctx, p, &r, partNo, &named); err != nil {
			return none, err
		}
		res, owner, err = s.receiveAs(ctx, p, req.Key, receiveAs{r, partNo, named, order, details})
		if errors.Is(err, stockroom.ErrOrderLineMismatch) {
			err = stockroom.Errorf(stockroom.ECONFLICT, "Purchase order %s line %d changed while it was received; try again.", order.PONo, order.Line)
		}
	}

	switch {
	case errors.Is(err, stockroom.ErrDiscontinued):
		err = stockroom.Errorf(stockroom.ECONFLICT, "Item %q is discontinued and cannot be received; reactivate it first (PUT /Item with \"discontinued\": false).", r.ItemID)
	case errors.Is(err, stockroom.ErrOwnerInactive):
		err = stockroom.Errorf(stockroom.ECONFLICT, "Customer %d is inactive and takes no stock; reactivate it first (PUT /Customer with \"active\": true).", owner)
	case errors.Is(err, stockroom.ErrWarehouseInactive):
		err = stockroom.Errorf(stockroom.ECONFLICT, "Warehouse %d is inactive and takes no stock; reactivate it first (stockroom warehouse update %d --active=true).", r.WID, r.WID)
	case errors.Is(err, stockroom.ErrOrderEnded):
		err = stockroom.Errorf(stockroom.ECONFLICT, "Purchase order %s is closed or canceled and takes no more receipts.", order.PONo)
	}
	return res, err
}

// receiveAs is a receipt as the service judged it, with the ledger details
// of the request.
type receiveAs struct {
	r       stockroom.ReceiveRequest
	partNo  int64
	named   ownerChoice
	order   *stockroom.ReceiptOrder
	details map[string]any
}

// receiveAs stores a receipt for the owner named, or the item's default
// owner, asked again if that changes meanwhile; it returns the owner too.
func (s *Service) receiveAs(ctx context.Context, p *stockroom.Principal, key *stockroom.IdempotencyKey, a receiveAs) (stockroom.ReceiveResult, int64, error) {
	details := maps.Clone(a.details)
	if a.order != nil {
		details["poNo"] = a.order.PONo
	}
	e := s.entry(p, a.r.ReasonCode, a.r.Reference, a.r.Remark, details)
	var owner int64
	res, err := withFreshDefault(func(fresh bool) (stockroom.ReceiveResult, error) {
		var (
			isDefault bool
			err       error
		)
		owner, isDefault, err = s.stockOwner(ctx, p, a.named, a.partNo, fresh)
		if err != nil {
			return stockroom.ReceiveResult{}, err
		}
		rc := stockroom.Receipt{PartNo: a.partNo, ReceiveRequest: a.r, Owner: owner, OwnerIsDefault: isDefault, Order: a.order}
		return s.db.Receive(ctx, key, rc, e)
	})
	return res, owner, err
}

// withdraw carries out an issue or a move for the request's owner, or the
// item's default owner, asked again if that changes meanwhile.
func (s *Service) withdraw(ctx context.Context, p *stockroom.Principal, key *stockroom.IdempotencyKey, named ownerChoice, w stockroom.Withdrawal, e stockroom.LedgerEntry) (stockroom.DrawResult, error) {
	res, err := withFreshDefault(func(fresh bool) (stockroom.DrawResult, error) {
		var err error
		w.Owner, w.OwnerIsDefault, err = s.stockOwner(ctx, p, named, w.PartNo, fresh)
		if err != nil {
			return stockroom.DrawResult{}, err
		}
		return s.db.Withdraw(ctx, key, w, e)
	})
	if errors.Is(err, stockroom.ErrWarehouseInactive) {
		err = stockroom.Errorf(stockroom.ECONFLICT, "Warehouse %d is inactive and takes no stock; reactivate it first (stockroom warehouse update %d --active=true).", w.ToWID, w.ToWID)
	}
	return res, err
}

// Issue draws units out of stock, oldest lots first (permission 88).
func (s *Service) Issue(ctx context.Context, p *stockroom.Principal, req Request[stockroom.IssueRequest]) (stockroom.DrawResult, error) {
	var none stockroom.DrawResult
	if err := s.admit(p, stockroom.PermIssue, true, req.Unreadable, req.Key); err != nil {
		return none, err
	}
	r, v := req.In, &req.Problems
	r.Validate(v)
	if err := s.checkParty(ctx, v, "shipto", stockroom.Customer, r.ShipTo); err != nil {
		return none, err
	}
	partNo, named, err := s.checkStockLine(ctx, p, v, r.ReasonCode, stockroom.DirectionIssue, r.Owner, r.ItemID, r.WID)
	if err != nil {
		return none, err
	}
	w := stockroom.Withdrawal{
		Type: stockroom.TxIssue, PartNo: partNo, WID: r.WID, Units: r.Units,
		Spot: trimmed(r.Spot), Serial: r.Serial, Serial2: r.Serial2, RFIDTag: r.RFIDTag, RecNo: r.RecNo,
	}
	details := map[string]any{
		"serial": r.Serial, "serial2": r.Serial2, "rfidTag": r.RFIDTag, "netWeight": r.NetWeight, "shipto": r.ShipTo,
		"prodID": r.ProdID, "recno": r.RecNo, "line": r.Line,
	}
	return s.withdraw(ctx, p, req.Key, named, w, s.entry(p, r.ReasonCode, r.Reference, r.Remark, details))
}

// Move relocates units within a warehouse or to another one (permission
// 15). Both warehouses must be in scope, but for a transfer (a move with a
// transit slip to another warehouse), which ships a transit.
func (s *Service) Move(ctx context.Context, p *stockroom.Principal, req Request[stockroom.MoveRequest]) (stockroom.DrawResult, error) {
	var none stockroom.DrawResult
	if err := s.admit(p, stockroom.PermMove, true, req.Unreadable, req.Key); err != nil {
		return none, err
	}
	r, v := req.In, &req.Problems
	r.Validate(v)
	toWID, toSpot := r.Destination()
	w := stockroom.Withdrawal{
		Type: stockroom.TxMove, WID: r.WID, Units: r.Units, Spot: trimmed(r.FromSpot),
		Serial: r.Serial, Serial2: r.Serial2, RFIDTag: r.RFIDTag, RecNo: r.RecNo, ToWID: toWID, ToSpot: trimmed(toSpot),
	}
	details := map[string]any{
		"fromSpot": w.Spot, "transitSlip": r.TransitSlip, "serial": r.Serial, "serial2": r.Serial2,
		"rfidTag": r.RFIDTag, "recno": r.RecNo, "shipToWid": r.ShipToWID,
	}
	if r.ToSpot != nil {
		details["toSpot"] = w.ToSpot
	}
	if r.Received != nil {
		w.Received = *r.Received
		details["received"] = r.Received.Format("2006-01-02")
	}
	e := s.entry(p, 0, r.Reference, "", details)
	if r.IsTransfer() {
		return s.transfer(ctx, p, req.Key, r, v, w, e)
	}
	partNo, named, err := s.checkStockLine(ctx, p, v, 0, "", r.Owner, r.ItemID, r.WID, toWID)
	if err != nil {
		return none, err
	}
	w.PartNo = partNo
	return s.withdraw(ctx, p, req.Key, named, w, e)
}

// checkStockLine makes the checks every stock change shares once its fields
// are validated, in the contract's order: the reason code, which must fit
// the direction, and the owner named, which must be a customer (problems of
// fields, reported with the others); then the warehouses' scope; then the
// owner's scope; then the item, resolved to its partNo. A move has no
// reason code (reason 0, direction "").
func (s *Service) checkStockLine(ctx context.Context, p *stockroom.Principal, v *stockroom.Validation, reason int64, dir stockroom.Direction, owner *stockroom.OwnerRef, itemID string, wids ...int64) (int64, ownerChoice, error) {
	if reason != 0 || dir != "" {
		if err := s.checkReasonCode(ctx, v, reason, dir); err != nil {
			return 0, ownerChoice{}, err
		}
	}
	named, err := s.nameOwner(ctx, p, v, owner)
	if err != nil {
		return 0, named, err
	}
	if err := v.Err(); err != nil {
		return 0, named, err
	}
	for _, wid := range wids {
		if err := s.authorizeWarehouse(ctx, p, wid); err != nil {
			return 0, named, err
		}
	}
	if err := named.authorize(); err != nil {
		return 0, named, err
	}
	partNo, err := s.findPartNo(ctx, itemID)
	return partNo, named, err
}

// HoldRequest names the lot of a hold or release.
type HoldRequest struct {
	RecNo int64
}

// SetHold puts a lot on hold (hold=true) or releases it (permission 15). A
// lot outside the client's scope is not found, as if it did not exist; an
// emptied lot can be neither held nor released.
func (s *Service) SetHold(ctx context.Context, p *stockroom.Principal, hold bool, req Request[HoldRequest]) (stockroom.HoldResult, error) {
	var none stockroom.HoldResult
	if err := s.admit(p, stockroom.PermMove, true, req.Unreadable, req.Key); err != nil {
		return none, err
	}
	recNo, v := req.In.RecNo, &req.Problems
	if !v.Has("recno") && recNo <= 0 {
		v.Add("recno", "is required")
	}
	if err := v.Err(); err != nil {
		return none, err
	}
	notFound := stockroom.Errorf(stockroom.ENOTFOUND, "No lot with recNo %d.", recNo)
	res, err := s.db.SetHold(ctx, req.Key, recNo, hold, s.entry(p, 0, "", "", nil), func(l stockroom.Lot) error {
		switch {
		case !p.Scope.Contains(l.WID), !p.Owners.Contains(l.Owner):
			return notFound
		case l.Units.IsZero():
			return stockroom.Errorf(stockroom.ECONFLICT, "Lot %d is empty; only a lot in stock can be held or released.", recNo)
		}
		return nil
	})
	if errors.Is(err, stockroom.ErrNotFound) {
		err = notFound
	}
	return res, err
}

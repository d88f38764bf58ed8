package service

import (
	"context"
	"errors"
	"maps"
	"strconv"
	"time"

	"github.com/stockroom/stockroom"
)

// stockStore keeps lots, stock levels and the ledger. Each write records the
// answer of its Idempotency-Key, when given, in its own transaction.
type stockStore interface {
	FindReasonCode(ctx context.Context, code int64) (stockroom.ReasonCode, error)
	FindLot(ctx context.Context, recNo int64) (stockroom.Lot, error)
	Receive(ctx context.Context, key *stockroom.IdempotencyKey, r stockroom.Receipt, e stockroom.LedgerEntry) (stockroom.ReceiveResult, error)
	ReceiveMany(ctx context.Context, rs []stockroom.Receipt, e stockroom.LedgerEntry) (int, error)
	ReceiptRefusals(ctx context.Context, rs []stockroom.Receipt) ([]error, error)
	Withdraw(ctx context.Context, key *stockroom.IdempotencyKey, w stockroom.Withdrawal, e stockroom.LedgerEntry) (stockroom.DrawResult, error)
	SetHold(ctx context.Context, key *stockroom.IdempotencyKey, h stockroom.HoldChange, e stockroom.LedgerEntry, check func(stockroom.Lot) error) (stockroom.HoldResult, error)
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
	op, err := s.prepareReceive(ctx, p, &req)
	return applied[stockroom.ReceiveResult](ctx, s, req.Key, op, err)
}

// prepareReceive judges a receipt (see stockOp).
func (s *Service) prepareReceive(ctx context.Context, p *stockroom.Principal, req *Request[stockroom.ReceiveRequest]) (*stockOp, error) {
	if err := s.admit(p, stockroom.PermReceive, true, req); err != nil {
		return nil, err
	}
	r, v := req.In, &req.Problems
	r.Validate(v)
	if err := s.checkParty(ctx, v, partyRef{field: "supplier", kind: stockroom.Vendor, id: r.Supplier, seen: partyScope(p, stockroom.Vendor)}); err != nil {
		return nil, err
	}
	partNo, named, err := s.checkStockLine(ctx, p, v, stockLine{reason: r.ReasonCode, dir: stockroom.DirectionReceive, owner: r.Owner, itemID: r.ItemID, wids: []int64{r.WID}})
	if err != nil {
		return nil, err
	}
	r.Spot = trimmed(r.Spot)
	details := map[string]any{
		"spot": r.Spot, "serial": r.Serial, "serial2": r.Serial2, "rfidTag": r.RFIDTag, "netWeight": r.NetWeight,
		"grossWeight": r.GrossWeight, "price": r.Price, "supplier": r.Supplier, "line": r.Line, "jobid": r.JobID,
	}
	if r.Expires != nil {
		details["expires"] = r.Expires.Format(time.RFC3339Nano)
	}
	asked := receiveAs{r, partNo, named, nil, details}
	order, err := s.receiptOrder(ctx, p, &r, partNo, &named)
	if err != nil {
		return nil, err
	}
	return s.receiveOp(p, receiveAs{r, partNo, named, order, details}, asked), nil
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

// receiveOp is the receipt a, for the owner named, or the item's default
// owner, asked again if that changes meanwhile. A purchase order line that
// is not what the receipt took it for is read, and the receipt judged
// against it as read (asked is the receipt before it met the line), once.
func (s *Service) receiveOp(p *stockroom.Principal, a, asked receiveAs) *stockOp {
	var (
		stale  staleDefault
		owner  int64
		reread bool
	)
	plan := func(ctx context.Context) (stockroom.StockChange, error) {
		details := maps.Clone(a.details)
		if a.order != nil {
			details["poNo"] = a.order.PONo
		}
		e := s.entry(p, a.r.ReasonCode, a.r.Reference, a.r.Remark, details)
		var (
			isDefault bool
			err       error
		)
		owner, isDefault, err = s.stockOwner(ctx, p, a.named, a.partNo, stale.fresh)
		rc := stockroom.Receipt{PartNo: a.partNo, ReceiveRequest: a.r, Owner: owner, OwnerIsDefault: isDefault, Order: a.order}
		return stockroom.StockChange{Receipt: &rc, Entry: e}, err
	}
	settle := func(ctx context.Context, err error) (bool, error) {
		switch {
		case stale.again(err):
			return true, nil
		case errors.Is(err, stockroom.ErrOrderLineMismatch) && reread:
			return false, stockroom.Errorf(stockroom.ECONFLICT, "Purchase order %s line %d changed while it was received; try again.", a.order.PONo, a.order.Line)
		case errors.Is(err, stockroom.ErrOrderLineMismatch):
			// The line is not what the receipt took it for: judge the
			// receipt against the line as read, and ask once more.
			reread, stale = true, staleDefault{}
			order := a.order
			a.r, a.named = asked.r, asked.named
			if a.order, err = s.readReceiptOrder(ctx, p, &a.r, a.partNo, &a.named); err != nil {
				a.order = order
				return false, err
			}
			return true, nil
		}
		return false, receiptRefusal(err, a, owner)
	}
	return &stockOp{plan: plan, settle: settle}
}

// receiptRefusal words the store's refusal of the receipt a for owner.
func receiptRefusal(err error, a receiveAs, owner int64) error {
	r := a.r
	switch {
	case errors.Is(err, stockroom.ErrNotFound): // moved to a catalogue the client does not see (stockOwner)
		err = noItem(err, "ShortID", quote(r.ItemID))
	case errors.Is(err, stockroom.ErrDiscontinued):
		err = stockroom.Errorf(stockroom.ECONFLICT, "Item %q is discontinued and cannot be received; reactivate it first (PUT /Item with \"discontinued\": false).", r.ItemID)
	case errors.Is(err, stockroom.ErrOwnerInactive):
		err = stockroom.Errorf(stockroom.ECONFLICT, "Customer %d is inactive and takes no stock; reactivate it first (PUT /Customer with \"active\": true).", owner)
	case errors.Is(err, stockroom.ErrWarehouseInactive):
		err = inactiveWarehouse("", strconv.FormatInt(r.WID, 10), r.WID)
	case errors.Is(err, stockroom.ErrOrderEnded):
		err = stockroom.Errorf(stockroom.ECONFLICT, "Purchase order %s is closed or canceled and takes no more receipts.", a.order.PONo)
	}
	return err
}

// drawOp is an issue or a move (w, with its ledger entry e) for the owner
// the request named, or the item's default owner, asked again if that
// changes meanwhile; itemID is the item as the request named it.
func (s *Service) drawOp(p *stockroom.Principal, named ownerChoice, w stockroom.Withdrawal, e stockroom.LedgerEntry, itemID string) *stockOp {
	var stale staleDefault
	plan := func(ctx context.Context) (stockroom.StockChange, error) {
		w := w
		var err error
		w.Owner, w.OwnerIsDefault, err = s.stockOwner(ctx, p, named, w.PartNo, stale.fresh)
		return stockroom.StockChange{Withdrawal: &w, Entry: e}, err
	}
	settle := func(_ context.Context, err error) (bool, error) {
		if stale.again(err) {
			return true, nil
		}
		if errors.Is(err, stockroom.ErrWarehouseInactive) {
			err = inactiveWarehouse("", strconv.FormatInt(w.ToWID, 10), w.ToWID)
		}
		return false, noItem(err, "ShortID", quote(itemID)) // moved to a catalogue the client does not see (stockOwner)
	}
	return &stockOp{plan: plan, settle: settle}
}

// Issue draws units out of stock, oldest lots first (permission 88).
func (s *Service) Issue(ctx context.Context, p *stockroom.Principal, req Request[stockroom.IssueRequest]) (stockroom.DrawResult, error) {
	op, err := s.prepareIssue(ctx, p, &req)
	return applied[stockroom.DrawResult](ctx, s, req.Key, op, err)
}

// prepareIssue judges an issue (see stockOp).
func (s *Service) prepareIssue(ctx context.Context, p *stockroom.Principal, req *Request[stockroom.IssueRequest]) (*stockOp, error) {
	if err := s.admit(p, stockroom.PermIssue, true, req); err != nil {
		return nil, err
	}
	r, v := req.In, &req.Problems
	r.Validate(v)
	if err := s.checkParty(ctx, v, partyRef{field: "shipto", kind: stockroom.Customer, id: r.ShipTo, seen: partyScope(p, stockroom.Customer)}); err != nil {
		return nil, err
	}
	partNo, named, err := s.checkStockLine(ctx, p, v, stockLine{reason: r.ReasonCode, dir: stockroom.DirectionIssue, owner: r.Owner, itemID: r.ItemID, wids: []int64{r.WID}})
	if err != nil {
		return nil, err
	}
	w := stockroom.Withdrawal{
		Type: stockroom.TxIssue, PartNo: partNo, WID: r.WID, Units: r.Units,
		Spot: trimmed(r.Spot), Serial: r.Serial, Serial2: r.Serial2, RFIDTag: r.RFIDTag, RecNo: r.RecNo,
	}
	details := map[string]any{
		"serial": r.Serial, "serial2": r.Serial2, "rfidTag": r.RFIDTag, "netWeight": r.NetWeight, "shipto": r.ShipTo,
		"prodID": r.ProdID, "recno": r.RecNo, "line": r.Line,
	}
	return s.drawOp(p, named, w, s.entry(p, r.ReasonCode, r.Reference, r.Remark, details), r.ItemID), nil
}

// Move relocates units within a warehouse or to another one (permission
// 15). Both warehouses must be in scope, but for a transfer (a move with a
// transit slip to another warehouse), which ships a transit. A move by
// recNo takes what it leaves out from the lot (lotOfMove).
func (s *Service) Move(ctx context.Context, p *stockroom.Principal, req Request[stockroom.MoveRequest]) (stockroom.DrawResult, error) {
	op, err := s.prepareMove(ctx, p, &req)
	return applied[stockroom.DrawResult](ctx, s, req.Key, op, err)
}

// prepareMove judges a move (see stockOp).
func (s *Service) prepareMove(ctx context.Context, p *stockroom.Principal, req *Request[stockroom.MoveRequest]) (*stockOp, error) {
	if err := s.admit(p, stockroom.PermMove, true, req); err != nil {
		return nil, err
	}
	r, v := req.In, &req.Problems
	r.Validate(v)
	if r.RecNo != 0 && !v.Has("recno") {
		if err := s.lotOfMove(ctx, p, v, &r); err != nil {
			return nil, err
		}
	}
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
	// A transfer ships a transit: only its source need be in scope, and its
	// destination exist (transferDestination).
	line := stockLine{owner: r.Owner, itemID: r.ItemID, wids: []int64{r.WID, toWID}}
	if r.IsTransfer() {
		line.wids = line.wids[:1]
		w.Type, w.Slip = stockroom.TxTransfer, trimmed(r.TransitSlip)
	}
	partNo, named, err := s.checkStockLine(ctx, p, v, line)
	if err == nil && r.IsTransfer() {
		err = s.transferDestination(ctx, p, toWID)
	}
	if err != nil {
		return nil, noItem(err, "ShortID", quote(r.ItemID))
	}
	w.PartNo = partNo
	return s.drawOp(p, named, w, s.entry(p, 0, r.Reference, "", details), r.ItemID), nil
}

// stockLine is what every stock change names: a reason code and the
// direction it must fit (a move has neither: 0 and ""), an owner, an item
// and the warehouses it touches.
type stockLine struct {
	reason int64
	dir    stockroom.Direction
	owner  *stockroom.OwnerRef
	itemID string
	wids   []int64
}

// checkStockLine makes the checks every stock change shares once its fields
// are validated, in the contract's order: the reason code, which must fit
// the direction, and the owner named, which must be a customer (problems of
// fields, reported with the others); then the warehouses' scope; then the
// owner's scope; then the item, resolved to its partNo.
func (s *Service) checkStockLine(ctx context.Context, p *stockroom.Principal, v *stockroom.Validation, l stockLine) (int64, ownerChoice, error) {
	if l.reason != 0 || l.dir != "" {
		if err := s.checkReasonCode(ctx, v, l.reason, l.dir); err != nil {
			return 0, ownerChoice{}, err
		}
	}
	named, err := s.nameOwner(ctx, p, v, l.owner)
	if err != nil {
		return 0, named, err
	}
	if err := v.Err(); err != nil {
		return 0, named, err
	}
	for _, wid := range l.wids {
		if err := s.authorizeWarehouse(ctx, p, wid); err != nil {
			return 0, named, err
		}
	}
	if err := named.authorize(); err != nil {
		return 0, named, err
	}
	partNo, err := s.findPartNo(ctx, p, l.itemID)
	return partNo, named, err
}

// HoldRequest names the lot of a hold or release.
type HoldRequest = stockroom.HoldRequest

// SetHold puts a lot on hold (hold=true) or releases it (permission 15). A
// lot outside the client's scope is not found, as if it did not exist; an
// emptied lot can be neither held nor released.
func (s *Service) SetHold(ctx context.Context, p *stockroom.Principal, hold bool, req Request[HoldRequest]) (stockroom.HoldResult, error) {
	op, err := s.prepareHold(p, hold, &req)
	return applied[stockroom.HoldResult](ctx, s, req.Key, op, err)
}

// prepareHold judges a hold or a release (see stockOp); the lot's scope
// and state are judged on the row the store locks.
func (s *Service) prepareHold(p *stockroom.Principal, hold bool, req *Request[HoldRequest]) (*stockOp, error) {
	if err := s.admit(p, stockroom.PermMove, true, req); err != nil {
		return nil, err
	}
	recNo, v := req.In.RecNo, &req.Problems
	if !v.Has("recno") && recNo <= 0 {
		v.Add("recno", "is required")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	notFound := noLot(recNo)
	c := stockroom.StockChange{Hold: &stockroom.HoldChange{RecNo: recNo, Hold: hold}, Entry: s.entry(p, 0, "", "", nil), Check: func(l stockroom.Lot) error {
		switch {
		case !seesLot(p, l):
			return notFound
		case l.Units.IsZero():
			return stockroom.Errorf(stockroom.ECONFLICT, "Lot %d is empty; only a lot in stock can be held or released.", recNo)
		}
		return nil
	}}
	return &stockOp{
		plan: func(context.Context) (stockroom.StockChange, error) { return c, nil },
		settle: func(_ context.Context, err error) (bool, error) {
			if errors.Is(err, stockroom.ErrNotFound) {
				err = notFound
			}
			return false, err
		},
	}, nil
}

package service

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
)

// The inventory operations apply the contract's checks in its order:
// validation (all fields at once, reason codes included), then warehouse
// scope, then existence, then state. Permissions were checked before the body
// was read.

// authorizeWarehouse is the one place that checks a warehouse against a
// client's scope: outside it is 403; a warehouse that does not exist is 404
// for a client scoped to all warehouses, and 403 for any other, which learns
// nothing about warehouses outside its scope.
func (s *Service) authorizeWarehouse(ctx context.Context, p *stockroom.Principal, wid int64) error {
	if !p.Scope.Contains(wid) {
		return stockroom.Errorf(stockroom.EFORBIDDEN, stockroom.MsgOutOfScope)
	}
	// Warehouses are never removed, so one seen once exists for good.
	if _, ok := s.warehouses.Load(wid); ok {
		return nil
	}
	if _, err := s.store.FindWarehouse(ctx, wid); err != nil {
		if stockroom.ErrorCode(err) == stockroom.ENOTFOUND && !p.Scope.All {
			return stockroom.Errorf(stockroom.EFORBIDDEN, stockroom.MsgOutOfScope)
		}
		return err
	}
	s.warehouses.Store(wid, struct{}{})
	return nil
}

// checkReasonCode validates a reason code against the direction of the
// stock change, adding to v.
func (s *Service) checkReasonCode(ctx context.Context, v *stockroom.Validation, code int64, direction string) error {
	if v.Has("reasonCode") || code <= 0 {
		return nil
	}
	rc, err := s.reasonCode(ctx, code)
	switch {
	case stockroom.ErrorCode(err) == stockroom.ENOTFOUND:
		v.Add("reasonCode", "is not a known reason code (see GET /ReasonCode)")
	case err != nil:
		return err
	case !rc.Allows(direction):
		v.Add("reasonCode", "is a reason code for "+rc.Direction+", not "+direction)
	}
	return nil
}

// reasonCode finds a reason code. Codes are added but never changed or
// removed, so one found is remembered.
func (s *Service) reasonCode(ctx context.Context, code int64) (stockroom.ReasonCode, error) {
	if rc, ok := s.reasons.Load(code); ok {
		return rc.(stockroom.ReasonCode), nil
	}
	rc, err := s.store.FindReasonCode(ctx, code)
	if err == nil {
		s.reasons.Store(code, rc)
	}
	return rc, err
}

// findPartNo resolves an itemID (a ShortID) to its partNo for a stock
// change. Items are never removed and neither partNo nor ShortID ever
// changes, so a resolution once made holds for good and is remembered.
func (s *Service) findPartNo(ctx context.Context, itemID string) (int64, error) {
	key := stockroom.FoldKey(itemID)
	if partNo, ok := s.partNos.get(key); ok {
		return partNo, nil
	}
	it, err := s.store.FindItemByShortID(ctx, itemID)
	if err != nil {
		return 0, err
	}
	s.partNos.put(key, it.PartNo)
	return it.PartNo, nil
}

func (s *Service) entry(p *stockroom.Principal, reason int64, reference, remark string, details map[string]any) stockroom.LedgerEntry {
	for k, v := range details {
		if v == nil || v == "" || v == int64(0) || v == stockroom.Units(0) {
			delete(details, k)
		}
	}
	return stockroom.LedgerEntry{ClientID: p.ClientID, Time: s.now(), ReasonCode: reason, Reference: reference, Remark: remark, Details: details}
}

// Receive creates a lot. decoded holds the problems found while decoding the
// body, so that every failing field is reported together.
func (s *Service) Receive(ctx context.Context, p *stockroom.Principal, r stockroom.ReceiveRequest, decoded *stockroom.Validation) (stockroom.Lot, int64, error) {
	r.Validate(decoded)
	if err := s.checkReasonCode(ctx, decoded, r.ReasonCode, stockroom.DirectionReceive); err != nil {
		return stockroom.Lot{}, 0, err
	}
	if err := decoded.Err(); err != nil {
		return stockroom.Lot{}, 0, err
	}
	if err := s.authorizeWarehouse(ctx, p, r.WID); err != nil {
		return stockroom.Lot{}, 0, err
	}
	partNo, err := s.findPartNo(ctx, r.ItemID)
	if err != nil {
		return stockroom.Lot{}, 0, err
	}
	r.Spot = strings.TrimSpace(r.Spot)
	rc := stockroom.Receipt{PartNo: partNo, ReceiveRequest: r}
	details := map[string]any{
		"spot": rc.Spot, "serial": r.Serial, "serial2": r.Serial2, "rfidTag": r.RFIDTag, "netWeight": r.NetWeight,
		"grossWeight": r.GrossWeight, "price": r.Price, "supplier": r.Supplier, "line": r.Line, "jobid": r.JobID,
	}
	if r.Expires != nil {
		details["expires"] = r.Expires.Format(time.RFC3339Nano)
	}
	lot, id, err := s.store.Receive(ctx, rc, s.entry(p, r.ReasonCode, r.Reference, r.Remark, details))
	if errors.Is(err, stockroom.ErrDiscontinued) {
		err = stockroom.Errorf(stockroom.ECONFLICT, "Item %q is discontinued and cannot be received.", r.ItemID)
	}
	return lot, id, err
}

// Issue draws units out of stock, oldest lots first.
func (s *Service) Issue(ctx context.Context, p *stockroom.Principal, r stockroom.IssueRequest, decoded *stockroom.Validation) ([]stockroom.Draw, int64, error) {
	r.Validate(decoded)
	if err := s.checkReasonCode(ctx, decoded, r.ReasonCode, stockroom.DirectionIssue); err != nil {
		return nil, 0, err
	}
	if err := decoded.Err(); err != nil {
		return nil, 0, err
	}
	if err := s.authorizeWarehouse(ctx, p, r.WID); err != nil {
		return nil, 0, err
	}
	partNo, err := s.findPartNo(ctx, r.ItemID)
	if err != nil {
		return nil, 0, err
	}
	w := stockroom.Withdrawal{
		Type: stockroom.TxIssue, PartNo: partNo, WID: r.WID, Units: r.Units,
		Spot: strings.TrimSpace(r.Spot), Serial: r.Serial, Serial2: r.Serial2, RFIDTag: r.RFIDTag, RecNo: r.RecNo,
	}
	details := map[string]any{
		"serial": r.Serial, "serial2": r.Serial2, "rfidTag": r.RFIDTag, "netWeight": r.NetWeight, "shipto": r.ShipTo,
		"prodID": r.ProdID, "recno": r.RecNo, "line": r.Line,
	}
	return s.store.Withdraw(ctx, w, s.entry(p, r.ReasonCode, r.Reference, r.Remark, details))
}

// Move relocates units within a warehouse or to another one. Both warehouses
// must be in scope.
func (s *Service) Move(ctx context.Context, p *stockroom.Principal, r stockroom.MoveRequest, decoded *stockroom.Validation) ([]stockroom.Draw, int64, int64, string, error) {
	r.Validate(decoded)
	if err := decoded.Err(); err != nil {
		return nil, 0, 0, "", err
	}
	toWID, toSpot := r.Destination()
	for _, wid := range []int64{r.WID, toWID} {
		if err := s.authorizeWarehouse(ctx, p, wid); err != nil {
			return nil, 0, 0, "", err
		}
	}
	partNo, err := s.findPartNo(ctx, r.ItemID)
	if err != nil {
		return nil, 0, 0, "", err
	}
	w := stockroom.Withdrawal{
		Type: stockroom.TxMove, PartNo: partNo, WID: r.WID, Units: r.Units, Spot: strings.TrimSpace(r.FromSpot),
		Serial: r.Serial, Serial2: r.Serial2, RFIDTag: r.RFIDTag, RecNo: r.RecNo, ToWID: toWID, ToSpot: strings.TrimSpace(toSpot),
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
	draws, id, err := s.store.Withdraw(ctx, w, s.entry(p, 0, r.Reference, "", details))
	return draws, id, w.ToWID, w.ToSpot, err
}

// SetHold puts a lot on hold (hold=true) or releases it.
func (s *Service) SetHold(ctx context.Context, p *stockroom.Principal, recNo int64, hold bool) (stockroom.Lot, int64, error) {
	if recNo <= 0 {
		return stockroom.Lot{}, 0, stockroom.Invalid("recno", "is required")
	}
	return s.store.SetHold(ctx, recNo, hold, s.entry(p, 0, "", "", nil), func(l stockroom.Lot) error {
		if !p.Scope.Contains(l.WID) {
			return stockroom.Errorf(stockroom.EFORBIDDEN, stockroom.MsgOutOfScope)
		}
		return nil
	})
}

// ListLots returns a page of lots in scope, or of one warehouse (wid != 0).
func (s *Service) ListLots(ctx context.Context, p *stockroom.Principal, f stockroom.LotFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.Lot], error) {
	if f.WID != 0 {
		if err := s.authorizeWarehouse(ctx, p, f.WID); err != nil {
			return stockroom.Page[stockroom.Lot]{}, err
		}
	}
	return s.store.ListLots(ctx, p.Scope, f, req)
}

// ListStockLevels returns a page of stock levels in scope, or of one
// warehouse (wid != 0).
func (s *Service) ListStockLevels(ctx context.Context, p *stockroom.Principal, f stockroom.StockFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.StockLevel], error) {
	if f.WID != 0 {
		if err := s.authorizeWarehouse(ctx, p, f.WID); err != nil {
			return stockroom.Page[stockroom.StockLevel]{}, err
		}
	}
	return s.store.ListStockLevels(ctx, p.Scope, f, req)
}

// ListTransactions returns a page of the ledger entries touching the
// principal's warehouses.
func (s *Service) ListTransactions(ctx context.Context, p *stockroom.Principal, f stockroom.TransactionFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.Transaction], error) {
	if f.WID != 0 {
		if err := s.authorizeWarehouse(ctx, p, f.WID); err != nil {
			return stockroom.Page[stockroom.Transaction]{}, err
		}
	}
	return s.store.ListTransactions(ctx, p.Scope, f, req)
}

// GetTransaction returns one ledger entry; one outside the principal's scope
// is not found.
func (s *Service) GetTransaction(ctx context.Context, p *stockroom.Principal, id int64) (stockroom.Transaction, error) {
	return s.store.FindTransaction(ctx, p.Scope, id)
}

// Audit checks the inventory's invariants over the whole database.
func (s *Service) Audit(ctx context.Context) ([]stockroom.Discrepancy, error) {
	return s.store.Audit(ctx)
}

// ImportLots receives many lots at once for bulk loads such as the demo
// command, recorded in the ledger like any receipt. The receipts must name
// existing items and warehouses.
func (s *Service) ImportLots(ctx context.Context, clientID string, rs []stockroom.Receipt) (int, error) {
	for _, r := range rs {
		if r.Units <= 0 || r.PartNo <= 0 || r.WID <= 0 {
			return 0, stockroom.Errorf(stockroom.EINVALID, "Invalid receipt %+v.", r)
		}
	}
	e := stockroom.LedgerEntry{ClientID: clientID, Time: s.now(), ReasonCode: openingBalance, Reference: "demo"}
	return s.store.ReceiveMany(ctx, rs, e)
}

// openingBalance is the default reason code bulk loads are recorded under.
const openingBalance = 11

// PartNos returns the partNos of the items with the given ShortIDs, in order.
func (s *Service) PartNos(ctx context.Context, shortIDs []string) ([]int64, error) {
	out := make([]int64, len(shortIDs))
	for i, id := range shortIDs {
		it, err := s.store.FindItemByShortID(ctx, id)
		if err != nil {
			return nil, err
		}
		out[i] = it.PartNo
	}
	return out, nil
}

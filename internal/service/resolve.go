package service

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
)

// Resolving what a request names: warehouses, reason codes and items
// (found once and remembered), and the ledger entry it writes.

// findWarehouse reports whether warehouse wid exists: nil, or ENOTFOUND
// naming it. Warehouses are never removed, so one seen once exists for
// good.
func (s *Service) findWarehouse(ctx context.Context, wid int64) error {
	if _, ok := s.warehouses.Load(wid); ok {
		return nil
	}
	if _, err := s.db.FindWarehouse(ctx, wid); err != nil {
		if errors.Is(err, stockroom.ErrNotFound) {
			return stockroom.Errorf(stockroom.ENOTFOUND, "Warehouse %d does not exist.", wid)
		}
		return err
	}
	s.warehouses.Store(wid, struct{}{})
	return nil
}

// checkReasonCode validates a reason code against the direction of the
// stock change, adding to v.
func (s *Service) checkReasonCode(ctx context.Context, v *stockroom.Validation, code int64, direction stockroom.Direction) error {
	return s.checkReasonCodeField(ctx, v, "reasonCode", code, direction)
}

// checkReasonCodeField is checkReasonCode for a reason code in the field
// named field.
func (s *Service) checkReasonCodeField(ctx context.Context, v *stockroom.Validation, field string, code int64, direction stockroom.Direction) error {
	if v.Has(field) || code <= 0 {
		return nil
	}
	rc, err := s.reasonCode(ctx, code)
	switch {
	case errors.Is(err, stockroom.ErrNotFound):
		v.Add(field, "is not a known reason code (see GET /ReasonCode)")
	case err != nil:
		return err
	case !rc.Allows(direction):
		v.Add(field, "is a reason code for "+string(rc.Direction)+", not "+string(direction))
	}
	return nil
}

// reasonCode finds a reason code. Codes are added but never changed or
// removed, so one found is remembered.
func (s *Service) reasonCode(ctx context.Context, code int64) (stockroom.ReasonCode, error) {
	if rc, ok := s.reasons.Load(code); ok {
		return rc.(stockroom.ReasonCode), nil
	}
	rc, err := s.db.FindReasonCode(ctx, code)
	if err == nil {
		s.reasons.Store(code, rc)
	}
	return rc, err
}

// findPartNo resolves an itemID (a ShortID) to its partNo for a stock
// change or an order's line: an item the client does not see (seesItem) is
// not found, as one that does not exist. Items are never removed and
// neither partNo nor ShortID ever changes, so a resolution once made holds
// for good and is remembered; the item's catalogue (its dfltOwner) may
// change, and is read afresh before an item is hidden by a remembered one.
func (s *Service) findPartNo(ctx context.Context, p *stockroom.Principal, itemID string) (int64, error) {
	key := stockroom.FoldKey(itemID)
	partNo, known := s.partNos.get(key)
	if known {
		owner, ok := s.defaultOwners.get(partNo)
		if p.Owners.All || ok && seesItem(p, owner) {
			return partNo, nil
		}
	}
	it, err := s.db.FindItemByShortID(ctx, itemID)
	if err == nil && !seesItem(p, it.DfltOwner) {
		err = stockroom.ErrNotFound
	}
	if err != nil {
		return 0, noItem(err, "ShortID", quote(itemID))
	}
	s.partNos.put(key, it.PartNo)
	s.defaultOwners.put(it.PartNo, it.DfltOwner)
	return it.PartNo, nil
}

// noItem names the missing item of a lookup that found none.
func noItem(err error, what, value string) error {
	if errors.Is(err, stockroom.ErrNotFound) {
		return stockroom.Errorf(stockroom.ENOTFOUND, "No item with %s %s.", what, value)
	}
	return err
}

func quote(s string) string { return `"` + s + `"` }

// entry is what the ledger records of a request besides its lines: who,
// when, why, and the request's other fields, as given (empty ones left
// out).
func (s *Service) entry(p *stockroom.Principal, reason int64, reference, remark string, details map[string]any) stockroom.LedgerEntry {
	for k, v := range details {
		if v == nil || v == "" || v == int64(0) || v == (stockroom.Units{}) {
			delete(details, k)
		}
	}
	return stockroom.LedgerEntry{ClientID: p.ClientID, Time: s.now(), ReasonCode: reason, Reference: reference, Remark: remark, Details: details}
}

// trimmed returns s without surrounding white space.
func trimmed(s string) string { return strings.TrimSpace(s) }

func formatInt(n int64) string { return strconv.FormatInt(n, 10) }

// inactiveWarehouse is the refusal of stock put into an inactive warehouse
// (named by label, its id or name; id 0 when unknown), after prefix ("Line
// 2: "), with the command that reactivates it: one the CLI accepts, which
// cmd/stockroom's TestCommandsInMessages holds it to.
func inactiveWarehouse(prefix, label string, id int64) error {
	what := "Warehouse"
	if prefix != "" {
		what = "warehouse"
	}
	how := "stockroom warehouse update --id " + strconv.FormatInt(id, 10) + " --active=true"
	if id == 0 {
		how = "stockroom warehouse update --id N --active=true, N its id"
	}
	return stockroom.Errorf(stockroom.ECONFLICT, "%s%s %s is inactive and takes no stock; reactivate it first (%s).", prefix, what, label, how)
}

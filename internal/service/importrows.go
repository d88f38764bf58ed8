package service

import (
	"context"
	"errors"
	"fmt"

	"github.com/stockroom/stockroom"
)

// ImportItemRows judges rows of new items as POST /Item does, each ShortID
// new and given once, and stores them (see importer.run): with their
// item.created events, as the endpoint.
func (s *Service) ImportItemRows(ctx context.Context, p *stockroom.Principal, start *ImportStart, rows []ImportRow[stockroom.ItemChange]) (int, error) {
	first := map[string]int{} // the line of each ShortID, folded
	return importer[stockroom.ItemChange, stockroom.Item]{
		judge: func(ctx context.Context, row *ImportRow[stockroom.ItemChange]) (stockroom.Item, error) {
			req := Request[stockroom.ItemChange]{In: row.In, Problems: row.Problems}
			it, err := s.prepareItem(ctx, p, &req)
			if err != nil {
				return it, err
			}
			if err := s.newShortID(first, row.Line, it.ShortID, func() error {
				_, err := s.db.FindItemByShortID(ctx, it.ShortID)
				return err
			}, itemExists); err != nil {
				return it, err
			}
			return it, nil
		},
		write: func(ctx context.Context, items []stockroom.Item, mark *stockroom.ImportMark) error {
			_, err := s.db.CreateItems(ctx, items, mark)
			return err
		},
		now: s.now,
	}.run(ctx, start, rows)
}

// ImportPartyRows judges rows of new customers or vendors as their POST
// does, each ShortID new and given once, and stores them (see
// importer.run).
func (s *Service) ImportPartyRows(ctx context.Context, p *stockroom.Principal, kind stockroom.PartyKind, start *ImportStart, rows []ImportRow[stockroom.PartyChange]) (int, error) {
	first := map[string]int{}
	return importer[stockroom.PartyChange, *stockroom.Party]{
		judge: func(ctx context.Context, row *ImportRow[stockroom.PartyChange]) (*stockroom.Party, error) {
			req := Request[stockroom.PartyChange]{In: row.In, Problems: row.Problems}
			party, err := s.prepareParty(p, kind, &req)
			if err != nil {
				return nil, err
			}
			exists := func(shortID string) error { return partyExists(kind, shortID) }
			if err := s.newShortID(first, row.Line, party.ShortID, func() error {
				_, err := s.db.FindPartyByShortID(ctx, kind, party.ShortID)
				return err
			}, exists); err != nil {
				return nil, err
			}
			return &party, nil
		},
		write: func(ctx context.Context, ps []*stockroom.Party, mark *stockroom.ImportMark) error {
			if err := s.db.CreateParties(ctx, ps, mark); err != nil {
				return err
			}
			for _, party := range ps {
				s.parties.Store(party.ID, kind)
			}
			return nil
		},
		now: s.now,
	}.run(ctx, start, rows)
}

// newShortID refuses a ShortID given on an earlier line of the import
// (first holds the line of each) or held by a record already (find finds
// it: nil, or stockroom.ErrNotFound), worded by exists, at the field
// shortID.
func (s *Service) newShortID(first map[string]int, line int, shortID string, find func() error, exists func(string) error) error {
	key := stockroom.FoldKey(shortID)
	if at, ok := first[key]; ok {
		return &atField{"shortID", stockroom.Errorf(stockroom.ECONFLICT, "ShortID %q is given on line %d already.", shortID, at)}
	}
	first[key] = line
	switch err := find(); {
	case err == nil:
		return &atField{"shortID", exists(shortID)}
	case !errors.Is(err, stockroom.ErrNotFound):
		return err
	}
	return nil
}

// importedReceipt is a row of a stock import as judged: its operation and
// the receipt it made when judged (planned again when written, so that
// its time and its item's default owner are those of the write).
type importedReceipt struct {
	op      *stockOp
	receipt stockroom.Receipt
}

// ImportStockRows judges rows of receipts as POST /Inventory/Receive does
// (reason, when not 0, the reason code of rows that give none), then
// together what each would meet in the database (its item discontinued, a
// warehouse or owner inactive), and receives them (see importer.run): each
// a lot with its own ledger entry and events, as the endpoint's, through
// the store's atomic batch (ApplyStock). A receipt against a purchase
// order line is not imported: it changes the order, which the checks
// before writing do not judge.
func (s *Service) ImportStockRows(ctx context.Context, p *stockroom.Principal, start *ImportStart, rows []ImportRow[stockroom.ReceiveRequest], reason int64) (int, error) {
	return importer[stockroom.ReceiveRequest, importedReceipt]{
		judge: func(ctx context.Context, row *ImportRow[stockroom.ReceiveRequest]) (importedReceipt, error) {
			req := Request[stockroom.ReceiveRequest]{In: row.In, Problems: row.Problems}
			if req.In.ReasonCode == 0 && !req.Problems.Has("reasonCode") {
				req.In.ReasonCode = reason
			}
			op, err := s.prepareReceive(ctx, p, &req)
			if err != nil {
				return importedReceipt{}, s.receiptField(ctx, req.In, err)
			}
			c, err := op.plan(ctx)
			if err != nil {
				_, refusal := op.settle(ctx, err)
				return importedReceipt{}, refusal
			}
			if c.Receipt.Order != nil {
				return importedReceipt{}, stockroom.Invalid("line", fmt.Sprintf("names purchase order %s line %d; an import receives no purchase order lines (receive them with POST /Inventory/Receive)", c.Receipt.Order.PONo, c.Receipt.Order.Line))
			}
			return importedReceipt{op: op, receipt: *c.Receipt}, nil
		},
		judgeAll: s.receiptRefusals,
		write:    s.applyReceipts,
		now:      s.now,
	}.run(ctx, start, rows)
}

// receiptRefusals is what each receipt would meet in the database as it
// is, worded as its endpoint words it, at the field naming the record.
func (s *Service) receiptRefusals(ctx context.Context, rs []importedReceipt) ([]error, error) {
	receipts := make([]stockroom.Receipt, len(rs))
	for i, r := range rs {
		receipts[i] = r.receipt
	}
	refusals, err := s.db.ReceiptRefusals(ctx, receipts)
	if err != nil {
		return nil, err
	}
	fields := map[error]string{
		stockroom.ErrNotFound: "itemID", stockroom.ErrDiscontinued: "itemID",
		stockroom.ErrWarehouseInactive: "wid", stockroom.ErrOwnerInactive: "owner",
	}
	for i, err := range refusals {
		if err == nil {
			continue
		}
		field := fields[err]
		if again, refusal := rs[i].op.settle(ctx, err); again {
			refusals[i] = nil // the item's default owner changed this moment: it is read again when written
		} else {
			refusals[i] = &atField{field, refusal}
		}
	}
	return refusals, nil
}

// receiptField names the field of a receipt's refusal that names none: a
// warehouse or item not found.
func (s *Service) receiptField(ctx context.Context, r stockroom.ReceiveRequest, err error) error {
	if stockroom.ErrorCode(err) != stockroom.ENOTFOUND {
		return err
	}
	if s.findWarehouse(ctx, r.WID) != nil {
		return &atField{"wid", err}
	}
	return &atField{"itemID", err}
}

// applyReceipts receives rs in one transaction, all or none, with mark,
// each planned now, and again when one asks to be (its item's default
// owner changed).
func (s *Service) applyReceipts(ctx context.Context, rs []importedReceipt, mark *stockroom.ImportMark) error {
	for {
		changes := make([]stockroom.StockChange, len(rs))
		for i, r := range rs {
			c, err := r.op.plan(ctx)
			if err != nil {
				_, refusal := r.op.settle(ctx, err)
				return &rowRefused{at: i, err: refusal}
			}
			changes[i] = c
		}
		_, failed, err := s.db.ApplyStock(ctx, nil, changes, mark)
		if err == nil || failed < 0 {
			return err
		}
		if again, refusal := rs[failed].op.settle(ctx, err); !again {
			return &rowRefused{at: failed, err: refusal}
		}
	}
}

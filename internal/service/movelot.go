package service

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/stockroom/stockroom"
)

// A move by recNo (contract §7) needs only the lot and a destination:
// what the request leaves out is the lot's (item, warehouse, spot, owner;
// its units default to the lot's free units in the store's transaction,
// stockroom.Withdrawal.Plan), and what it gives must be the lot's.

// lotOfMove completes a move by recNo from the lot it names, in the
// contract's order: the fields given (400, all at once); the warehouses
// given and the owner named (403); the item given (404); the lot, which
// is not found when the client does not see it (another warehouse's or
// owner's, or of an item it does not see), exactly as one that does not
// exist (404); then what the request gives must be the lot's, and its
// destination not where the lot is (400 naming the field). It fills in r
// from the lot.
func (s *Service) lotOfMove(ctx context.Context, p *stockroom.Principal, v *stockroom.Validation, r *stockroom.MoveRequest) error {
	named, err := s.nameOwner(ctx, p, v, r.Owner)
	if err != nil {
		return err
	}
	if err := v.Err(); err != nil {
		return err
	}
	for _, wid := range []int64{r.WID, r.ShipToWID} {
		// A transfer's destination need only exist (transferDestination).
		if wid != 0 && !(wid == r.ShipToWID && r.IsTransfer()) {
			if err := s.authorizeWarehouse(ctx, p, wid); err != nil {
				return err
			}
		}
	}
	if err := named.authorize(); err != nil {
		return err
	}
	if r.ItemID != "" {
		if _, err := s.findPartNo(ctx, p, r.ItemID); err != nil {
			return err
		}
	}
	lot, err := s.findLot(ctx, p, r.RecNo)
	if err != nil {
		return err
	}
	matchLot(v, r, named, lot)
	if v.Has("wid") {
		return v.Err()
	}
	r.ItemID, r.WID = lot.ShortID, lot.WID
	if !named.named {
		r.Owner = &stockroom.OwnerRef{ID: lot.Owner}
	}
	r.CheckDestination(v, &lot.Spot)
	return v.Err()
}

// matchLot adds to v each field a move by recNo gives that is not the
// lot's.
func matchLot(v *stockroom.Validation, r *stockroom.MoveRequest, named ownerChoice, lot stockroom.Lot) {
	if r.ItemID != "" && stockroom.FoldKey(r.ItemID) != stockroom.FoldKey(lot.ShortID) {
		v.Add("itemID", fmt.Sprintf("is not the item of lot %d (%s): leave it out, or give the lot's", lot.RecNo, lot.ShortID))
	}
	if r.WID != 0 && r.WID != lot.WID {
		v.Add("wid", fmt.Sprintf("is not the warehouse of lot %d (%d): leave it out, or give the lot's", lot.RecNo, lot.WID))
	}
	if from := strings.TrimSpace(r.FromSpot); from != "" && from != lot.Spot {
		v.Add("fromSpot", fmt.Sprintf("is not the spot of lot %d (%q): leave it out, or give the lot's", lot.RecNo, lot.Spot))
	}
	if named.named && named.id != lot.Owner {
		v.Add("owner", fmt.Sprintf("is not the owner of lot %d (%d): leave it out, or give the lot's", lot.RecNo, lot.Owner))
	}
}

// findLot finds the lot recNo as the client sees it: one of another
// warehouse or owner, or of an item it does not see, is not found, in the
// same words as one that does not exist.
func (s *Service) findLot(ctx context.Context, p *stockroom.Principal, recNo int64) (stockroom.Lot, error) {
	lot, err := s.db.FindLot(ctx, recNo)
	if err == nil && !seesLot(p, lot) {
		err = stockroom.ErrNotFound
	}
	if err == nil {
		_, err = s.findPartNo(ctx, p, lot.ShortID)
	}
	if stockroom.ErrorCode(err) == stockroom.ENOTFOUND || errors.Is(err, stockroom.ErrNotFound) {
		return lot, noLot(recNo)
	}
	return lot, err
}

// noLot is the answer for a lot that does not exist, or that the client
// does not see.
func noLot(recNo int64) error {
	return stockroom.Errorf(stockroom.ENOTFOUND, "No lot with recNo %d.", recNo)
}

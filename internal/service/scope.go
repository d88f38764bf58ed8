package service

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"

	"github.com/stockroom/stockroom"
)

// Scope (contract §4, §9): every decision of which warehouses and owners a
// client may see and change is made in this file, as a pure function of
// the client's Principal wherever it needs nothing else. Warehouse scope:
// a warehouse outside the client's is 403, and one that does not exist is
// 404 only to a client of every warehouse. Owner scope: a client limited to
// owners sees and changes only their stock, and is refused any other owner,
// existing or not. Records of both (lines of orders, transits) are judged
// by both.

// Warehouse scope.

// authorizeWarehouse checks a warehouse a request names against the
// client's scope: outside it is 403; one that does not exist is answered
// by unknownWarehouse.
func (s *Service) authorizeWarehouse(ctx context.Context, p *stockroom.Principal, wid int64) error {
	if !p.Scope.Contains(wid) {
		return errOutOfScope()
	}
	return unknownWarehouse(p, s.findWarehouse(ctx, wid))
}

// transferDestination checks the destination of a transfer (a move that
// ships a transit, whose source alone need be in scope): it must exist,
// and one that does not is answered by unknownWarehouse.
func (s *Service) transferDestination(ctx context.Context, p *stockroom.Principal, wid int64) error {
	return unknownWarehouse(p, s.findWarehouse(ctx, wid))
}

// unknownWarehouse is what a client is told of a warehouse that does not
// exist (err, findWarehouse's ENOTFOUND): that, when it is scoped to all
// warehouses; 403 otherwise, so that it learns nothing about the ids
// outside its scope. Any other err is as it is.
func unknownWarehouse(p *stockroom.Principal, err error) error {
	if stockroom.ErrorCode(err) == stockroom.ENOTFOUND && !p.Scope.All {
		return errOutOfScope()
	}
	return err
}

// errOutOfScope is the refusal of a warehouse outside the client's scope.
func errOutOfScope() error { return stockroom.Errorf(stockroom.EFORBIDDEN, stockroom.MsgOutOfScope) }

// seesLot reports whether the client sees a lot: one in its warehouses and
// of its owners. A lot it does not see is not found.
func seesLot(p *stockroom.Principal, l stockroom.Lot) bool {
	return p.Scope.Contains(l.WID) && p.Owners.Contains(l.Owner)
}

// Owner scope.

// hidesOwner reports whether a client may not name owner id (found: it is
// a customer, or the house): a client limited to owners may name only
// those, and is refused any other, existing or not, so that it learns
// nothing of other customers. A client of every owner may name any that is
// found.
func hidesOwner(p *stockroom.Principal, id int64, found bool) bool {
	return !p.Owners.All && (!found || !p.Owners.Contains(id))
}

// authorize refuses a named owner the client may not see (hidesOwner).
func (c ownerChoice) authorize() error {
	if c.hidden {
		return errOwnerOutOfScope()
	}
	return nil
}

// errOwnerOutOfScope is the refusal of an owner outside the client's.
func errOwnerOutOfScope() error {
	return stockroom.Errorf(stockroom.EFORBIDDEN, stockroom.MsgOwnerOutOfScope)
}

// ownersSeen is the owners whose records the client may see (nil: every
// owner).
func ownersSeen(p *stockroom.Principal) *stockroom.Scope {
	if p.Owners.All {
		return nil
	}
	return &p.Owners
}

// Records of a warehouse and an owner each: the lines of orders and
// transits. Which lines a client sees and may touch is a rule the store
// applies inside an order action's transaction too, so it is a pure
// function of the root package: Principal.SeesLine, JudgeLines and
// AuthorizeOwner (principal.go), called here and by the store alike.

// seesTransit reports whether the client may see a transit by its
// warehouses: either end in its scope (a notice has one, its destination).
// It sees one only with a line of its owners (transitSeen), and only those
// lines.
func seesTransit(p *stockroom.Principal, tr stockroom.Transit) bool {
	return p.Scope.Contains(tr.ToWID) || tr.FromWID != nil && p.Scope.Contains(*tr.FromWID)
}

// transitSeen is a transit with the lines the client sees: those of its
// owners.
func transitSeen(p *stockroom.Principal, tr stockroom.Transit) stockroom.Transit {
	lines := tr.Lines
	tr.Lines = nil
	for _, l := range lines {
		if p.Owners.Contains(l.Owner) {
			tr.Lines = append(tr.Lines, l)
		}
	}
	return tr
}

// orderHeadSeen blanks what a client may not see of an order's header: of
// a shipping order to a customer it does not see (one it sees only by
// lines of its owners' stock), the customer and the texts the order's
// placer wrote (reference and remark), which are that customer's business.
func orderHeadSeen(p *stockroom.Principal, h stockroom.OrderHeader) {
	if h.Kind.Party() != stockroom.Customer || partyScope(p, stockroom.Customer).Contains(*h.PartyID) {
		return
	}
	*h.Party, *h.PartyID, h.Reference, h.Remark = "", 0, "", ""
}

// writable refuses a change to an order the client does not see (not
// found) or does not see whole (403): every line's warehouse and owner must
// be in its scope.
func writable(p *stockroom.Principal, o stockroom.AnyOrder) error {
	lines := o.OrderLines()
	return p.JudgeLines(len(lines), func(i int) (int64, int64) { return lines[i].Warehouse, lines[i].Owner })
}

// authorizeTransit judges a change of a transit: one the client may not see
// is not found; one whose warehouse end (the one the change puts stock in)
// is outside its scope is 403. A receipt's lines (named) are judged on the
// transit as the client sees it, a line of another owner as one the
// transit lacks, by the rules of the receipt itself (PlanReceipt), so the
// answer is the one a transit without those lines would get; every line a
// change takes without naming it (those with units due) must be of the
// client's owners (403).
func authorizeTransit(p *stockroom.Principal, tr stockroom.Transit, end int64, named []stockroom.TransitReceiveLine) error {
	seen := transitSeen(p, tr)
	if !seesTransit(p, tr) || len(seen.Lines) == 0 {
		return noTransit(tr.ID)
	}
	if !p.Scope.Contains(end) {
		return errOutOfScope()
	}
	if len(named) > 0 {
		_, err := seen.PlanReceipt(named)
		return err
	}
	for _, l := range tr.Lines {
		if l.UnitsDue.Sign() > 0 {
			if err := p.AuthorizeOwner(l.Owner); err != nil {
				return err
			}
		}
	}
	return nil
}

// The owner boundary over shared records (contract §9). An item belongs to
// the catalogue of its dfltOwner (0: the house's shared catalogue). A
// client limited to owners sees the items of its owners' catalogues and of
// the house's, never another owner's; it keeps (creates, changes,
// discontinues, aliases) only items of its owners' catalogues, never the
// house's, nor its other master data (vendors, categories); it sees only
// the customers among its owners; and it never sees another client's id.
// A record it may not see is not found, exactly as one that does not
// exist. A client of every owner sees and keeps everything.

// catalogues is the catalogues whose items the client sees: nil for every
// one, else its owners' and the house's.
func catalogues(p *stockroom.Principal) *stockroom.Scope {
	if p.Owners.All {
		return nil
	}
	ids := append([]int64{stockroom.HouseOwner}, p.Owners.IDs...)
	slices.Sort(ids)
	return &stockroom.Scope{IDs: slices.Compact(ids)}
}

// seesItem reports whether the client sees an item of the catalogue of
// owner.
func seesItem(p *stockroom.Principal, owner int64) bool {
	return p.Owners.All || owner == stockroom.HouseOwner || p.Owners.Contains(owner)
}

// authorizeCatalogue refuses (403) a client that may not keep items in the
// catalogue of owner: one limited to owners keeps its owners' catalogues,
// never the house's.
func authorizeCatalogue(p *stockroom.Principal, owner int64) error {
	if p.Owners.All || owner != stockroom.HouseOwner && p.Owners.Contains(owner) {
		return nil
	}
	return errOwnerOutOfScope()
}

// authorizeItemChange judges a change of an item as the change's
// transaction read it, by its current catalogue: one the client does not
// see is not found (stockroom.ErrNotFound), one it sees and does not keep
// (the house's) is 403.
func authorizeItemChange(p *stockroom.Principal, it stockroom.Item) error {
	if !seesItem(p, it.DfltOwner) {
		return stockroom.ErrNotFound
	}
	return authorizeCatalogue(p, it.DfltOwner)
}

// soleOwner is the one owner a client limited to exactly one writes for
// when a request names none (contract §9); ok is false for a client of
// several owners or of all, whose writes default as the request's record
// says (an item's dfltOwner, the house).
func soleOwner(p *stockroom.Principal) (owner int64, ok bool) {
	if !p.Owners.All && len(p.Owners.IDs) == 1 {
		return p.Owners.IDs[0], true
	}
	return 0, false
}

// newItemOwner is the catalogue of an item a client creates: the dfltOwner
// it names; else its sole owner's (soleOwner: the new item is then one it
// may go on changing); else the house's.
func newItemOwner(p *stockroom.Principal, named *int64) int64 {
	if named != nil {
		return *named
	}
	if owner, ok := soleOwner(p); ok {
		return owner
	}
	return stockroom.HouseOwner
}

// authorizeHouseRecord refuses (403) a client limited to owners a change
// of the house's master data: vendors and categories, which it reads and
// names in its items and orders.
func authorizeHouseRecord(p *stockroom.Principal) error {
	if p.Owners.All {
		return nil
	}
	return errOwnerOutOfScope()
}

// authorizePartyWrite refuses (403) a change of a vendor by a client
// limited to owners; customers are judged by partyScope, on the row the
// change reads.
func authorizePartyWrite(p *stockroom.Principal, kind stockroom.PartyKind) error {
	if kind == stockroom.Vendor {
		return authorizeHouseRecord(p)
	}
	return nil
}

// partyScope is the customers or vendors the principal sees: the customers
// among its owners (the others are not found), and every vendor.
func partyScope(p *stockroom.Principal, kind stockroom.PartyKind) stockroom.Scope {
	if kind == stockroom.Customer {
		return p.Owners
	}
	return stockroom.Scope{All: true}
}

// clientSeen is the client id a record made by client id shows: a client
// limited to owners sees its own id only, another's is blank. A client of
// every owner (the house's own) sees who made what.
func clientSeen(p *stockroom.Principal, id string) string {
	if p.Owners.All || id == p.ClientID {
		return id
	}
	return ""
}

// eventScope is what of the change feed the client sees, as its lists show
// it: events of stock in its warehouses (either end of a move or transit)
// and of its owners, and the events of the items of the catalogues it sees.
func eventScope(p *stockroom.Principal, f *stockroom.EventFilter) {
	f.Warehouses, f.Owners, f.Catalogues = p.Scope, ownersSeen(p), catalogues(p)
}

// eventSeen is event e as the client sees it, by the rules of the GET of
// its resource: a client limited to owners sees no other client's id (the
// event's, an item's createdBy: clientSeen), nor the customer and texts of
// a shipping order to a customer it does not see (orderHeadSeen). Which
// events it sees at all, and which lines of an order or transit an event
// carries, the store decides by eventScope.
func eventSeen(p *stockroom.Principal, e *stockroom.Event) error {
	e.ClientID = clientSeen(p, e.ClientID)
	if p.Owners.All {
		return nil
	}
	switch e.Subject.Kind {
	case "item":
		return rewriteEventData(e, func(it *stockroom.Item) { it.CreatedBy = clientSeen(p, it.CreatedBy) })
	case stockroom.OrderKindShipping.EventKind():
		return rewriteEventData(e, func(o *stockroom.ShippingOrder) { orderHeadSeen(p, o.Header()) })
	}
	return nil
}

// rewriteEventData decodes e's data as a T, lets fn change it, and encodes
// it again as its endpoint answers.
func rewriteEventData[T any](e *stockroom.Event, fn func(*T)) error {
	var v T
	if err := json.Unmarshal(e.Data, &v); err != nil {
		return err
	}
	fn(&v)
	data, err := stockroom.MarshalAnswer(v)
	e.Data = bytes.TrimSpace(data)
	return err
}

// reportScope is what of the stock a report run shows (contract §13: rows
// follow warehouse and owner scope, and so every total): the client's
// warehouses, or the one the run names (judged as any warehouse a request
// names: authorizeWarehouse), and the owners it sees (nil: every owner).
func (s *Service) reportScope(ctx context.Context, p *stockroom.Principal, wid int64) (stockroom.Scope, *stockroom.Scope, error) {
	if wid == 0 {
		return p.Scope.Clone(), ownersSeen(p), nil
	}
	if err := s.authorizeWarehouse(ctx, p, wid); err != nil {
		return stockroom.Scope{}, nil, err
	}
	return stockroom.Scope{IDs: []int64{wid}}, ownersSeen(p), nil
}

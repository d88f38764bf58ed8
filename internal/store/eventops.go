package store

import (
	"strconv"

	"github.com/stockroom/stockroom"
)

// The events of each operation, built from what the operation answers, so
// that each write path appends its own with one call (event.go). Which
// change appends which (orders: the table in eventorders.go):
//
//	POST /Item, bulk import         item.created
//	PUT /Item (a field changed)     item.updated; item.discontinued when it became so
//	DELETE /Item (discontinue)      item.discontinued (none when it was already)
//	POST, DELETE /Alias             alias.created, alias.deleted
//	receive, issue, move            inventory.received, .issued, .moved
//	hold, release (a change)        inventory.held, .released
//	transfer, notice shipped        transit.shipped
//	transit or notice received      transit.received
//	transit or notice canceled      transit.canceled
//	every change of figures         stocklevel.changed per item, warehouse, owner

// receiptEvent appends inventory.received for a receipt's answer.
func (t *Tx) receiptEvent(e stockroom.LedgerEntry, r stockroom.ReceiveResult) error {
	return t.appendEvent(receiptNewEvent(e, r))
}

// receiptNewEvent is the inventory.received event of a receipt's answer.
func receiptNewEvent(e stockroom.LedgerEntry, r stockroom.ReceiveResult) stockroom.NewEvent {
	return stockroom.NewEvent{Type: stockroom.EventReceived, Time: e.Time, ClientID: e.ClientID,
		WID: r.Lot.WID, Owner: r.Lot.Owner, Subject: lotSubject(r.RecNo), Data: r}
}

// drawEvent appends inventory.issued or inventory.moved for a withdrawal's
// answer, or transit.shipped for a transfer (a move that ships a transit).
func (t *Tx) drawEvent(e stockroom.LedgerEntry, res stockroom.DrawResult) error {
	ev := stockroom.NewEvent{Type: stockroom.EventIssued, Time: e.Time, ClientID: e.ClientID, WID: res.WID,
		ToWID: res.ToWID, Owner: res.Owner, Data: res,
		Subject: stockroom.EventSubject{Kind: "transaction", ID: strconv.FormatInt(res.TransactionID, 10)}}
	switch {
	case res.TransitID != nil:
		ev.Type = stockroom.EventTransitShipped
		ev.Subject = stockroom.EventSubject{Kind: "transit", ID: strconv.FormatInt(*res.TransitID, 10)}
	case res.Type == stockroom.TxMove:
		ev.Type = stockroom.EventMoved
	}
	return t.appendEvent(ev)
}

// holdEvent appends inventory.held or inventory.released for a hold's
// answer; a lot already in the state asked for changed nothing, and has none.
func (t *Tx) holdEvent(e stockroom.LedgerEntry, res stockroom.HoldResult) error {
	if res.TransactionID == nil {
		return nil
	}
	typ := stockroom.EventHeld
	if res.Type == stockroom.TxRelease {
		typ = stockroom.EventReleased
	}
	return t.appendEvent(stockroom.NewEvent{Type: typ, Time: e.Time, ClientID: e.ClientID,
		WID: res.Lot.WID, Owner: res.Lot.Owner, Subject: lotSubject(res.RecNo), Data: res})
}

// lotSubject names a lot.
func lotSubject(recNo int64) stockroom.EventSubject {
	return stockroom.EventSubject{Kind: "lot", ID: strconv.FormatInt(recNo, 10)}
}

// Items and aliases have no warehouse: their events have wid 0 and, as
// owner, the item's catalogue (its dfltOwner after the change), so whoever
// sees the item in the catalogue sees them (service eventScope). Their data
// is the item, or the alias, as its endpoint answers.

// itemEvent appends an item event of type typ for item it as changed.
func (t *Tx) itemEvent(typ stockroom.EventType, e stockroom.LedgerEntry, it stockroom.Item) error {
	return t.appendEvent(stockroom.NewEvent{Type: typ, Time: e.Time, ClientID: e.ClientID, Owner: it.DfltOwner,
		Subject: stockroom.EventSubject{Kind: "item", ID: it.ShortID}, Data: it})
}

// itemChangeEvents are the events of a change of item was into it:
// item.discontinued when it became discontinued, item.updated when anything
// else changed (reactivating it too), none when nothing did.
func itemChangeEvents(was, it stockroom.Item) []stockroom.EventType {
	var out []stockroom.EventType
	if it.Discontinued && !was.Discontinued {
		out = append(out, stockroom.EventItemDiscontinued)
		was.Discontinued = true
	}
	was.Modified = it.Modified
	if was != it {
		out = append(out, stockroom.EventItemUpdated)
	}
	return out
}

// aliasEvent appends alias.created or alias.deleted for alias al of an item
// of the catalogue of owner.
func (t *Tx) aliasEvent(typ stockroom.EventType, e stockroom.LedgerEntry, al stockroom.Alias, owner int64) error {
	return t.appendEvent(stockroom.NewEvent{Type: typ, Time: e.Time, ClientID: e.ClientID, Owner: owner,
		Subject: stockroom.EventSubject{Kind: "alias", ID: al.Alias}, Data: al})
}

package store

import (
	"context"

	"github.com/stockroom/stockroom"
)

// partyColumns are the columns a party is read with, in partyRow's order.
const partyColumns = `
	kind,
	id,
	short_id,
	name,
	address1,
	address2,
	city,
	state,
	zip,
	country,
	phone,
	fax,
	email,
	contact,
	active,
	created,
	modified`

// partyRow receives a party as partyColumns lists it.
type partyRow struct {
	p                 stockroom.Party
	created, modified int64
}

func (r *partyRow) dest() []any {
	p := &r.p
	return []any{&p.Kind, &p.ID, &p.ShortID, &p.Name, &p.Address1, &p.Address2, &p.City, &p.State, &p.Zip,
		&p.Country, &p.Phone, &p.Fax, &p.Email, &p.Contact, &p.Active, &r.created, &r.modified}
}

func (r *partyRow) value() stockroom.Party {
	p := r.p
	p.Created, p.Modified = fromMicros(r.created), fromMicros(r.modified)
	return p
}

func scanParty(row scanner) (stockroom.Party, error) {
	var r partyRow
	err := row.Scan(r.dest()...)
	return r.value(), err
}

// FindParty returns the customer or vendor with an id, whatever its state,
// or stockroom.ErrNotFound (also when the id is a party of the other kind).
func (db *DB) FindParty(ctx context.Context, kind stockroom.PartyKind, id int64) (stockroom.Party, error) {
	return queryOne(ctx, db, scanParty, `
		SELECT `+partyColumns+`
		FROM parties
		WHERE id = $1 AND kind = $2`, id, string(kind))
}

// FindPartyByShortID returns the customer or vendor with a ShortID (found
// case-insensitively), whatever its state, or stockroom.ErrNotFound.
func (db *DB) FindPartyByShortID(ctx context.Context, kind stockroom.PartyKind, shortID string) (stockroom.Party, error) {
	return queryOne(ctx, db, scanParty, `
		SELECT `+partyColumns+`
		FROM parties
		WHERE kind = $1 AND short_id_key = $2`, string(kind), stockroom.FoldKey(shortID))
}

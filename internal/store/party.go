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

// partySort lets lists sort by every field of a customer or vendor. Lists
// hold one kind, so the ShortID's folded key is unique among them.
var partySort = sortSpec{
	fields: map[string]string{
		"customerid": "id",
		"vendorid":   "id",
		"shortid":    "short_id_key",
		"name":       "name",
		"address1":   "address1",
		"address2":   "address2",
		"city":       "city",
		"state":      "state",
		"zip":        "zip",
		"country":    "country",
		"phone":      "phone",
		"fax":        "fax",
		"email":      "email",
		"contact":    "contact",
		"active":     "active",
		"created":    "created",
		"modified":   "modified",
	},
	defField: "shortid",
	key:      "id",
	unique:   []string{"short_id_key"},
	modified: "modified",
}

// ListParties returns a page of customers or vendors: active ones only, or
// all; of those whose id is in owners only (a customer list for a client
// limited to owners; Scope{All: true} otherwise).
func (db *DB) ListParties(ctx context.Context, kind stockroom.PartyKind, activeOnly bool, owners stockroom.Scope, req stockroom.PageRequest) (stockroom.Page[stockroom.Party], error) {
	q := pageQuery{from: "parties", columns: partyColumns, sort: partySort}
	q.where = append(q.where, "kind = "+q.args.add(string(kind)))
	if activeOnly {
		q.where = append(q.where, "active")
	}
	q.where = append(q.where, scopeCond("id", owners, &q.args))
	return queryPage(ctx, db, q, req, scanParty)
}

// CreateParty stores a new customer or vendor and sets its assigned ID,
// recording key's answer in the same transaction. A ShortID taken by the
// same kind in any letter case is stockroom.ErrDuplicate.
func (db *DB) CreateParty(ctx context.Context, key *stockroom.IdempotencyKey, p *stockroom.Party) error {
	return db.update(ctx, key, func(tx *Tx) (any, error) {
		if err := tx.insertParties([]*stockroom.Party{p}); err != nil {
			return nil, err
		}
		return *p, nil
	})
}

// CreateParties stores new customers or vendors in one transaction, all or
// none (an import's, contract §15, whose record mark is, see
// Tx.markImport), and sets their assigned IDs; a ShortID taken is
// stockroom.ErrDuplicate.
func (db *DB) CreateParties(ctx context.Context, ps []*stockroom.Party, mark *stockroom.ImportMark) error {
	return db.updateNoResult(ctx, func(tx *Tx) error {
		if err := tx.insertParties(ps); err != nil {
			return err
		}
		return tx.markImport(mark)
	})
}

// insertParties queues the insert of each of ps, sends them together and
// sets their IDs.
func (t *Tx) insertParties(ps []*stockroom.Party) error {
	for _, p := range ps {
		t.QueryRow(nil, `
			INSERT INTO parties (
				kind,
				short_id,
				short_id_key,
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
				modified)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
			RETURNING id`,
			[]any{string(p.Kind), p.ShortID, stockroom.FoldKey(p.ShortID), p.Name, p.Address1, p.Address2, p.City,
				p.State, p.Zip, p.Country, p.Phone, p.Fax, p.Email, p.Contact, p.Active, micros(p.Created), micros(p.Modified)},
			&p.ID)
	}
	if err := t.Flush(); err != nil {
		if isUniqueViolation(err) {
			return stockroom.ErrDuplicate
		}
		return err
	}
	return nil
}

// UpdateParty locks the customer or vendor with a ShortID, lets fn change
// it, and stores the result if fn reports a change. It returns the record
// as stored, or stockroom.ErrNotFound; an error of fn changes nothing.
func (db *DB) UpdateParty(ctx context.Context, kind stockroom.PartyKind, shortID string, fn func(*stockroom.Party) (bool, error)) (stockroom.Party, error) {
	var p stockroom.Party
	err := db.updateNoResult(ctx, func(tx *Tx) error {
		var (
			found bool
			row   partyRow
		)
		tx.QueryRow(&found, `
			SELECT `+partyColumns+`
			FROM parties
			WHERE kind = $1 AND short_id_key = $2`+tx.forUpdate(),
			[]any{string(kind), stockroom.FoldKey(shortID)}, row.dest()...)
		if err := tx.Flush(); err != nil {
			return err
		}
		if !found {
			return stockroom.ErrNotFound
		}
		p = row.value()
		changed, err := fn(&p)
		if err != nil || !changed {
			return err
		}
		tx.Exec(`
			UPDATE parties SET
				name = $2,
				address1 = $3,
				address2 = $4,
				city = $5,
				state = $6,
				zip = $7,
				country = $8,
				phone = $9,
				fax = $10,
				email = $11,
				contact = $12,
				active = $13,
				modified = $14
			WHERE id = $1`,
			p.ID, p.Name, p.Address1, p.Address2, p.City, p.State, p.Zip, p.Country, p.Phone, p.Fax, p.Email,
			p.Contact, p.Active, micros(p.Modified))
		return nil
	})
	return p, err
}

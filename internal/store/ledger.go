package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"

	"github.com/stockroom/stockroom"
)

const transactionColumns = `
	t.id,
	t.type,
	t.time,
	t.client_id,
	t.owner,
	t.part_no,
	i.short_id,
	t.wid,
	t.to_wid,
	t.spot,
	t.to_spot,
	t.units,
	t.reason_code,
	t.reference,
	t.remark,
	t.details`

const transactionFrom = `transactions t JOIN items i ON i.part_no = t.part_no`

var transactionSort = sortSpec{
	fields: map[string]string{
		"id":         "t.id",
		"type":       "t.type",
		"time":       "t.time",
		"modified":   "t.time",
		"clientid":   "t.client_id",
		"owner":      "t.owner",
		"partno":     "t.part_no",
		"shortid":    "i.short_id_key",
		"wid":        "t.wid",
		"towid":      "t.to_wid",
		"units":      "t.units",
		"reasoncode": "t.reason_code",
		"reference":  "t.reference",
	},
	defField: "id",
	defDesc:  true,
	key:      "t.id",
	modified: "t.time",
}

func scanTransaction(row scanner) (stockroom.Transaction, error) {
	var (
		t             stockroom.Transaction
		at            int64
		toWID, reason sql.NullInt64
		toSpot        sql.NullString
		details       string
	)
	err := row.Scan(&t.ID, &t.Type, &at, &t.ClientID, &t.Owner, &t.PartNo, &t.ShortID, &t.WID, &toWID, &t.Spot, &toSpot,
		&t.Units, &reason, &t.Reference, &t.Remark, &details)
	if err != nil {
		return t, err
	}
	t.Time = fromMicros(at)
	if toWID.Valid {
		t.ToWID = &toWID.Int64
	}
	if toSpot.Valid {
		t.ToSpot = &toSpot.String
	}
	if reason.Valid {
		t.ReasonCode = &reason.Int64
	}
	t.Lines = []stockroom.TransactionLine{}
	// Numbers stay as written: quantities and prices in details are exact
	// decimals, which float64 would round.
	dec := json.NewDecoder(strings.NewReader(details))
	dec.UseNumber()
	return t, dec.Decode(&t.Details)
}

// ledgerScope restricts transactions to those touching a warehouse in scope,
// of an owner in owners (nil: any).
func ledgerScope(scope stockroom.Scope, owners *stockroom.Scope, a *args) string {
	var conds []string
	if !scope.All {
		conds = append(conds, "("+scopeCond("t.wid", scope, a)+" OR "+scopeCond("t.to_wid", scope, a)+")")
	}
	if owners != nil && !owners.All {
		conds = append(conds, scopeCond("t.owner", *owners, a))
	}
	return strings.Join(conds, " AND ")
}

// FindTransaction returns one ledger entry with its lines, or ENOTFOUND when
// it does not exist, touches no warehouse in scope or changed the stock of an
// owner not in owners (nil: any).
func (db *DB) FindTransaction(ctx context.Context, scope stockroom.Scope, owners *stockroom.Scope, id int64) (stockroom.Transaction, error) {
	var a args
	conds := []string{"t.id = " + a.add(id)}
	if c := ledgerScope(scope, owners, &a); c != "" {
		conds = append(conds, c)
	}
	t, err := queryOne(ctx, db, scanTransaction, `
		SELECT `+transactionColumns+`
		FROM `+transactionFrom+`
		WHERE `+strings.Join(conds, " AND "), a...)
	if err != nil {
		return t, err
	}
	list := []stockroom.Transaction{t}
	err = db.loadLines(ctx, list)
	return list[0], db.classify(err)
}

// ListTransactions returns a page of the ledger in scope, newest first.
func (db *DB) ListTransactions(ctx context.Context, scope stockroom.Scope, f stockroom.TransactionFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.Transaction], error) {
	q := pageQuery{from: transactionFrom, columns: transactionColumns, sort: transactionSort}
	q.where = append(q.where, ledgerScope(scope, f.Owners, &q.args))
	if f.ItemShortID != "" {
		q.where = append(q.where, "i.short_id_key = "+q.args.add(stockroom.FoldKey(f.ItemShortID)))
	}
	if f.WID != 0 {
		ph := q.args.add(f.WID)
		q.where = append(q.where, "(t.wid = "+ph+" OR t.to_wid = "+ph+")")
	}
	if f.Type != "" {
		q.where = append(q.where, "t.type = "+q.args.add(f.Type))
	}
	page, err := queryPage(ctx, db, q, req, scanTransaction)
	if err != nil {
		return page, err
	}
	return page, db.classify(db.loadLines(ctx, page.Items))
}

// loadLines fills in the lines and figure changes of the given transactions,
// with one query each.
func (db *DB) loadLines(ctx context.Context, txs []stockroom.Transaction) error {
	if len(txs) == 0 {
		return nil
	}
	var a args
	byID := make(map[int64]*stockroom.Transaction, len(txs))
	ph := make([]string, len(txs))
	for i := range txs {
		byID[txs[i].ID] = &txs[i]
		ph[i] = a.add(txs[i].ID)
	}
	in := strings.Join(ph, ", ")
	err := db.loadEach(ctx, byID, `
		SELECT transaction_id, rec_no, wid, spot, units
		FROM transaction_lines
		WHERE transaction_id IN (`+in+`)
		ORDER BY transaction_id, line`, a, func() ([]any, func(*stockroom.Transaction)) {
		var l stockroom.TransactionLine
		return []any{&l.RecNo, &l.WID, &l.Spot, &l.Units}, func(tx *stockroom.Transaction) { tx.Lines = append(tx.Lines, l) }
	})
	if err != nil {
		return err
	}
	return db.loadEach(ctx, byID, `
		SELECT transaction_id, wid, on_order, asn, committed, packed
		FROM transaction_figures
		WHERE transaction_id IN (`+in+`)
		ORDER BY transaction_id, wid`, a, func() ([]any, func(*stockroom.Transaction)) {
		var f stockroom.TransactionFigure
		return []any{&f.WID, &f.OnOrder, &f.ASN, &f.Committed, &f.Packed}, func(tx *stockroom.Transaction) { tx.Figures = append(tx.Figures, f) }
	})
}

// loadEach runs query, whose rows lead with the id of a transaction of
// byID: next gives where the rest of a row is scanned to, and what adds it
// to its transaction once scanned.
func (db *DB) loadEach(ctx context.Context, byID map[int64]*stockroom.Transaction, query string, a args, next func() ([]any, func(*stockroom.Transaction))) error {
	rows, err := db.read.QueryContext(ctx, query, a...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		dest, add := next()
		if err := rows.Scan(append([]any{&id}, dest...)...); err != nil {
			return err
		}
		add(byID[id])
	}
	return rows.Err()
}

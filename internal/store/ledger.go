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
	err = loadLines(ctx, db.read, list)
	return list[0], db.classify(err)
}

// ListTransactions returns a page of the ledger in scope, newest first.
func (db *DB) ListTransactions(ctx context.Context, scope stockroom.Scope, f stockroom.TransactionFilter, req stockroom.PageRequest) (stockroom.Page[stockroom.Transaction], error) {
	page, err := queryPage(ctx, db, db.transactionQuery(scope, f), req, scanTransaction)
	if err != nil {
		return page, err
	}
	return page, db.classify(loadLines(ctx, db.read, page.Items))
}

// EachTransaction passes every ledger entry ListTransactions lists, with
// its lines and figures, in its order, to fn (an export: no paging), read
// in one snapshot from the reports' reader.
func (db *DB) EachTransaction(ctx context.Context, scope stockroom.Scope, f stockroom.TransactionFilter, req stockroom.PageRequest, fn func(stockroom.Transaction) error) error {
	e := export[stockroom.Transaction]{q: db.transactionQuery(scope, f), req: req, scan: scanTransaction, load: loadLines}
	return each(ctx, db, e, fn)
}

// transactionQuery is the query of the ledger entries in scope that f keeps.
func (db *DB) transactionQuery(scope stockroom.Scope, f stockroom.TransactionFilter) pageQuery {
	q := pageQuery{from: transactionFrom, columns: transactionColumns, sort: transactionSort}
	q.where = append(q.where, ledgerScope(scope, f.Owners, &q.args))
	if f.ItemShortID != "" {
		q.where = append(q.where, db.entriesOfItem(q.args.add(stockroom.FoldKey(f.ItemShortID))))
	}
	if f.WID != 0 {
		ph := q.args.add(f.WID)
		q.where = append(q.where, "(t.wid = "+ph+" OR t.to_wid = "+ph+")")
	}
	if f.Type != "" {
		q.where = append(q.where, "t.type = "+q.args.add(f.Type))
	}
	return q
}

// entriesOfItem is the condition on a ledger entry (alias t) that it
// changes the item whose folded ShortID is the parameter key: it is the
// item's, or it lists the item among its others in transaction_items (a
// completion's entry, for each of its components). Each side reads an index
// (transactions_part_no; transaction_items, then the key), so an item's
// ledger costs what its entries do, as when every entry was of one item.
func (db *DB) entriesOfItem(key string) string {
	item := `(SELECT part_no FROM items WHERE short_id_key = ` + key + `)`
	return `(t.part_no = ` + item + `
		OR ` + db.anyOf("t.id", `SELECT transaction_id FROM transaction_items WHERE part_no = `+item) + `)`
}

// loadLines fills in the lines and figure changes of the given transactions,
// with one query each.
func loadLines(ctx context.Context, qr querier, txs []stockroom.Transaction) error {
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
	err := loadEach(ctx, qr, byID, idQuery{args: a, text: `
		SELECT g.transaction_id, g.rec_no, g.part_no, i.short_id, g.wid, g.spot, g.units
		FROM transaction_lines g JOIN items i ON i.part_no = g.part_no
		WHERE g.transaction_id IN (` + in + `)
		ORDER BY g.transaction_id, g.line`}, func() ([]any, func(*stockroom.Transaction)) {
		var l stockroom.TransactionLine
		return []any{&l.RecNo, &l.PartNo, &l.ShortID, &l.WID, &l.Spot, &l.Units}, func(tx *stockroom.Transaction) { tx.Lines = append(tx.Lines, l) }
	})
	if err != nil {
		return err
	}
	return loadEach(ctx, qr, byID, idQuery{args: a, text: `
		SELECT f.transaction_id, f.wid, f.part_no, i.short_id, f.on_order, f.asn, f.committed, f.packed
		FROM transaction_figures f JOIN items i ON i.part_no = f.part_no
		WHERE f.transaction_id IN (` + in + `)
		ORDER BY f.transaction_id, f.wid, f.part_no`}, func() ([]any, func(*stockroom.Transaction)) {
		var f stockroom.TransactionFigure
		return []any{&f.WID, &f.PartNo, &f.ShortID, &f.OnOrder, &f.ASN, &f.Committed, &f.Packed}, func(tx *stockroom.Transaction) { tx.Figures = append(tx.Figures, f) }
	})
}

// idQuery is a statement and its arguments.
type idQuery struct {
	text string
	args args
}

// loadEach runs q, whose rows lead with the id of a transaction of byID:
// next gives where the rest of a row is scanned to, and what adds it to its
// transaction once scanned.
func loadEach(ctx context.Context, qr querier, byID map[int64]*stockroom.Transaction, q idQuery, next func() ([]any, func(*stockroom.Transaction))) error {
	rows, err := qr.QueryContext(ctx, q.text, q.args...)
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

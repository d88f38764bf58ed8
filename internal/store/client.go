package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
)

const clientColumns = `
	id,
	name,
	permissions,
	all_warehouses,
	all_owners,
	read_only,
	enabled,
	created,
	modified,
	reports`

// scanClient reads a client row; the warehouse and owner lists of a scoped
// client are loaded separately by loadScopes.
// Extra destinations receive columns selected after the client's own.
func scanClient(row scanner, extra ...any) (*stockroom.Client, error) {
	var (
		c                 stockroom.Client
		perms, reports    string
		created, modified int64
	)
	if err := row.Scan(append([]any{&c.ID, &c.Name, &perms, &c.Scope.All, &c.Owners.All, &c.ReadOnly, &c.Enabled, &created, &modified, &reports}, extra...)...); err != nil {
		return nil, err
	}
	var err error
	if c.Reports, err = stockroom.ParseReports(reports); err != nil {
		return nil, err
	}
	c.Created, c.Modified = fromMicros(created), fromMicros(modified)
	if perms != "" {
		ps, err := stockroom.ParsePermissions(perms)
		if err != nil {
			return nil, err
		}
		c.Permissions = ps
	}
	return &c, nil
}

// CreateClient stores a new client with the hash of its secret. A taken id
// is stockroom.ErrDuplicate. The warehouses of its scope must exist; its
// owners are not checked here (owner 0, the house, is no party).
func (db *DB) CreateClient(ctx context.Context, c *stockroom.Client, secretHash string) error {
	return db.updateNoResult(ctx, func(tx *Tx) error {
		tx.insertClient(c, secretHash)
		err := tx.Flush()
		if isUniqueViolation(err) {
			return stockroom.ErrDuplicate
		}
		return err
	})
}

// insertClient queues the insertion of a client and its scopes.
func (t *Tx) insertClient(c *stockroom.Client, secretHash string) {
	t.Exec(`
		INSERT INTO clients (`+clientColumns+`, secret_hash)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		c.ID, c.Name, stockroom.FormatPermissions(c.Permissions), c.Scope.All, c.Owners.All, c.ReadOnly, c.Enabled,
		micros(c.Created), micros(c.Modified), stockroom.FormatReports(c.Reports), secretHash)
	t.insertScopes(c)
}

// insertScopes queues the insertion of the lists of a client's scopes that
// are not "all".
func (t *Tx) insertScopes(c *stockroom.Client) {
	for _, l := range scopeLists {
		scope := l.of(c)
		if scope.All {
			continue
		}
		for _, id := range scope.IDs {
			t.Exec(`INSERT INTO `+l.table+` (client_id, `+l.column+`) VALUES ($1, $2)`, c.ID, id)
		}
	}
}

// scopeList is a table listing the ids of one of a client's scopes.
type scopeList struct {
	table, column string
	of            func(*stockroom.Client) *stockroom.Scope
}

// scopeLists are the client's scopes: warehouses and owners.
var scopeLists = []scopeList{
	{"client_warehouses", "wid", func(c *stockroom.Client) *stockroom.Scope { return &c.Scope }},
	{"client_owners", "owner", func(c *stockroom.Client) *stockroom.Scope { return &c.Owners }},
}

// FindClient returns a client and its secret hash, or stockroom.ErrNotFound.
func (db *DB) FindClient(ctx context.Context, id string) (*stockroom.Client, string, error) {
	var hash string
	c, err := scanClient(db.read.QueryRowContext(ctx, `
		SELECT `+clientColumns+`, secret_hash
		FROM clients
		WHERE id = $1`, id), &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", stockroom.ErrNotFound
	} else if err != nil {
		return nil, "", db.classify(err)
	}
	if err := db.loadScopes(ctx, db.read, []*stockroom.Client{c}); err != nil {
		return nil, "", db.classify(err)
	}
	return c, hash, nil
}

// ListClients returns every client, ordered by id. Secrets are not read.
func (db *DB) ListClients(ctx context.Context) ([]*stockroom.Client, error) {
	var out []*stockroom.Client
	err := db.inReadTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+clientColumns+` FROM clients ORDER BY id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			c, err := scanClient(rows)
			if err != nil {
				return err
			}
			out = append(out, c)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		return db.loadScopes(ctx, tx, out)
	})
	return out, err
}

// loadScopes fills in the warehouse and owner lists of scoped clients.
func (db *DB) loadScopes(ctx context.Context, q querier, clients []*stockroom.Client) error {
	for _, l := range scopeLists {
		if err := loadScopeList(ctx, q, clients, l); err != nil {
			return err
		}
	}
	return nil
}

// loadScopeList fills in one list of the clients whose scope l is not all.
func loadScopeList(ctx context.Context, q querier, clients []*stockroom.Client, l scopeList) error {
	byID := map[string]*stockroom.Scope{}
	var a args
	var ph []string
	for _, c := range clients {
		if scope := l.of(c); !scope.All {
			byID[c.ID] = scope
			ph = append(ph, a.add(c.ID))
		}
	}
	if len(ph) == 0 {
		return nil
	}
	rows, err := q.QueryContext(ctx, `
		SELECT client_id, `+l.column+`
		FROM `+l.table+`
		WHERE client_id IN (`+strings.Join(ph, ", ")+`)
		ORDER BY client_id, `+l.column, a...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			id string
			n  int64
		)
		if err := rows.Scan(&id, &n); err != nil {
			return err
		}
		byID[id].IDs = append(byID[id].IDs, n)
	}
	return rows.Err()
}

// SetClientEnabled enables or disables a client. Disabling also revokes every
// token the client holds. An unknown id is stockroom.ErrNotFound.
func (db *DB) SetClientEnabled(ctx context.Context, id string, enabled bool, now time.Time) error {
	return db.updateClient(ctx, id, !enabled, `UPDATE clients SET enabled = $2, modified = $3 WHERE id = $1`, id, enabled, micros(now))
}

// SetClientSecret replaces a client's secret hash and revokes its tokens.
// An unknown id is stockroom.ErrNotFound.
func (db *DB) SetClientSecret(ctx context.Context, id, secretHash string, now time.Time) error {
	return db.updateClient(ctx, id, true, `UPDATE clients SET secret_hash = $2, modified = $3 WHERE id = $1`, id, secretHash, micros(now))
}

// updateClient runs update, which changes the client with the given id, and
// revokes the client's tokens if asked. An unknown id is
// stockroom.ErrNotFound.
func (db *DB) updateClient(ctx context.Context, id string, revoke bool, update string, a ...any) error {
	return db.updateNoResult(ctx, func(tx *Tx) error {
		var found bool
		tx.QueryRow(&found, update+" RETURNING id", a, new(string))
		if revoke {
			tx.Exec(`DELETE FROM tokens WHERE client_id = $1`, id)
		}
		if err := tx.Flush(); err != nil {
			return err
		}
		if !found {
			return stockroom.ErrNotFound
		}
		return nil
	})
}

// UpdateClient locks the client with the given id, lets fn change it, and
// stores the result if fn reports a change: its name, permissions, scopes,
// read-only flag and modification time (the secret and the enabled flag
// have methods of their own; tokens are kept). It returns the client as
// stored, or stockroom.ErrNotFound. The warehouses of its scope must exist.
func (db *DB) UpdateClient(ctx context.Context, id string, fn func(*stockroom.Client) (bool, error)) (*stockroom.Client, error) {
	var c *stockroom.Client
	err := db.updateNoResult(ctx, func(tx *Tx) error {
		c = nil
		tx.Query(func(r rows) error {
			if !r.Next() {
				return r.Err()
			}
			var err error
			c, err = scanClient(r)
			return err
		}, `
			SELECT `+clientColumns+`
			FROM clients
			WHERE id = $1`+tx.forUpdate(), id)
		lists := make([][]int64, len(scopeLists))
		for i, l := range scopeLists {
			tx.Query(func(r rows) error {
				for r.Next() {
					var n int64
					if err := r.Scan(&n); err != nil {
						return err
					}
					lists[i] = append(lists[i], n)
				}
				return r.Err()
			}, `SELECT `+l.column+` FROM `+l.table+` WHERE client_id = $1 ORDER BY `+l.column, id)
		}
		if err := tx.Flush(); err != nil {
			return err
		}
		if c == nil {
			return stockroom.ErrNotFound
		}
		for i, l := range scopeLists {
			if scope := l.of(c); !scope.All {
				scope.IDs = lists[i]
			}
		}
		changed, err := fn(c)
		if err != nil || !changed {
			return err
		}
		tx.Exec(`
			UPDATE clients SET
				name = $2,
				permissions = $3,
				all_warehouses = $4,
				all_owners = $5,
				read_only = $6,
				modified = $7,
				reports = $8
			WHERE id = $1`,
			c.ID, c.Name, stockroom.FormatPermissions(c.Permissions), c.Scope.All, c.Owners.All, c.ReadOnly, micros(c.Modified),
			stockroom.FormatReports(c.Reports))
		for _, l := range scopeLists {
			tx.Exec(`DELETE FROM `+l.table+` WHERE client_id = $1`, c.ID)
		}
		tx.insertScopes(c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

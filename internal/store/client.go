package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
)

const clientColumns = `
	id,
	name,
	permissions,
	all_warehouses,
	read_only,
	enabled,
	created,
	modified`

// scanClient reads a client row; the warehouse list of a scoped client is
// loaded separately by loadScopes.
// Extra destinations receive columns selected after the client's own.
func scanClient(row scanner, extra ...any) (*stockroom.Client, error) {
	var (
		c                 stockroom.Client
		perms             string
		created, modified int64
	)
	if err := row.Scan(append([]any{&c.ID, &c.Name, &perms, &c.Scope.All, &c.ReadOnly, &c.Enabled, &created, &modified}, extra...)...); err != nil {
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

// CreateClient stores a new client with the hash of its secret. It returns
// ECONFLICT when the id is taken and EINVALID naming any warehouse of the
// scope that does not exist.
func (db *DB) CreateClient(ctx context.Context, c *stockroom.Client, secretHash string) error {
	return db.inWriteTx(ctx, func(tx *sql.Tx) error {
		return insertClient(ctx, tx, c, secretHash)
	})
}

func insertClient(ctx context.Context, tx *sql.Tx, c *stockroom.Client, secretHash string) error {
	_, err := tx.ExecContext(ctx, `
		INSERT INTO clients (`+clientColumns+`, secret_hash)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		c.ID, c.Name, stockroom.FormatPermissions(c.Permissions), c.Scope.All, c.ReadOnly, c.Enabled,
		micros(c.Created), micros(c.Modified), secretHash)
	if isUniqueViolation(err) {
		return stockroom.Errorf(stockroom.ECONFLICT, "Client %q already exists.", c.ID)
	} else if err != nil {
		return err
	}
	if c.Scope.All {
		return nil
	}
	var v stockroom.Validation
	for _, wid := range c.Scope.IDs {
		var exists bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM warehouses WHERE wid = $1)`, wid).Scan(&exists); err != nil {
			return err
		}
		if !exists {
			v.Add("warehouses", "warehouse "+strconv.FormatInt(wid, 10)+" does not exist")
			continue
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO client_warehouses (client_id, wid) VALUES ($1, $2)`, c.ID, wid); err != nil {
			return err
		}
	}
	return v.Err()
}

// FindClient returns a client and its secret hash, or ENOTFOUND.
func (db *DB) FindClient(ctx context.Context, id string) (*stockroom.Client, string, error) {
	var hash string
	c, err := scanClient(db.read.QueryRowContext(ctx, `
		SELECT `+clientColumns+`, secret_hash
		FROM clients
		WHERE id = $1`, id), &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", stockroom.Errorf(stockroom.ENOTFOUND, "Client %q does not exist.", id)
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

// loadScopes fills in the warehouse lists of scoped clients.
func (db *DB) loadScopes(ctx context.Context, q querier, clients []*stockroom.Client) error {
	byID := map[string]*stockroom.Client{}
	var a args
	var ph []string
	for _, c := range clients {
		if !c.Scope.All {
			byID[c.ID] = c
			ph = append(ph, a.add(c.ID))
		}
	}
	if len(ph) == 0 {
		return nil
	}
	rows, err := q.QueryContext(ctx, `
		SELECT client_id, wid
		FROM client_warehouses
		WHERE client_id IN (`+strings.Join(ph, ", ")+`)
		ORDER BY client_id, wid`, a...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			id  string
			wid int64
		)
		if err := rows.Scan(&id, &wid); err != nil {
			return err
		}
		byID[id].Scope.IDs = append(byID[id].Scope.IDs, wid)
	}
	return rows.Err()
}

// SetClientEnabled enables or disables a client. Disabling also revokes every
// token the client holds. It returns ENOTFOUND for an unknown id.
func (db *DB) SetClientEnabled(ctx context.Context, id string, enabled bool, now time.Time) error {
	return db.updateClient(ctx, id, !enabled, `UPDATE clients SET enabled = $2, modified = $3 WHERE id = $1`, id, enabled, micros(now))
}

// SetClientSecret replaces a client's secret hash and revokes its tokens. It
// returns ENOTFOUND for an unknown id.
func (db *DB) SetClientSecret(ctx context.Context, id, secretHash string, now time.Time) error {
	return db.updateClient(ctx, id, true, `UPDATE clients SET secret_hash = $2, modified = $3 WHERE id = $1`, id, secretHash, micros(now))
}

func (db *DB) updateClient(ctx context.Context, id string, revoke bool, update string, a ...any) error {
	return db.inWriteTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, update, a...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return stockroom.Errorf(stockroom.ENOTFOUND, "Client %q does not exist.", id)
		}
		if revoke {
			_, err = tx.ExecContext(ctx, `DELETE FROM tokens WHERE client_id = $1`, id)
		}
		return err
	})
}

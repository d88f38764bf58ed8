package store

import (
	"context"
	"database/sql"

	"github.com/stockroom/stockroom"
)

// Webhook subscriptions (contract §12): each is its client's alone, so every
// statement here names the client, and another client's subscription is as
// missing as one that never was. The secret is read only by the delivery
// worker (webhookdelivery.go), never by these.

// webhookColumns are a subscription's columns as the API shows it.
const webhookColumns = `
	id,
	name,
	url,
	events,
	payload_mode,
	disable_type,
	failure_count,
	first_failure,
	last_success,
	last_failure,
	last_error,
	created,
	modified`

var webhookSort = sortSpec{
	fields: map[string]string{
		"rec":          "id",
		"name":         "name",
		"url":          "url",
		"payloadmode":  "payload_mode",
		"disabletype":  "disable_type",
		"failurecount": "failure_count",
		"created":      "created",
		"modified":     "modified",
	},
	defField: "rec",
	key:      "id",
	modified: "modified",
}

// webhookRow receives a subscription as webhookColumns lists it.
type webhookRow struct {
	w                       stockroom.Webhook
	first, success, failure sql.NullInt64
	created, modified       int64
}

func (r *webhookRow) dest() []any {
	return []any{&r.w.Rec, &r.w.Name, &r.w.URL, &r.w.Events, &r.w.PayloadMode, &r.w.DisableType,
		&r.w.FailureCount, &r.first, &r.success, &r.failure, &r.w.LastError, &r.created, &r.modified}
}

func (r *webhookRow) value() stockroom.Webhook {
	w := r.w
	w.Active = w.DisableType == stockroom.WebhookEnabled
	w.LastSuccess, w.LastFailure = optTime(r.success), optTime(r.failure)
	if r.first.Valid && r.failure.Valid && w.FailureCount > 0 {
		w.FailureDays = int((r.failure.Int64 - r.first.Int64) / 86_400_000_000)
	}
	w.Created, w.Modified = fromMicros(r.created), fromMicros(r.modified)
	return w
}

func scanWebhook(row scanner) (stockroom.Webhook, error) {
	var r webhookRow
	err := row.Scan(r.dest()...)
	return r.value(), err
}

// FindWebhook returns the client's subscription with an id, or
// stockroom.ErrNotFound (also when it is another client's).
func (db *DB) FindWebhook(ctx context.Context, clientID string, id int64) (stockroom.Webhook, error) {
	return queryOne(ctx, db, scanWebhook, `
		SELECT `+webhookColumns+`
		FROM webhooks
		WHERE id = $1
		  AND client_id = $2`, id, clientID)
}

// ListWebhooks returns a page of the client's subscriptions.
func (db *DB) ListWebhooks(ctx context.Context, clientID string, req stockroom.PageRequest) (stockroom.Page[stockroom.Webhook], error) {
	q := pageQuery{from: "webhooks", columns: webhookColumns, sort: webhookSort}
	q.where = append(q.where, "client_id = "+q.args.add(clientID))
	return queryPage(ctx, db, q, req, scanWebhook)
}

// CreateWebhook stores a new subscription of the client with its secret
// (w.Secret), recording key's answer in the same transaction, and sets
// w.Rec. It delivers the events appended after it: its position is the end
// of the feed as readable now (on PostgreSQL every transaction still
// running is above it, so its events will be delivered).
func (db *DB) CreateWebhook(ctx context.Context, key *stockroom.IdempotencyKey, clientID string, w *stockroom.Webhook) error {
	return db.update(ctx, key, func(tx *Tx) (any, error) {
		end := tx.feedEnd()
		if err := tx.Flush(); err != nil {
			return nil, err
		}
		tx.QueryRow(nil, `
			INSERT INTO webhooks (
				client_id,
				name,
				url,
				events,
				payload_mode,
				secret,
				disable_type,
				cursor_xid,
				cursor_seq,
				created,
				modified
			)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
			RETURNING id`,
			[]any{clientID, w.Name, w.URL, w.Events, w.PayloadMode, w.Secret, w.DisableType,
				end.XID, end.Seq, micros(w.Created), micros(w.Modified)}, &w.Rec)
		if err := tx.Flush(); err != nil {
			return nil, err
		}
		return *w, nil
	})
}

// feedEnd queues the reading of the position of the last event readable
// now, and returns where it will be once flushed (the start when there is
// none).
func (t *Tx) feedEnd() *stockroom.EventCursor {
	end := &stockroom.EventCursor{}
	query := `SELECT 0, seq FROM events ORDER BY seq DESC LIMIT 1`
	if t.Postgres() {
		query = `
			SELECT CAST(xid AS TEXT), seq
			FROM events
			WHERE xid < pg_snapshot_xmin(pg_current_snapshot())
			ORDER BY xid DESC, seq DESC
			LIMIT 1`
	}
	var found bool
	t.QueryRow(&found, query, nil, (*xidText)(&end.XID), &end.Seq)
	return end
}

// UpdateWebhook locks the client's subscription with an id, lets fn change
// it, and stores the result if fn reports a change: its fields, a new
// secret when fn set w.Secret, and its failures in a row (none when fn set
// FailureCount to 0: then it is due at once). It returns the subscription
// as stored, with the new secret if any, or stockroom.ErrNotFound.
func (db *DB) UpdateWebhook(ctx context.Context, clientID string, id int64, fn func(*stockroom.Webhook) (bool, error)) (stockroom.Webhook, error) {
	var w stockroom.Webhook
	err := db.updateNoResult(ctx, func(tx *Tx) error {
		var (
			found bool
			row   webhookRow
		)
		tx.QueryRow(&found, `
			SELECT `+webhookColumns+`
			FROM webhooks
			WHERE id = $1
			  AND client_id = $2`+tx.forUpdate(), []any{id, clientID}, row.dest()...)
		if err := tx.Flush(); err != nil {
			return err
		}
		if !found {
			return stockroom.ErrNotFound
		}
		w = row.value()
		changed, err := fn(&w)
		if err != nil || !changed {
			return err
		}
		tx.Exec(`
			UPDATE webhooks SET
				name = $2,
				url = $3,
				events = $4,
				payload_mode = $5,
				secret = CASE WHEN $6 = '' THEN secret ELSE $6 END,
				disable_type = $7,
				failure_count = $8,
				first_failure = CASE WHEN $8 = 0 THEN NULL ELSE first_failure END,
				next_attempt = CASE WHEN $8 = 0 THEN 0 ELSE next_attempt END,
				modified = $9
			WHERE id = $1`,
			id, w.Name, w.URL, w.Events, w.PayloadMode, w.Secret, w.DisableType, w.FailureCount, micros(w.Modified))
		return nil
	})
	return w, err
}

// DeleteWebhook deletes the client's subscription with an id and its
// delivery log, or returns stockroom.ErrNotFound. A delivery in flight on
// some instance ends with its attempt; its lease then finds no row.
func (db *DB) DeleteWebhook(ctx context.Context, clientID string, id int64) error {
	return db.updateNoResult(ctx, func(tx *Tx) error {
		var (
			found bool
			rec   int64
		)
		tx.QueryRow(&found, `
			DELETE FROM webhooks
			WHERE id = $1
			  AND client_id = $2
			RETURNING id`, []any{id, clientID}, &rec)
		// The log goes with the subscription, and only with it: not when
		// the id is another client's.
		tx.Exec(`
			DELETE FROM webhook_deliveries
			WHERE webhook_id = $1
			  AND NOT EXISTS (SELECT 1 FROM webhooks WHERE id = $1)`, id)
		if err := tx.Flush(); err != nil {
			return err
		}
		if !found {
			return stockroom.ErrNotFound
		}
		return nil
	})
}

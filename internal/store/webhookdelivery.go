package store

import (
	"context"
	"strconv"
	"time"

	"github.com/stockroom/stockroom"
)

// Webhook delivery state (contract §12), shared by every instance through
// the database. A worker that means to deliver to a subscription first
// takes its lease with one conditional UPDATE (ClaimWebhook): it succeeds
// for one instance only, the one that finds the lease free or expired, on
// both engines and without SKIP LOCKED. Every later write of the worker
// (SaveWebhookProgress) holds only while the lease is still its own, so an
// instance whose lease ran out and passed to another can no longer move the
// subscription's cursor back or count a failure twice.

// webhookJobColumns are a subscription's columns as its worker holds it.
const webhookJobColumns = webhookColumns + `,
	client_id,
	secret,
	cursor_xid,
	cursor_seq`

// webhookJobRow receives a subscription as webhookJobColumns lists it.
type webhookJobRow struct {
	webhookRow
	job stockroom.WebhookJob
}

func (r *webhookJobRow) dest() []any {
	return append(r.webhookRow.dest(), &r.job.ClientID, &r.job.Secret, (*xidText)(&r.job.Cursor.XID), &r.job.Cursor.Seq)
}

func (r *webhookJobRow) value() stockroom.WebhookJob {
	j := r.job
	secret := j.Secret
	j.Webhook = r.webhookRow.value()
	j.Secret = secret
	j.FirstFailure = optTime(r.first)
	return j
}

// DueWebhooks returns the active subscriptions due an attempt at now whose
// lease is free: the candidates a worker may claim.
func (db *DB) DueWebhooks(ctx context.Context, now time.Time) ([]stockroom.WebhookJob, error) {
	rows, err := db.read.QueryContext(ctx, `
		SELECT `+webhookJobColumns+`
		FROM webhooks
		WHERE disable_type = 0
		  AND next_attempt <= $1
		  AND (lease_until IS NULL OR lease_until < $1)
		ORDER BY next_attempt, id`, micros(now))
	if err != nil {
		return nil, db.classify(err)
	}
	defer rows.Close()
	var out []stockroom.WebhookJob
	for rows.Next() {
		var r webhookJobRow
		if err := rows.Scan(r.dest()...); err != nil {
			return nil, db.classify(err)
		}
		out = append(out, r.value())
	}
	return out, db.classify(rows.Err())
}

// ClaimWebhook takes the lease of a subscription for owner until until, if
// it is still active, due at now and its lease free or expired, and returns
// the subscription as it then is. ok is false when another instance holds
// it (or it is no longer due): exactly one of the instances that try at
// once gets it.
func (db *DB) ClaimWebhook(ctx context.Context, id int64, owner string, now, until time.Time) (job stockroom.WebhookJob, ok bool, err error) {
	err = db.updateNoResult(ctx, func(tx *Tx) error {
		var r webhookJobRow
		tx.QueryRow(&ok, `
			UPDATE webhooks SET
				lease_owner = $2,
				lease_until = $3
			WHERE id = $1
			  AND disable_type = 0
			  AND next_attempt <= $4
			  AND (lease_until IS NULL OR lease_until < $4)
			RETURNING `+webhookJobColumns,
			[]any{id, owner, micros(until), micros(now)}, r.dest()...)
		err := tx.Flush()
		job = r.value()
		return err
	})
	return job, ok, err
}

// SaveWebhookProgress writes what owner's worker did with a subscription
// whose lease it holds: its cursor, failures and next attempt, the attempts
// for the log, and its lease renewed until p.LeaseUntil or released. held
// is false when the lease is no longer owner's (it expired and another
// instance took it, or the subscription was deleted): then nothing is
// written, and the worker must stop. active is false when the subscription
// has been disabled meanwhile (by hand or by p.Disable).
func (db *DB) SaveWebhookProgress(ctx context.Context, id int64, owner string, p stockroom.WebhookProgress) (held, active bool, err error) {
	err = db.updateNoResult(ctx, func(tx *Tx) error {
		var disableType int
		lease := []any{owner, micros(p.LeaseUntil)}
		if p.Release {
			lease = []any{nil, nil}
		}
		tx.QueryRow(&held, `
			UPDATE webhooks SET
				cursor_xid = $3,
				cursor_seq = $4,
				last_success = COALESCE($5, last_success),
				failure_count = $6,
				first_failure = $7,
				last_failure = COALESCE($8, last_failure),
				last_error = $9,
				next_attempt = $10,
				disable_type = CASE WHEN $11 AND disable_type = 0 THEN 1 ELSE disable_type END,
				lease_owner = $12,
				lease_until = $13
			WHERE id = $1
			  AND lease_owner = $2
			RETURNING disable_type`,
			append([]any{id, owner, p.Cursor.XID, p.Cursor.Seq, optMicros(p.LastSuccess), p.FailureCount,
				optMicros(p.FirstFailure), optMicros(p.LastFailure), p.LastError, micros(p.NextAttempt), p.Disable},
				lease...), &disableType)
		if err := tx.Flush(); err != nil || !held {
			return err
		}
		active = disableType == stockroom.WebhookEnabled
		for _, d := range p.Deliveries {
			tx.logDelivery(id, d)
		}
		return nil
	})
	return held, active, err
}

// AddWebhookDelivery logs one attempt made outside the worker (a test
// send).
func (db *DB) AddWebhookDelivery(ctx context.Context, id int64, d stockroom.WebhookDelivery) error {
	return db.updateNoResult(ctx, func(tx *Tx) error {
		tx.logDelivery(id, d)
		return nil
	})
}

// logDelivery queues the logging of an attempt.
func (t *Tx) logDelivery(id int64, d stockroom.WebhookDelivery) {
	t.Exec(`
		INSERT INTO webhook_deliveries (
			webhook_id,`+webhookDeliveryColumns+`
		)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		id, d.EventID, string(d.Type), d.Attempt, micros(d.Time), d.Success, d.Status, d.Duration, d.Error)
}

// webhookDeliveryColumns are an attempt's columns as the log shows it.
const webhookDeliveryColumns = `
	event_id,
	event_type,
	attempt,
	time,
	success,
	status,
	duration,
	error`

var webhookDeliverySort = sortSpec{
	fields:   map[string]string{"time": "id"},
	defField: "time",
	defDesc:  true,
	key:      "id",
}

func scanWebhookDelivery(row scanner) (stockroom.WebhookDelivery, error) {
	var (
		d  stockroom.WebhookDelivery
		at int64
	)
	err := row.Scan(&d.EventID, &d.Type, &d.Attempt, &at, &d.Success, &d.Status, &d.Duration, &d.Error)
	d.Time = fromMicros(at)
	return d, err
}

// ListWebhookDeliveries returns a page of a subscription's attempts since
// a time, newest first.
func (db *DB) ListWebhookDeliveries(ctx context.Context, id int64, since time.Time, req stockroom.PageRequest) (stockroom.Page[stockroom.WebhookDelivery], error) {
	q := pageQuery{from: "webhook_deliveries", columns: webhookDeliveryColumns, sort: webhookDeliverySort}
	q.where = append(q.where, "webhook_id = "+q.args.add(id), "time >= "+q.args.add(micros(since)))
	return queryPage(ctx, db, q, req, scanWebhookDelivery)
}

// PruneWebhookDeliveries deletes the attempts logged before cutoff, at most
// batch per transaction, and returns how many it deleted.
func (db *DB) PruneWebhookDeliveries(ctx context.Context, cutoff time.Time, batch int) (int, error) {
	total := 0
	for {
		var n int
		err := db.updateNoResult(ctx, func(tx *Tx) error {
			n = 0
			tx.Query(func(rs rows) error {
				for rs.Next() {
					n++
				}
				return rs.Err()
			}, `
				DELETE FROM webhook_deliveries
				WHERE id IN (
					SELECT id
					FROM webhook_deliveries
					WHERE time < $1
					ORDER BY time
					LIMIT `+strconv.Itoa(batch)+`)
				RETURNING id`, micros(cutoff))
			return tx.Flush()
		})
		total += n
		if err != nil || n < batch {
			return total, err
		}
	}
}

// FindWebhookJob returns the client's subscription with an id as its
// worker holds it (with its secret), or stockroom.ErrNotFound.
func (db *DB) FindWebhookJob(ctx context.Context, clientID string, id int64) (stockroom.WebhookJob, error) {
	return queryOne(ctx, db, func(row scanner) (stockroom.WebhookJob, error) {
		var r webhookJobRow
		err := row.Scan(r.dest()...)
		return r.value(), err
	}, `
		SELECT `+webhookJobColumns+`
		FROM webhooks
		WHERE id = $1
		  AND client_id = $2`, id, clientID)
}

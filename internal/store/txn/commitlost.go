package txn

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// A COMMIT's answer can be lost on PostgreSQL: the connection breaks, or
// the request's time runs out, after the COMMIT was sent. The database may
// have committed or not, and running the transaction's requests again
// would apply twice those it had committed. So each pipeline but the last
// reads the transaction's id, once it has one (readXactID), and when the
// answer is lost the engine asks the database what became of that id
// (pg_xact_status) on another connection, once its own is released
// (Engine.onLane, settleLostCommit): committed, its requests are
// answered as they would have been; aborted, it failed as any transaction
// does; and when the database cannot tell (it is not reachable, or the
// transaction wrote nothing before its last pipeline, so its id was never
// read), the requests that changed something are answered
// ErrOutcomeUnknown and never run again by the engine. SQLite commits in
// the process and has no answer to lose.

// readXactID queues on b, after t's statements, the read of the
// transaction's id into t.xid, until it has been read: its id with its
// epoch, which never repeats, once it has one (a transaction gets one when
// it first writes or locks a row; asking for it here gives it none, so
// that one that writes nothing still commits without a flush). Its
// failure, in a pipeline a statement failed in before it, is of no
// account.
func (t *Tx) readXactID(b *pgx.Batch) {
	if t.xid == nil || *t.xid != 0 {
		return
	}
	b.Queue(`SELECT pg_current_xact_id_if_assigned()::text::bigint`).QueryRow(func(r pgx.Row) error {
		var id *int64
		if r.Scan(&id) == nil && id != nil {
			*t.xid = *id
		}
		return nil
	})
}

// commitOutcomeWait bounds how long the engine asks about a lost COMMIT.
// The backend that ran it is "in progress" until it has seen its
// connection break or finished its commit.
const commitOutcomeWait = 10 * time.Second

// ErrOutcomeUnknown is the error of a write whose transaction's COMMIT was
// sent and not answered, when the database could not say what became of
// it: the write may have been made, and is not run again.
var ErrOutcomeUnknown = errors.New("the database did not confirm the commit and could not be asked whether it was made")

// commitUnknown is the error of a transaction whose COMMIT was sent and
// whose answer was lost.
type commitUnknown struct {
	xid int64 // 0 when it was not read
	err error
}

func (e *commitUnknown) Error() string { return "the answer to COMMIT was lost: " + e.err.Error() }
func (e *commitUnknown) Unwrap() error { return e.err }

// commitFailed is the error of t's commit round trip, err. An error the
// database sent (a statement's, the COMMIT's) means the transaction did
// not commit, and so does one before anything was sent; any other leaves
// it open whether the COMMIT was carried out.
func (t *Tx) commitFailed(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) || pgconn.SafeToRetry(err) {
		return err
	}
	cu := &commitUnknown{err: err}
	if t.xid != nil {
		cu.xid = *t.xid
	}
	return cu
}

// errCommitRolledBack marks the error of a transaction whose COMMIT's
// answer was lost and which the database says did not commit: nothing of
// it is left, and it may run again.
var errCommitRolledBack = errors.New("the database rolled the transaction back")

// settleLostCommit turns the error of a transaction on a lane whose
// COMMIT's answer was lost into what the database says became of it: nil
// when it committed, errCommitRolledBack (wrapping the loss) when it did
// not, and ErrOutcomeUnknown (wrapping why) when it cannot tell. Any other
// error is returned as it is.
func (e *Engine) settleLostCommit(err error) error {
	var cu *commitUnknown
	if !errors.As(err, &cu) {
		return err
	}
	if cu.xid == 0 {
		return fmt.Errorf("%w (%w)", ErrOutcomeUnknown, cu)
	}
	ctx, cancel := context.WithTimeout(context.Background(), cmp.Or(e.outcomeWait, commitOutcomeWait))
	defer cancel()
	for {
		var status sql.NullString
		err := e.pool.QueryRowContext(ctx, `SELECT pg_xact_status($1::text::xid8)`, strconv.FormatInt(cu.xid, 10)).Scan(&status)
		switch {
		case err == nil && status.String == "committed":
			return nil
		case err == nil && status.String == "aborted":
			return fmt.Errorf("%w (%w)", errCommitRolledBack, cu)
		}
		// In progress, or no answer yet: ask again.
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (%w; transaction %d: %v, %q)", ErrOutcomeUnknown, cu, cu.xid, err, status.String)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// SetOutcomeWaitForTest sets how long a lost COMMIT answer is asked about,
// so that the behaviour suite can lose the database too without waiting
// commitOutcomeWait; nothing else should.
func (e *Engine) SetOutcomeWaitForTest(d time.Duration) { e.outcomeWait = d }

package txn

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// ended returns why no more work is done within ctx: its error, or
// context.DeadlineExceeded once its deadline has passed, even if the timer
// that sets its error has not fired yet (each detached copy of a request's
// context has a timer of its own, and the timers of one deadline fire in no
// set order).
func ended(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		return context.DeadlineExceeded
	}
	return nil
}

// stmtError names the statement an error came from, keeping the error
// itself for errors.Is and errors.As.
func stmtError(query string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", FirstLine(query), err)
}

// isRetryable reports whether PostgreSQL aborted a transaction as a deadlock
// victim (40P01) or a serialization failure (40001).
func isRetryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40P01" || pgErr.Code == "40001")
}

// isLockTimeout reports whether PostgreSQL gave up waiting for a lock
// (55P03, lock_timeout).
func isLockTimeout(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "55P03"
}

// FirstLine names a statement in an error: its first words.
func FirstLine(query string) string {
	const max = 60
	s := []rune(collapseSpace(query))
	if len(s) > max {
		s = append(s[:max], '…')
	}
	return string(s)
}

// collapseSpace turns runs of white space into one space.
func collapseSpace(s string) string {
	out := make([]rune, 0, len(s))
	space := true
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			if !space {
				out = append(out, ' ')
			}
			space = true
			continue
		}
		out = append(out, r)
		space = false
	}
	if n := len(out); n > 0 && out[n-1] == ' ' {
		out = out[:n-1]
	}
	return string(out)
}

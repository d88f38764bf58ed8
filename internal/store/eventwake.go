package store

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
)

// Waking readers that wait for events. A reader that found nothing new waits
// on EventsChanged without a database connection, and reads again when it
// is closed: after every write this instance commits (DB.runWrite), and on
// PostgreSQL after every write any instance commits, which that instance
// announces with pg_notify once its COMMIT has returned, delivered to the
// one connection of each instance that listens.
//
// The announcement is not made inside the writing transaction (a trigger
// would): PostgreSQL serializes the commits of transactions that notify
// (PreCommit_Notify holds a cluster-wide lock until the commit ends), which
// would stop the two write lanes' commits from overlapping. After the
// commit, a goroutine of the instance sends one pg_notify for every burst
// of commits, on a connection of its own; a reader on another instance
// learns of a commit a round trip after it, and of one whose announcement
// was lost (the instance died in between) at its next second's look.

// eventsChannel is the channel of PostgreSQL's notifications of events.
const eventsChannel = "stockroom_events"

// eventFeed is the wake-up of one DB's waiting readers.
type eventFeed struct {
	mu sync.Mutex
	// ch is closed at the next wake-up and replaced.
	ch chan struct{}
	// announce holds one pending announcement to other instances
	// (PostgreSQL): commits while one is pending share it.
	announce   chan struct{}
	announcing sync.Once
	// listen starts the listening connection (PostgreSQL), at the first
	// reader that waits.
	listen sync.Once
	ctx    context.Context
	stop   context.CancelFunc
}

func newEventFeed() *eventFeed {
	ctx, stop := context.WithCancel(context.Background())
	return &eventFeed{ch: make(chan struct{}), announce: make(chan struct{}, 1), ctx: ctx, stop: stop}
}

// committed wakes this instance's readers after a write's commit and, on
// PostgreSQL, has the other instances' woken.
func (db *DB) committed() {
	db.feed.wake()
	if db.engine != Postgres {
		return
	}
	db.feed.announcing.Do(func() { go db.announceEvents() })
	select {
	case db.feed.announce <- struct{}{}:
	default: // one is pending already, and will speak for this commit
	}
}

// announceEvents sends a pg_notify for each pending announcement until the
// DB is closed. A failure is let go: readers look again within a second.
func (db *DB) announceEvents() {
	ctx := db.feed.ctx
	for {
		select {
		case <-ctx.Done():
			return
		case <-db.feed.announce:
		}
		actx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, _ = db.write.ExecContext(actx, "SELECT pg_notify('"+eventsChannel+"', '')")
		cancel()
	}
}

// wake wakes every reader waiting now.
func (f *eventFeed) wake() {
	f.mu.Lock()
	close(f.ch)
	f.ch = make(chan struct{})
	f.mu.Unlock()
}

// changed returns a channel closed at the next wake-up.
func (f *eventFeed) changed() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ch
}

// EventsChanged returns a channel closed when events may have been
// appended since: by a write of this instance, or (PostgreSQL) of any.
// Notifications can be lost while the listening connection reconnects, so
// a reader waits on it for a bounded time only.
func (db *DB) EventsChanged() <-chan struct{} {
	if db.engine == Postgres {
		db.feed.listen.Do(func() { go db.listenEvents() })
	}
	return db.feed.changed()
}

// listenEvents keeps one connection listening for notifications of events
// and wakes the readers at each, until the DB is closed; a broken connection
// is replaced after a pause (and the readers woken, in case they missed one).
func (db *DB) listenEvents() {
	ctx := db.feed.ctx
	for ctx.Err() == nil {
		err := db.listenOnce(ctx)
		db.feed.wake()
		if err != nil && ctx.Err() == nil {
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}
}

// listenOnce listens on one connection until it fails or ctx ends.
func (db *DB) listenOnce(ctx context.Context) error {
	conn, err := db.write.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("postgres connection is a %T", driverConn)
		}
		pc := c.Conn()
		if _, err := pc.Exec(ctx, "LISTEN "+eventsChannel); err != nil {
			return err
		}
		// The connection goes back to the pool only if it stops
		// listening; one whose wait failed is discarded.
		defer func() { _, _ = pc.Exec(context.Background(), "UNLISTEN *") }()
		for {
			if _, err := pc.WaitForNotification(ctx); err != nil {
				if ctx.Err() == nil {
					_ = pc.Close(context.Background())
				}
				return err
			}
			db.feed.wake()
		}
	})
}

// EventsAppended is how many events were appended to the feed by every
// instance: the feed's sequence (on PostgreSQL it counts those of
// transactions rolled back too, whose values are not given again).
func (db *DB) EventsAppended(ctx context.Context) (int64, error) {
	q := `SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0)`
	if db.engine == Postgres {
		q = `SELECT COALESCE((SELECT last_value FROM pg_sequences WHERE schemaname = current_schema() AND sequencename = 'events_seq_seq'), 0)`
	}
	var n int64
	err := db.read.QueryRowContext(ctx, q).Scan(&n)
	return n, err
}

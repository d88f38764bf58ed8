package sqliteconn

import (
	"context"
	"database/sql"
	"sync/atomic"
	"time"
)

// Checkpointer runs SQLite's checkpoints beside the writer. A SQLite commit
// appends the pages it changed to the write-ahead log; a checkpoint copies
// them into the database file, so that the log can start again from its
// beginning. SQLite runs one on the committing connection
// once the log holds wal_autocheckpoint pages: on the writer, between a
// batch's commit and its answers, serial work that took a tenth of the
// writer's time under load. The Checkpointer runs them instead on another
// connection of the write pool, on another goroutine, beside the writer:
// SQLite lets a checkpoint copy what is committed while the writer goes on
// appending (PASSIVE: it waits for no one and no one waits for it).
//
// The log can start again only when a transaction begins with every page
// copied, which a checkpoint running beside a busy writer seldom leaves.
// So the writer keeps its own checkpoint as a backstop, at backstopPages
// rather than 1,000: by then the checkpointer has copied nearly every page,
// the writer copies the rest, and its next transaction starts the log again.
// The log stays under about backstopPages pages (33 MB), as it stayed
// under 1,000 before; it grows beyond only while a reader holds a snapshot,
// as before.
type Checkpointer struct {
	pool   *sql.DB
	nudges chan struct{}
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	// runs counts the checkpoints that completed (Runs).
	runs atomic.Int64
}

// backstopPages is the writer's wal_autocheckpoint (see Checkpointer).
const backstopPages = 8000

// checkpointGap is the least time between two checkpoints: each syncs the
// database file, and one every 20 ms copies pages as fast as they come.
const checkpointGap = 20 * time.Millisecond

func startCheckpointer(pool *sql.DB) *Checkpointer {
	ctx, cancel := context.WithCancel(context.Background())
	c := &Checkpointer{pool: pool, nudges: make(chan struct{}, 1), ctx: ctx, cancel: cancel, done: make(chan struct{})}
	go c.run()
	return c
}

// nudge tells the checkpointer a commit has appended to the log. It never
// waits.
func (c *Checkpointer) nudge() {
	select {
	case c.nudges <- struct{}{}:
	default:
	}
}

func (c *Checkpointer) run() {
	defer close(c.done)
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-c.nudges:
		}
		// A failure (the pool closing, another checkpoint running) leaves
		// the pages to the next checkpoint, or to the writer's backstop.
		var busy, logged, copied int64
		err := c.pool.QueryRowContext(c.ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &logged, &copied)
		if err == nil && busy == 0 {
			c.runs.Add(1)
		}
		select {
		case <-c.ctx.Done():
			return
		case <-time.After(checkpointGap):
		}
	}
}

// Runs is the number of checkpoints that completed.
func (c *Checkpointer) Runs() int64 { return c.runs.Load() }

// stop ends the checkpointer and waits for it.
func (c *Checkpointer) stop() {
	c.cancel()
	<-c.done
}

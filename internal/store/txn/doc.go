// Package txn is the store's write engine: it runs every write transaction
// of a database, on SQLite or PostgreSQL, and knows nothing of the tables.
// The store (internal/store) hands it a Write: a function that queues
// statements on a Tx (Exec, Query, QueryRow, Queue), sends them when it
// needs their results (Flush) and returns; the engine begins, commits and,
// on failure, rolls back around it. Statements are sent in pipelines on
// PostgreSQL, one network round trip per flush, and run one after the
// other on SQLite's one writer in the process.
//
// Group commit. Writes run on lanes (one on SQLite, two on PostgreSQL). A
// write that finds a lane free runs alone; those that arrive while every
// lane is busy queue, and the queue becomes the lane's next batch: one
// transaction, one commit (batch.go). On PostgreSQL the members of a batch
// that write rows of different scopes (Write.Scope: items) run in a
// lockstep: each as a coroutine, their flushes sent together as one
// pipeline (lockstep.go).
//
// What it guarantees, to each write, batched or not:
//
//   - its statements run in the order queued, so its row locks are taken
//     in that order; in a batch, in a savepoint of its own (in a lockstep,
//     isolated as lockstep.go says);
//   - a write that fails, or is refused, is rolled back alone and answered
//     with its error: the other members of its batch keep their changes;
//     a deadlock victim or one that waited too long for a lock runs again,
//     alone, after its batch;
//   - members are committed together, and each is answered only once the
//     COMMIT has returned, so success means durable; when the commit fails
//     every member runs again, alone;
//   - a COMMIT whose answer was lost (the connection broke, the time ran
//     out) is settled by the transaction's id on PostgreSQL
//     (pg_xact_status): committed, its writes are answered as such, never
//     run twice; aborted, they run again; when the database cannot tell, a
//     write that changed something gets ErrOutcomeUnknown (commitlost.go);
//   - two writes of one idempotency key (Write.Key) are never in one batch.
//
// What it may rewrite: nothing a write queues, but for one thing. In a
// lockstep on PostgreSQL, statements of a kind that the store marks as
// mergeable (Stmt.Merger: the changes to level rows, several members' of
// which become one statement of arrays) that two or more members send in
// one step go as one statement, made by the store's Merger: one round trip
// and one statement's overhead instead of N (merge.go). The merged
// statement reads its rows back into each member's as if each had run
// alone, locks them in the members' order, and, should it fail, the
// lockstep runs again with nothing merged.
//
// What a transaction puts off to its commit (Tx.Defer: the store's kept
// counts) is merged from every member that succeeded and written once, just
// before the COMMIT.
package txn

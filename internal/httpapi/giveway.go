package httpapi

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"
)

// Exports give way to writes (issue 41): a billing clerk's export of a
// million lots must not take the stock operations' CPU. On two cores an
// export at full speed takes most of one (the server encoding rows, its
// database backend producing them), and receipts beside it fell to half
// their rate. So while this instance has a write under way, or had one
// within writeQuiet, an export rests after each batch of rows
// (csvexport's flushEvery) exportRest times as long as the batch took: it
// runs a ninth of the time, and the database backend, its socket full,
// waits with it (a fifth was not enough once the backend and the server
// overlapped: docs/performance.md). With no write it runs at full speed. What is given way
// to is this instance's writes, the ones that share its CPU; on
// PostgreSQL an export reads from the replica when there is one, which
// takes its database work off the primary. Rests are counted in
// stockroom_export_rest_seconds_total.
const (
	exportRest = 8
	// exportRestMax bounds one rest, so that an export never stalls for
	// long on a batch that was slow for another reason.
	exportRestMax = time.Second
	writeQuiet    = 100 * time.Millisecond
)

// writeActivity is what an instance knows of its writes: how many run,
// and when the last one ended.
type writeActivity struct {
	running atomic.Int64
	lastEnd atomic.Int64 // Unix nanoseconds
	// rested is the time exports spent giving way, in nanoseconds.
	rested atomic.Int64
}

// isWrite reports whether a request's method may change something.
func isWrite(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

// begin counts a write under way, until end.
func (a *writeActivity) begin() { a.running.Add(1) }

// end counts a write ended.
func (a *writeActivity) end() {
	a.lastEnd.Store(time.Now().UnixNano())
	a.running.Add(-1)
}

// busy reports whether a write runs at now or ended within writeQuiet
// before it.
func (a *writeActivity) busy(now time.Time) bool {
	return a.running.Load() > 0 || now.UnixNano()-a.lastEnd.Load() < int64(writeQuiet)
}

// restAfter is how long an export whose batch began at began and ended at
// now rests: none when no write is under way.
func (a *writeActivity) restAfter(began, now time.Time) time.Duration {
	if !a.busy(now) {
		return 0
	}
	return min(exportRest*now.Sub(began), exportRestMax)
}

// giveWay rests after an export's batch that began at began, as restAfter
// says, and returns when the next batch begins; it returns early when ctx
// ends (the export then fails on its next write or read).
func (a *writeActivity) giveWay(ctx context.Context, began time.Time) time.Time {
	now := time.Now()
	d := a.restAfter(began, now)
	if d <= 0 {
		return now
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
	end := time.Now()
	a.rested.Add(int64(end.Sub(now)))
	return end
}

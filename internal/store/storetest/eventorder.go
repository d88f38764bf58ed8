package storetest

import (
	"database/sql"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store"
)

// testNoEventSkipped: 32 writers commit transactions of varying length (a
// lone receipt, which PostgreSQL may run in a lockstep, or up to 12 in one
// transaction) while readers follow the feed a few events at a time,
// waiting when they are at its end. Every reader must read every event
// committed exactly once, all in the one order of the feed read at the
// end; a reader that was given a cursor past an event that committed later
// would lack it.
//
// Checked against a plain sequence: with the reader's condition and order
// in store.afterCond and feedOrder replaced by "seq > $n ORDER BY seq" (no
// xid, no horizon), this test failed on PostgreSQL, readers lacking events
// that took their seq before others and committed after them: in three
// runs out of three, readers read 1,726 to 1,811 of 1,813 events.
func (h *harness) testNoEventSkipped(t *testing.T) {
	s := h.openStock(t)
	const writers, rounds, readers = 32, 8, 4
	var (
		want   atomic.Int64 // events appended by the writes that succeeded
		target atomic.Int64 // how many a reader must read: set once the writes end
		failed = make(chan error, writers+readers)
	)
	target.Store(-1)
	want.Store(int64(len(s.events(everyEvent)))) // the fixture's items'
	read := make([][]string, readers)
	var rg sync.WaitGroup
	for r := range readers {
		rg.Go(func() {
			ids, err := s.follow(3+r*4, &target)
			read[r] = ids
			if err != nil {
				failed <- fmt.Errorf("reader %d: %w", r, err)
			}
		})
	}
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range rounds {
				n, err := s.writeSome(w, i)
				if err != nil {
					failed <- fmt.Errorf("writer %d: %w", w, err)
					return
				}
				want.Add(n)
			}
		})
	}
	wg.Wait()
	all := s.events(everyEvent)
	target.Store(int64(len(all)))
	rg.Wait()
	close(failed)
	for err := range failed {
		t.Error(err)
	}
	if int64(len(all)) != want.Load() {
		t.Fatalf("the feed has %d events, the writes appended %d", len(all), want.Load())
	}
	ids := make([]string, len(all))
	for i, e := range all {
		ids[i] = e.ID
	}
	for r, got := range read {
		if !slices.Equal(got, ids) {
			t.Errorf("reader %d read %d events, not the feed's %d in its order (first difference at %d)", r, len(got), len(ids), firstDifference(got, ids))
		}
	}
}

// writeSome commits writer w's round i: a lone receipt, or several in one
// transaction, of an item and warehouse that vary. It returns the events
// appended.
func (s *stockDB) writeSome(w, i int) (int64, error) {
	part, wid := []int64{s.a.PartNo, s.b.PartNo}[(w+i)%2], int64(1+w%2)
	n := (w*7 + i*5) % 13
	if n == 0 {
		_, err := s.Receive(ctx, nil, stockroom.Receipt{PartNo: part, ReceiveRequest: stockroom.ReceiveRequest{WID: wid, Units: u(1)}}, s.entry())
		return 2, err
	}
	rs := make([]stockroom.Receipt, n)
	for j := range rs {
		rs[j] = stockroom.Receipt{PartNo: part, ReceiveRequest: stockroom.ReceiveRequest{WID: wid, Units: u(1)}}
	}
	_, err := s.ReceiveMany(ctx, rs, s.entry())
	return int64(n) + 1, err
}

// follow reads the feed limit events at a time, as a client with wait
// would: at the end of the feed it waits to be woken (or looks again
// shortly), until it has read target events. It returns the ids read.
func (s *stockDB) follow(limit int, target *atomic.Int64) ([]string, error) {
	var (
		ids      []string
		f        = stockroom.EventFilter{Limit: limit, Warehouses: stockroom.Scope{All: true}}
		deadline = time.Now().Add(2 * time.Minute)
	)
	for {
		if n := target.Load(); n >= 0 && int64(len(ids)) >= n {
			return ids, nil
		} else if n >= 0 && time.Until(deadline) > 10*time.Second {
			deadline = time.Now().Add(10 * time.Second) // all is readable: it comes now or never
		}
		if time.Now().After(deadline) {
			return ids, fmt.Errorf("read %d events, want %d", len(ids), target.Load())
		}
		changed := s.EventsChanged()
		r, err := s.ReadEvents(ctx, f)
		if err != nil {
			return ids, err
		}
		if len(r.Events) > limit {
			r.Events = r.Events[:limit]
		}
		for _, e := range r.Events {
			ids = append(ids, e.ID)
		}
		if len(r.Events) > 0 {
			var v stockroom.Validation
			f.After = stockroom.ParseEventCursor(r.Events[len(r.Events)-1].ID, "after", &v)
			continue
		}
		select {
		case <-changed:
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func firstDifference(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// testOtherInstancesWoken: on PostgreSQL a reader waiting on one instance
// is woken by a commit on another (the pg_notify sent after the commit).
func (h *harness) testOtherInstancesWoken(t *testing.T) {
	dsn := h.newDSN(t)
	s := stockOn(t, mustOpen(t, dsn))
	if s.Engine() != store.Postgres {
		t.Skip("SQLite has one instance per database file")
	}
	other := mustOpen(t, dsn)
	woken := other.EventsChanged()
	for end := time.Now().Add(10 * time.Second); ; {
		s.receive(s.a.PartNo, 1, "X", u(1)) // the first may commit before the listener listens
		select {
		case <-woken:
			return
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(end) {
			t.Fatal("a reader of another instance was not woken by commits for 10 s")
		}
	}
}

// testFeedOrdersXIDsAsNumbers (PostgreSQL): events of transactions 9, 10
// and 11 are read in that order, and a prune, which takes old events in
// the feed's order, takes 9's only: 10's is not old, so 11's waits.
// Read as text, as ORDER BY xid did while the text of xid was an output
// column of that name, 10 came before 9: once the server's transaction
// ids gained a digit, readers were given 9's events after a cursor past
// them (webhooks delivered them twice), and a prune took "10" as the
// oldest.
func (h *harness) testFeedOrdersXIDsAsNumbers(t *testing.T) {
	dsn := h.newDSN(t)
	s := stockOn(t, mustOpen(t, dsn))
	if s.Engine() != store.Postgres {
		t.Skip("SQLite's feed is ordered by seq alone")
	}
	raw, err := sql.Open("pgx", dsn)
	must(t, err)
	defer raw.Close()
	// 9 and 11 are old (1970), 10 is not (2100).
	for xid, at := range map[string]int64{"10": 4102444800000000, "9": 0, "11": 0} {
		_, err := raw.ExecContext(ctx, `
			INSERT INTO events (xid, type, time, client_id, wid, owner, subject_kind, subject_id, data)
			VALUES (CAST($1 AS xid8), 'item.created', $2, 'c', 0, 0, 'item', $1, '{}')`, xid, at)
		must(t, err)
	}
	subjects := func() []string { // of these events, not the fixture's (later, of items)
		var out []string
		for _, e := range s.events(everyEvent) {
			if e.Subject.Kind == "item" && e.ClientID == "c" {
				out = append(out, e.Subject.ID)
			}
		}
		return out
	}
	if got := subjects(); !slices.Equal(got, []string{"9", "10", "11"}) {
		t.Fatalf("the feed read transactions %v, want [9 10 11]", got)
	}
	n, err := s.PruneEvents(ctx, t0, 10)
	must(t, err)
	if got := subjects(); n != 1 || !slices.Equal(got, []string{"10", "11"}) {
		t.Fatalf("a prune of %d left %v, want [10 11]", n, got)
	}
}

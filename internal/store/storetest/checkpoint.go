package storetest

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

// testCheckpoints (SQLite): receipts from 16 goroutines append to the
// write-ahead log several times the writer's backstop (8,000 pages, about
// 33 MB) in all. Checkpoints run beside the writer, and the log starts
// again from its beginning: it never grows past the backstop and a margin,
// and the audit finds every receipt in the file.
func (h *harness) testCheckpoints(t *testing.T) {
	dsn := h.newDSN(t)
	path, ok := strings.CutPrefix(dsn, "sqlite:")
	if !ok {
		t.Skip("checkpoints are SQLite's")
	}
	s := stockOn(t, mustOpen(t, dsn))
	items := []int64{s.a.PartNo, s.b.PartNo}
	for i := range 62 {
		it := newItem(fmt.Sprint("I", i), t0)
		must(t, s.CreateItem(ctx, nil, &it))
		items = append(items, it.PartNo)
	}
	var (
		largest int64
		done    = make(chan struct{})
		sampled sync.WaitGroup
	)
	sampled.Go(func() {
		for {
			if st, err := os.Stat(path + "-wal"); err == nil {
				largest = max(largest, st.Size())
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	})
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Go(func() {
			for i := range 400 {
				r := stockroom.Receipt{PartNo: items[(w*400+i)%len(items)], ReceiveRequest: stockroom.ReceiveRequest{WID: 1, Units: u(1)}}
				if _, err := s.Receive(ctx, nil, r, s.entry()); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(done)
	sampled.Wait()
	stats := s.WriteStats()
	t.Logf("log at most %d bytes; %+v", largest, stats)
	if stats.Checkpoints == 0 {
		t.Error("no checkpoint ran beside the writer")
	}
	if limit := int64(48 << 20); largest > limit {
		t.Errorf("the log grew to %d bytes, past %d", largest, limit)
	}
	s.audit()
}

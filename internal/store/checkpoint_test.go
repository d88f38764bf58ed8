package store_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// TestCheckpointsBesideTheWriter: receipts from 16 goroutines append to
// SQLite's log several times the writer's backstop (8,000 pages, 32 MiB)
// in all. Checkpoints run beside the writer, and the log starts again from
// its beginning: it never grows past the backstop and a margin, and the
// audit finds every receipt in the file.
func TestCheckpointsBesideTheWriter(t *testing.T) {
	ctx := context.Background()
	dsn := testdb.DSN(t, store.SQLite)
	db, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)
	if err := db.CreateWarehouse(ctx, stockroom.Warehouse{ID: 1, Name: "W1", Active: true, Created: now, Modified: now}); err != nil {
		t.Fatal(err)
	}
	items := make([]int64, 64)
	for i := range items {
		it := stockroom.Item{ShortID: fmt.Sprint("I", i), UOM: "EA", Created: now, Modified: now, CreatedBy: "tester"}
		if err := db.CreateItem(ctx, nil, &it); err != nil {
			t.Fatal(err)
		}
		items[i] = it.PartNo
	}
	wal := strings.TrimPrefix(dsn, "sqlite:") + "-wal"
	var (
		largest int64
		done    = make(chan struct{})
		sampled sync.WaitGroup
	)
	sampled.Go(func() {
		for {
			if st, err := os.Stat(wal); err == nil {
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
				r := stockroom.Receipt{PartNo: items[(w*400+i)%len(items)], ReceiveRequest: stockroom.ReceiveRequest{WID: 1, Units: stockroom.Whole(1)}}
				if _, err := db.Receive(ctx, nil, r, stockroom.LedgerEntry{ClientID: "tester", Time: now}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(done)
	sampled.Wait()
	stats := db.WriteStats()
	t.Logf("log at most %d bytes; %+v", largest, stats)
	if stats.Checkpoints == 0 {
		t.Error("no checkpoint ran beside the writer")
	}
	if limit := int64(48 << 20); largest > limit {
		t.Errorf("the log grew to %d bytes, past %d", largest, limit)
	}
	findings, err := db.Audit(ctx)
	if err != nil || len(findings) > 0 {
		t.Fatalf("audit: %v %v", findings, err)
	}
}

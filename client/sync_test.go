package client_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom/client"
)

// TestChangesWhileSyncing proves a sync misses nothing when records change
// between its page reads. A changed record moves to the end of the modified
// order; read by page number, that shifts every later record one place
// forward, and the first of the next page would be skipped.
func TestChangesWhileSyncing(t *testing.T) {
	t.Parallel()
	// A server of its own: the sync reads every item there is. (Its clock
	// is the present one: the test judges the records, not the mark.)
	s := newServer(t)
	writer := s.admin(t)
	for i := range 10 {
		if _, err := writer.CreateItem(context.Background(), client.ItemInput{ShortID: fmt.Sprintf("MOVING-%03d", i)}); err != nil {
			t.Fatal(err)
		}
	}

	var once sync.Once
	tp := &tap{fault: func(req *http.Request, res *http.Response) (*http.Response, error) {
		if req.Method == "GET" {
			once.Do(func() {
				// After the first page has been read, the first item changes.
				if _, err := writer.UpdateItem(context.Background(), client.ItemInput{ShortID: "MOVING-000", Description: new("changed mid-sync")}); err != nil {
					t.Error(err)
				}
			})
		}
		return res, nil
	}}
	c := s.admin(t, tp.option())
	client.SetSyncPageSize(c, 3)
	changes, err := c.ItemChanges(context.Background(), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(changes.Records))
	for i, it := range changes.Records {
		got[i] = it.ShortID
	}
	sorted := slices.Sorted(slices.Values(got))
	if len(sorted) != 10 || len(slices.Compact(sorted)) != 10 {
		t.Fatalf("synced %v, want each of the 10 items once", got)
	}
	if last := changes.Records[9]; last.ShortID != "MOVING-000" || last.Description != "changed mid-sync" {
		t.Fatalf("last record %+v, want MOVING-000 in its changed form", last)
	}
}

package sdktest_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
	"github.com/stockroom/stockroom/internal/service"
)

// createItems creates n items named prefix-000 onwards, a few at a time.
func createItems(t *testing.T, c *client.Client, prefix string, n int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	sem := make(chan struct{}, 8)
	for i := range n {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			_, err := c.CreateItem(context.Background(), client.ItemInput{ShortID: fmt.Sprintf("%s-%03d", prefix, i)})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestWalkVisitsEveryPage proves the iterator returns every record of a list
// exactly once, reading it page by page.
func TestWalkVisitsEveryPage(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	tp := &tap{}
	c := s.admin(t, tp.option())
	ctx := context.Background()
	createItems(t, c, "PAGED", 120)

	seen := map[string]int{}
	for it, err := range c.Items(ctx, client.ItemListOptions{ListOptions: client.ListOptions{PageSize: 25}}) {
		if err != nil {
			t.Fatal(err)
		}
		seen[it.ShortID]++
	}
	for i := range 120 {
		if id := fmt.Sprintf("PAGED-%03d", i); seen[id] != 1 {
			t.Fatalf("%s seen %d times", id, seen[id])
		}
	}
	if len(seen) != 120 {
		t.Fatalf("%d distinct items, want 120", len(seen))
	}
	if n := tp.count("GET", "/Item", 200); n != 5 {
		t.Fatalf("%d page requests for 120 items at 25 a page, want 5", n)
	}

	t.Run("BreakStopsReading", func(t *testing.T) {
		before := tp.count("GET", "/Item", 0)
		n := 0
		for _, err := range c.Items(ctx, client.ItemListOptions{ListOptions: client.ListOptions{PageSize: 10}}) {
			if err != nil {
				t.Fatal(err)
			}
			if n++; n == 15 {
				break
			}
		}
		if got := tp.count("GET", "/Item", 0) - before; got != 2 {
			t.Fatalf("%d page requests for 15 records at 10 a page, want 2", got)
		}
	})
	t.Run("WalkTakesAnyList", func(t *testing.T) {
		n := 0
		for _, err := range client.Walk(ctx, client.ListOptions{PageSize: 7, Sort: "shortID", Direction: stockroom.DirectionDesc},
			func(ctx context.Context, o client.ListOptions) (*client.Page[client.Item], error) {
				return c.ListItems(ctx, client.ItemListOptions{ListOptions: o, IncludeDiscontinued: true})
			}) {
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		if n != 120 {
			t.Fatalf("walked %d items, want 120", n)
		}
	})
	t.Run("AnErrorEndsTheWalk", func(t *testing.T) {
		receiver := s.clientWith(t, service.NewClient{Permissions: []stockroom.Permission{stockroom.PermReceive}, Scope: stockroom.Scope{All: true}})
		calls := 0
		for it, err := range receiver.Items(ctx, client.ItemListOptions{}) {
			calls++
			if apiErr, ok := errors.AsType[*client.Error](err); !ok || apiErr.StatusCode != 403 || it.PartNo != 0 {
				t.Fatalf("walking without read permission: %+v, %v", it, err)
			}
		}
		if calls != 1 {
			t.Fatalf("%d values yielded, want the one error", calls)
		}
	})
}

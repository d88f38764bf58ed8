package sdktest_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stockroom/stockroom/client"
)

// pastServer returns a server whose clock runs an hour behind, so that every
// change it stamps is older than the settle margin and a sync's mark follows
// the newest change exactly.
func pastServer(t *testing.T) *testServer {
	s := newServer(t, serverConfig{})
	s.advance(-time.Hour)
	return s
}

func keysOf[T any](recs []T, key func(T) string) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = key(r)
	}
	return out
}

func itemKey(it client.Item) string { return it.ShortID }

// TestChanges proves the incremental sync of each list: a first sync brings
// everything, the next ones only what changed, in order of change, including
// the changes a plain list would hide (a discontinued item, stock dropping to
// zero, an emptied lot).
func TestChanges(t *testing.T) {
	t.Parallel()
	s := pastServer(t)
	c := s.admin(t)
	ctx := context.Background()

	t.Run("Items", func(t *testing.T) {
		for _, id := range []string{"SYNC-A", "SYNC-B", "SYNC-C"} {
			mustCreateItem(t, c, id)
		}
		first, err := c.ItemChanges(ctx, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		if got := keysOf(first.Records, itemKey); !slices.Equal(got, []string{"SYNC-A", "SYNC-B", "SYNC-C"}) {
			t.Fatalf("first sync %v", got)
		}
		quiet, err := c.ItemChanges(ctx, first.Mark)
		if err != nil {
			t.Fatal(err)
		}
		if len(quiet.Records) != 0 || !quiet.Mark.Equal(first.Mark) {
			t.Fatalf("sync without changes: %v, mark %v -> %v", keysOf(quiet.Records, itemKey), first.Mark, quiet.Mark)
		}
		if _, err := c.UpdateItem(ctx, client.ItemInput{ShortID: "SYNC-C", Description: new("changed")}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.DiscontinueItem(ctx, "SYNC-A"); err != nil {
			t.Fatal(err)
		}
		next, err := c.ItemChanges(ctx, quiet.Mark)
		if err != nil {
			t.Fatal(err)
		}
		if got := keysOf(next.Records, itemKey); !slices.Equal(got, []string{"SYNC-C", "SYNC-A"}) ||
			next.Records[0].Description != "changed" || !next.Records[1].Discontinued || !next.Mark.After(quiet.Mark) {
			t.Fatalf("sync after an update and a discontinuation: %+v, mark %v", next.Records, next.Mark)
		}
		// Writing a value an item already has changes nothing.
		if _, err := c.UpdateItem(ctx, client.ItemInput{ShortID: "SYNC-C", Description: new("changed")}); err != nil {
			t.Fatal(err)
		}
		if again, err := c.ItemChanges(ctx, next.Mark); err != nil || len(again.Records) != 0 {
			t.Fatalf("sync after a no-op update: %v, %v", again, err)
		}
	})
	t.Run("StockLevelsAndLots", func(t *testing.T) {
		mustCreateItem(t, c, "SYNC-STOCK")
		rec := mustReceive(t, c, "SYNC-STOCK", units(t, "5"), 1, "")
		levels, err := c.StockLevelChanges(ctx, time.Time{}, client.StockLevelListOptions{ItemID: "SYNC-STOCK"})
		if err != nil {
			t.Fatal(err)
		}
		lots, err := c.LotChanges(ctx, time.Time{}, client.LotListOptions{ItemID: "SYNC-STOCK"})
		if err != nil {
			t.Fatal(err)
		}
		if len(levels.Records) != 1 || levels.Records[0].InStock != units(t, "5") || len(lots.Records) != 1 || lots.Records[0].RecNo != rec.RecNo {
			t.Fatalf("first sync: levels %+v, lots %+v", levels.Records, lots.Records)
		}
		if _, err := c.Issue(ctx, client.IssueRequest{ItemID: "SYNC-STOCK", Units: units(t, "5"), WID: 1, ReasonCode: 20}); err != nil {
			t.Fatal(err)
		}
		levels, err = c.StockLevelChanges(ctx, levels.Mark, client.StockLevelListOptions{ItemID: "SYNC-STOCK"})
		if err != nil {
			t.Fatal(err)
		}
		lots, err = c.LotChanges(ctx, lots.Mark, client.LotListOptions{ItemID: "SYNC-STOCK"})
		if err != nil {
			t.Fatal(err)
		}
		if len(levels.Records) != 1 || !levels.Records[0].InStock.IsZero() {
			t.Fatalf("the level that fell to zero: %+v", levels.Records)
		}
		if len(lots.Records) != 1 || !lots.Records[0].Units.IsZero() || lots.Records[0].Active || lots.Records[0].Shipped == nil {
			t.Fatalf("the emptied lot: %+v", lots.Records)
		}
	})
	t.Run("TransactionsAndAliases", func(t *testing.T) {
		ledger, err := c.TransactionChanges(ctx, time.Time{}, client.TransactionListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		aliases, err := c.AliasChanges(ctx, time.Time{}, client.AliasListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		mustCreateItem(t, c, "SYNC-LEDGER")
		rec := mustReceive(t, c, "SYNC-LEDGER", units(t, "1"), 1, "")
		if _, err := c.CreateAlias(ctx, "SYNC-ALIAS", "SYNC-LEDGER"); err != nil {
			t.Fatal(err)
		}
		newLedger, err := c.TransactionChanges(ctx, ledger.Mark, client.TransactionListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		newAliases, err := c.AliasChanges(ctx, aliases.Mark, client.AliasListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(newLedger.Records) != 1 || newLedger.Records[0].ID != rec.TransactionID {
			t.Fatalf("new ledger entries %+v, want transaction %d only", newLedger.Records, rec.TransactionID)
		}
		if len(newAliases.Records) != 1 || newAliases.Records[0].Alias != "SYNC-ALIAS" {
			t.Fatalf("new aliases %+v", newAliases.Records)
		}
	})
}

// TestChangesLateCommit proves the mark does not pass over a change stamped
// before, but committed after, the changes a sync saw: the transaction of a
// slow request, or of another server instance whose clock is a little
// behind.
func TestChangesLateCommit(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	c := s.admin(t)
	ctx := context.Background()
	mustCreateItem(t, c, "EARLY-BIRD")
	first, err := c.ItemChanges(ctx, time.Time{})
	if err != nil || len(first.Records) != 1 {
		t.Fatalf("first sync: %+v, %v", first, err)
	}
	s.advance(-10 * time.Second) // the late transaction's timestamp
	mustCreateItem(t, c, "LATE-COMMIT")
	next, err := c.ItemChanges(ctx, first.Mark)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(keysOf(next.Records, itemKey), "LATE-COMMIT") {
		t.Fatalf("the late change was passed over: %v since %v", keysOf(next.Records, itemKey), first.Mark)
	}
}

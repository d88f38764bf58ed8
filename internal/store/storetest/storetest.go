// Package storetest is the behaviour suite every storage engine must pass.
// It runs against real databases only; store_test.go runs it on SQLite always
// and on PostgreSQL when configured.
package storetest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store"
)

// Run runs the whole suite. newDSN returns the address of a fresh, empty
// database each time it is called.
func Run(t *testing.T, newDSN func(testing.TB) string) {
	h := &harness{newDSN: newDSN}
	t.Run("Migrate", h.testMigrate)
	t.Run("Bootstrap", h.testBootstrap)
	t.Run("Warehouses", h.testWarehouses)
	t.Run("Paging", h.testPaging)
	t.Run("ReasonCodes", h.testReasonCodes)
	t.Run("Clients", h.testClients)
	t.Run("Tokens", h.testTokens)
	t.Run("ClientOwners", h.testClientOwners)
	t.Run("UpdateClient", h.testUpdateClient)
	t.Run("UpdateWarehouse", h.testUpdateWarehouse)
	t.Run("Items", h.testItems)
	t.Run("ItemCatalogues", h.testItemCatalogues)
	t.Run("Parties", h.testParties)
	t.Run("Imports", h.testImports)
	t.Run("Categories", h.testCategories)
	t.Run("Inventory", h.testInventory)
	t.Run("DrawAfterSplit", h.testDrawAfterSplit)
	t.Run("OwnerIsolation", h.testOwnerIsolation)
	t.Run("PurchaseOrders", h.testPurchaseOrders)
	t.Run("ShippingOrders", h.testShippingOrders)
	t.Run("Transits", h.testTransits)
	t.Run("Allocations", h.testAllocations)
	t.Run("SecondCommitTakesOnlyUnpromised", h.testSecondCommitTakesOnlyUnpromised)
	t.Run("BatchMembersFail", h.testBatchMembersFail)
	t.Run("BatchReceipts", h.testBatchReceipts)
	t.Run("LockstepBatch", h.testLockstepBatch)
	t.Run("MergedLevelsRefused", h.testMergedLevelsRefused)
	t.Run("LevelLockOrder", h.testLevelLockOrder)
	t.Run("CheckpointsBesideTheWriter", h.testCheckpoints)
	t.Run("CommitAnswerLost", h.testCommitAnswerLost)
	t.Run("Events", h.testEvents)
}

type harness struct {
	newDSN func(testing.TB) string
}

var ctx = context.Background()

// t0 is a fixed instant with microseconds, the precision stored.
var t0 = time.Date(2026, 3, 14, 15, 9, 26, 535897000, time.UTC)

// open opens and migrates a fresh database.
func (h *harness) open(t *testing.T) *store.DB {
	t.Helper()
	return mustOpen(t, h.newDSN(t))
}

func mustOpen(t testing.TB, dsn string) *store.DB {
	t.Helper()
	db, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	if db.Engine() == store.SQLite {
		noRecompiles(t, db)
	}
	if _, _, err := db.Migrate(ctx); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return db
}

// noRecompiles fails the test if SQLite's writer compiles any statement it
// keeps prepared a second time: a statement whose plan depends on its
// bound values is compiled again on every run, which costs as much as
// running it (the writer hides the values, litewriter.go).
func noRecompiles(t testing.TB, db *store.DB) {
	var (
		mu   sync.Mutex
		seen = map[string]bool{}
	)
	db.ObserveRecompilesForTest(func(q string) {
		mu.Lock()
		defer mu.Unlock()
		seen[q] = true
	})
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for q := range seen {
			t.Errorf("SQLite's writer compiled a kept statement again:%s", q)
		}
	})
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := stockroom.ErrorCode(err); got != code {
		t.Fatalf("error code %q (%v), want %q", got, err, code)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (h *harness) testMigrate(t *testing.T) {
	t.Run("IsIdempotent", func(t *testing.T) {
		db := h.open(t)
		from, to, err := db.Migrate(ctx)
		must(t, err)
		if from != to || to < 1 {
			t.Fatalf("second migrate went from %d to %d, want no change at version >= 1", from, to)
		}
	})
	t.Run("FiguresKeepTheirItemDownAndUp", h.testFiguresMigration)
	t.Run("ConcurrentInstancesAgree", func(t *testing.T) {
		dsn := h.newDSN(t)
		var wg sync.WaitGroup
		errs := make([]error, 6)
		versions := make([]int64, 6)
		for i := range errs {
			wg.Go(func() {
				db, err := store.Open(ctx, dsn)
				if err != nil {
					errs[i] = err
					return
				}
				defer db.Close()
				_, versions[i], errs[i] = db.Migrate(ctx)
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("instance %d: %v", i, err)
			}
			if versions[i] != versions[0] {
				t.Fatalf("instances ended on versions %v", versions)
			}
		}
	})
}

func adminClient(id string) *stockroom.Client {
	return &stockroom.Client{
		ID: id, Name: "Admin", Permissions: stockroom.AllPermissions,
		Scope: stockroom.Scope{All: true}, Owners: stockroom.Scope{All: true}, Enabled: true, Created: t0, Modified: t0,
	}
}

// bootstrap is a fresh database's bootstrap with administrator id.
func bootstrap(id string) stockroom.Bootstrap {
	return stockroom.Bootstrap{Warehouse: stockroom.DefaultWarehouse, ReasonCodes: stockroom.DefaultReasonCodes,
		Admin: adminClient(id), SecretHash: "hash-" + id, Time: t0}
}

func (h *harness) testBootstrap(t *testing.T) {
	t.Run("OnceAndComplete", func(t *testing.T) {
		db := h.open(t)
		ok, err := db.RunBootstrap(ctx, bootstrap("admin-1"))
		must(t, err)
		if !ok {
			t.Fatal("first bootstrap reported that it did nothing")
		}
		ok, err = db.RunBootstrap(ctx, bootstrap("admin-2"))
		must(t, err)
		if ok {
			t.Fatal("second bootstrap ran again")
		}
		w, err := db.FindWarehouse(ctx, 1)
		must(t, err)
		if w.Name != "Main" || !w.Active {
			t.Fatalf("warehouse 1 = %+v, want active Main", w)
		}
		codes, err := db.ListReasonCodes(ctx, stockroom.PageRequest{Page: 1, PageSize: 250})
		must(t, err)
		if codes.Total != int64(len(stockroom.DefaultReasonCodes)) {
			t.Fatalf("%d reason codes, want %d", codes.Total, len(stockroom.DefaultReasonCodes))
		}
		clients, err := db.ListClients(ctx)
		must(t, err)
		if len(clients) != 1 || clients[0].ID != "admin-1" || !clients[0].Scope.All || !clients[0].Owners.All ||
			!slices.Equal(clients[0].Permissions, []stockroom.Permission{11, 15, 88, 95, 116, 301, 302, 303, 370}) {
			t.Fatalf("clients after bootstrap = %+v, want only admin-1 with every permission on all warehouses and owners", clients)
		}
	})
	t.Run("ConcurrentInstancesCreateOneAdmin", func(t *testing.T) {
		dsn := h.newDSN(t)
		mustOpen(t, dsn) // migrated once, as serve does before bootstrapping
		var wg sync.WaitGroup
		created := make([]bool, 6)
		errs := make([]error, 6)
		for i := range created {
			wg.Go(func() {
				db, err := store.Open(ctx, dsn)
				if err != nil {
					errs[i] = err
					return
				}
				defer db.Close()
				created[i], errs[i] = db.RunBootstrap(ctx, bootstrap(fmt.Sprintf("admin-%d", i)))
			})
		}
		wg.Wait()
		n := 0
		for i := range created {
			must(t, errs[i])
			if created[i] {
				n++
			}
		}
		clients, err := mustOpen(t, dsn).ListClients(ctx)
		must(t, err)
		if n != 1 || len(clients) != 1 {
			t.Fatalf("%d instances bootstrapped and %d clients exist, want 1 and 1", n, len(clients))
		}
	})
}

func (h *harness) testWarehouses(t *testing.T) {
	db := h.open(t)
	w := stockroom.Warehouse{ID: 7, Name: "North", Active: true, Created: t0, Modified: t0.Add(time.Second)}
	must(t, db.CreateWarehouse(ctx, w))
	t.Run("RoundTrip", func(t *testing.T) {
		got, err := db.FindWarehouse(ctx, 7)
		must(t, err)
		if got != w {
			t.Fatalf("read back %+v, want %+v", got, w)
		}
	})
	t.Run("DuplicateIsConflict", func(t *testing.T) {
		wantCode(t, db.CreateWarehouse(ctx, w), stockroom.ECONFLICT)
	})
	t.Run("MissingIsNotFound", func(t *testing.T) {
		_, err := db.FindWarehouse(ctx, 8)
		wantCode(t, err, stockroom.ENOTFOUND)
	})
	t.Run("ScopeLimitsList", func(t *testing.T) {
		for _, id := range []int64{2, 3, 5} {
			must(t, db.CreateWarehouse(ctx, stockroom.Warehouse{ID: id, Name: fmt.Sprint("W", id), Active: true, Created: t0, Modified: t0}))
		}
		for _, tc := range []struct {
			scope stockroom.Scope
			want  []int64
		}{
			{stockroom.Scope{All: true}, []int64{2, 3, 5, 7}},
			{stockroom.Scope{IDs: []int64{3, 7}}, []int64{3, 7}},
			{stockroom.Scope{IDs: []int64{99}}, nil},
			{stockroom.Scope{}, nil},
		} {
			page, err := db.ListWarehouses(ctx, tc.scope, stockroom.PageRequest{Page: 1, PageSize: 25})
			must(t, err)
			var ids []int64
			for _, w := range page.Items {
				ids = append(ids, w.ID)
			}
			if !slices.Equal(ids, tc.want) || page.Total != int64(len(tc.want)) {
				t.Errorf("scope %v: ids %v total %d, want %v", tc.scope, ids, page.Total, tc.want)
			}
		}
	})
}

// testPaging checks the one paging implementation through the warehouse list.
func (h *harness) testPaging(t *testing.T) {
	db := h.open(t)
	names := []string{"Delta", "alpha", "Charlie", "Bravo", "Echo", "Bravo", "Alpha"}
	for i, n := range names {
		must(t, db.CreateWarehouse(ctx, stockroom.Warehouse{ID: int64(i + 1), Name: n, Active: true, Created: t0, Modified: t0}))
	}
	ids := func(p stockroom.Page[stockroom.Warehouse]) []int64 {
		var out []int64
		for _, w := range p.Items {
			out = append(out, w.ID)
		}
		return out
	}
	all := stockroom.Scope{All: true}
	t.Run("PagesAndTotals", func(t *testing.T) {
		for _, tc := range []struct {
			page, size int64
			want       []int64
			more       bool
		}{
			{1, 3, []int64{1, 2, 3}, true},
			{2, 3, []int64{4, 5, 6}, true},
			{3, 3, []int64{7}, false},
			{4, 3, nil, false},
			{1 << 62, 250, nil, false},
		} {
			p, err := db.ListWarehouses(ctx, all, stockroom.PageRequest{Page: tc.page, PageSize: tc.size})
			must(t, err)
			if !slices.Equal(ids(p), tc.want) || p.Total != 7 || p.HasMore() != tc.more || p.PageCount() != (7+tc.size-1)/tc.size {
				t.Errorf("page %d size %d: ids %v total %d more %v count %d, want %v total 7 more %v",
					tc.page, tc.size, ids(p), p.Total, p.HasMore(), p.PageCount(), tc.want, tc.more)
			}
			if p.Items == nil {
				t.Errorf("page %d: nil items, want an empty list", tc.page)
			}
		}
	})
	t.Run("SortWithKeyTieBreaker", func(t *testing.T) {
		for _, tc := range []struct {
			sort, dir string
			want      []int64
		}{
			// Byte order of names, ties broken by wID in the same direction.
			{"name", "", []int64{7, 4, 6, 3, 1, 5, 2}},
			{"NAME", "DESC", []int64{2, 5, 1, 3, 6, 4, 7}},
			{"nosuchfield", "", []int64{1, 2, 3, 4, 5, 6, 7}},
			{"", "DESC", []int64{7, 6, 5, 4, 3, 2, 1}},
			{"wid", "ASC", []int64{1, 2, 3, 4, 5, 6, 7}},
		} {
			// Walk in pages of 2: pages must neither overlap nor skip.
			var got []int64
			for page := int64(1); page <= 4; page++ {
				p, err := db.ListWarehouses(ctx, all, stockroom.PageRequest{Page: page, PageSize: 2, Sort: tc.sort, Direction: tc.dir})
				must(t, err)
				got = append(got, ids(p)...)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("sort %q %q: %v, want %v", tc.sort, tc.dir, got, tc.want)
			}
		}
	})
}

func (h *harness) testReasonCodes(t *testing.T) {
	db := h.open(t)
	rc := stockroom.ReasonCode{Code: 42, Description: "Test", Direction: stockroom.DirectionIssue, Created: t0}
	must(t, db.CreateReasonCode(ctx, rc))
	got, err := db.FindReasonCode(ctx, 42)
	must(t, err)
	if got != rc {
		t.Fatalf("read back %+v, want %+v", got, rc)
	}
	wantCode(t, db.CreateReasonCode(ctx, rc), stockroom.ECONFLICT)
	_, err = db.FindReasonCode(ctx, 43)
	wantCode(t, err, stockroom.ENOTFOUND)
	rc.Direction = "sideways"
	rc.Code = 44
	if err := db.CreateReasonCode(ctx, rc); err == nil {
		t.Fatal("the database accepted direction \"sideways\"")
	}
}

package storetest

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/store"
)

// testClientOwners: a client's owner scope is kept like its warehouse scope,
// read back by every way a client is read, and carried by the principal a
// token authenticates.
func (h *harness) testClientOwners(t *testing.T) {
	db := h.open(t)
	must(t, db.CreateWarehouse(ctx, stockroom.Warehouse{ID: 1, Name: "W", Active: true, Created: t0, Modified: t0}))
	limited := &stockroom.Client{
		ID: "tpl", Name: "3PL portal", Permissions: []stockroom.Permission{11},
		Scope: stockroom.Scope{All: true}, Owners: stockroom.Scope{IDs: []int64{0, 5}}, Enabled: true, Created: t0, Modified: t0,
	}
	both := &stockroom.Client{
		ID: "both", Name: "Both", Permissions: []stockroom.Permission{11},
		Scope: stockroom.Scope{IDs: []int64{1}}, Owners: stockroom.Scope{IDs: []int64{9}}, Enabled: true, Created: t0, Modified: t0,
	}
	must(t, db.CreateClient(ctx, limited, "h"))
	must(t, db.CreateClient(ctx, both, "h"))
	must(t, db.CreateClient(ctx, adminClient("admin"), "h"))
	t.Run("RoundTrip", func(t *testing.T) {
		got, _, err := db.FindClient(ctx, "tpl")
		must(t, err)
		if got.Owners.All || !slices.Equal(got.Owners.IDs, []int64{0, 5}) || !got.Scope.All {
			t.Fatalf("read back owners %v warehouses %v, want owners 0,5 on all warehouses", got.Owners, got.Scope)
		}
	})
	t.Run("List", func(t *testing.T) {
		list, err := db.ListClients(ctx)
		must(t, err)
		want := map[string]string{"admin": "all/all", "both": "1/9", "tpl": "all/0,5"}
		for _, c := range list {
			if got := c.Scope.String() + "/" + c.Owners.String(); got != want[c.ID] {
				t.Errorf("client %s: warehouses/owners %s, want %s", c.ID, got, want[c.ID])
			}
		}
	})
	t.Run("PrincipalCarriesOwners", func(t *testing.T) {
		for id, want := range map[string]stockroom.Scope{
			"tpl":   {IDs: []int64{0, 5}},
			"both":  {IDs: []int64{9}},
			"admin": {All: true},
		} {
			must(t, db.CreateToken(ctx, "tok-"+id, id, t0, t0.Add(time.Hour)))
			p, err := db.FindPrincipalByToken(ctx, "tok-"+id, t0)
			must(t, err)
			if !p.Owners.Equal(want) || p.Owners.All != want.All {
				t.Errorf("principal of %s has owners %v, want %v", id, p.Owners, want)
			}
		}
	})
}

// testUpdateClient: a change replaces what it changes, keeps the rest and
// the client's tokens, and stores nothing when refused or unchanged.
func (h *harness) testUpdateClient(t *testing.T) {
	db := h.open(t)
	for _, id := range []int64{1, 2} {
		must(t, db.CreateWarehouse(ctx, stockroom.Warehouse{ID: id, Name: "W", Active: true, Created: t0, Modified: t0}))
	}
	c := &stockroom.Client{
		ID: "app", Name: "App", Permissions: []stockroom.Permission{11},
		Scope: stockroom.Scope{IDs: []int64{1}}, Owners: stockroom.Scope{All: true}, Enabled: true, Created: t0, Modified: t0,
	}
	must(t, db.CreateClient(ctx, c, "hash"))
	must(t, db.CreateToken(ctx, "tok", "app", t0, t0.Add(time.Hour)))
	t1 := t0.Add(time.Second)
	t.Run("ChangesScopesAndKeepsTokens", func(t *testing.T) {
		got, err := db.UpdateClient(ctx, "app", func(c *stockroom.Client) (bool, error) {
			if !slices.Equal(c.Scope.IDs, []int64{1}) || !c.Owners.All {
				t.Errorf("fn saw warehouses %v owners %v, want 1 and all", c.Scope, c.Owners)
			}
			c.Name, c.Permissions, c.ReadOnly = "App 2", []stockroom.Permission{11, 301}, true
			c.Scope, c.Owners, c.Modified = stockroom.Scope{All: true}, stockroom.Scope{IDs: []int64{0, 7}}, t1
			return true, nil
		})
		must(t, err)
		p, err := db.FindPrincipalByToken(ctx, "tok", t0)
		must(t, err)
		if p.Name != "App 2" || !p.Can(301) || !p.ReadOnly || !p.Scope.All || !slices.Equal(p.Owners.IDs, []int64{0, 7}) || p.Owners.All {
			t.Fatalf("principal after the change: %+v", p)
		}
		stored, hash, err := db.FindClient(ctx, "app")
		must(t, err)
		if hash != "hash" || !stored.Enabled || !stored.Modified.Equal(t1) || !stored.Created.Equal(t0) || got.Name != "App 2" {
			t.Fatalf("stored %+v (hash %q), returned %+v", stored, hash, got)
		}
		// And back to a list: the old list is replaced, not added to.
		_, err = db.UpdateClient(ctx, "app", func(c *stockroom.Client) (bool, error) {
			c.Scope, c.Owners = stockroom.Scope{IDs: []int64{2}}, stockroom.Scope{All: true}
			return true, nil
		})
		must(t, err)
		stored, _, err = db.FindClient(ctx, "app")
		must(t, err)
		if !slices.Equal(stored.Scope.IDs, []int64{2}) || !stored.Owners.All {
			t.Fatalf("warehouses %v owners %v, want 2 and all", stored.Scope, stored.Owners)
		}
	})
	t.Run("RefusedOrUnchangedStoresNothing", func(t *testing.T) { refuseClientUpdates(t, db) })
	t.Run("UnknownIsNotFound", func(t *testing.T) {
		_, err := db.UpdateClient(ctx, "nobody", func(*stockroom.Client) (bool, error) {
			t.Error("fn called for a client that does not exist")
			return false, nil
		})
		wantCode(t, err, stockroom.ENOTFOUND)
	})
}

// testUpdateWarehouse: a warehouse is renamed and deactivated in place and
// still listed; a refused or empty change stores nothing.
func (h *harness) testUpdateWarehouse(t *testing.T) {
	db := h.open(t)
	w := stockroom.Warehouse{ID: 4, Name: "South", Active: true, Created: t0, Modified: t0}
	must(t, db.CreateWarehouse(ctx, w))
	t1 := t0.Add(time.Minute)
	got, err := db.UpdateWarehouse(ctx, 4, func(w *stockroom.Warehouse) (bool, error) {
		w.Name, w.Active, w.Modified = "South annex", false, t1
		return true, nil
	})
	must(t, err)
	want := stockroom.Warehouse{ID: 4, Name: "South annex", Active: false, Created: t0, Modified: t1}
	stored, err := db.FindWarehouse(ctx, 4)
	must(t, err)
	if got != want || stored != want {
		t.Fatalf("returned %+v, stored %+v, want %+v", got, stored, want)
	}
	page, err := db.ListWarehouses(ctx, stockroom.Scope{All: true}, stockroom.PageRequest{Page: 1, PageSize: 25})
	must(t, err)
	if len(page.Items) != 1 || page.Items[0] != want {
		t.Fatalf("list after deactivation: %+v", page.Items)
	}
	_, err = db.UpdateWarehouse(ctx, 4, func(w *stockroom.Warehouse) (bool, error) {
		w.Active, w.Modified = true, t1.Add(time.Minute)
		return false, nil
	})
	must(t, err)
	if stored, err := db.FindWarehouse(ctx, 4); err != nil || stored != want {
		t.Fatalf("an unchanged update stored %+v (%v)", stored, err)
	}
	_, err = db.UpdateWarehouse(ctx, 5, func(*stockroom.Warehouse) (bool, error) {
		t.Error("fn called for a warehouse that does not exist")
		return false, nil
	})
	wantCode(t, err, stockroom.ENOTFOUND)
}

// refuseClientUpdates: an update of client "app" that its fn refuses,
// leaves unchanged, or that names a warehouse that does not exist stores
// nothing.
func refuseClientUpdates(t *testing.T, db *store.DB) {
	before, _, err := db.FindClient(ctx, "app")
	must(t, err)
	refusal := errors.New("refused")
	_, err = db.UpdateClient(ctx, "app", func(c *stockroom.Client) (bool, error) {
		c.Name = "Never"
		return true, refusal
	})
	if !errors.Is(err, refusal) {
		t.Fatalf("fn's error came back as %v", err)
	}
	_, err = db.UpdateClient(ctx, "app", func(c *stockroom.Client) (bool, error) {
		c.Name = "Not this either"
		return false, nil
	})
	must(t, err)
	_, err = db.UpdateClient(ctx, "app", func(c *stockroom.Client) (bool, error) {
		c.Scope = stockroom.Scope{IDs: []int64{2, 99}} // warehouse 99 does not exist
		return true, nil
	})
	if err == nil {
		t.Fatal("a scope naming a warehouse that does not exist was stored")
	}
	after, _, err := db.FindClient(ctx, "app")
	must(t, err)
	if after.Name != before.Name || !after.Modified.Equal(before.Modified) || !after.Scope.Equal(before.Scope) {
		t.Fatalf("client changed from %+v to %+v", before, after)
	}
}

func (h *harness) testClients(t *testing.T) {
	db := h.open(t)
	for _, id := range []int64{1, 2, 3} {
		must(t, db.CreateWarehouse(ctx, stockroom.Warehouse{ID: id, Name: "W", Active: true, Created: t0, Modified: t0}))
	}
	c := &stockroom.Client{
		ID: "picker", Name: "Picker", Permissions: []stockroom.Permission{11, 88},
		Scope: stockroom.Scope{IDs: []int64{1, 3}}, Owners: stockroom.Scope{All: true}, ReadOnly: true, Enabled: true, Created: t0, Modified: t0,
	}
	must(t, db.CreateClient(ctx, c, "hash-p"))
	t.Run("RoundTrip", func(t *testing.T) {
		got, hash, err := db.FindClient(ctx, "picker")
		must(t, err)
		if hash != "hash-p" || got.Name != "Picker" || !slices.Equal(got.Permissions, c.Permissions) ||
			!slices.Equal(got.Scope.IDs, []int64{1, 3}) || got.Scope.All || !got.ReadOnly || !got.Enabled || !got.Created.Equal(t0) {
			t.Fatalf("read back %+v %q, want %+v", got, hash, c)
		}
	})
	t.Run("DuplicateIsConflict", func(t *testing.T) {
		wantCode(t, db.CreateClient(ctx, c, "x"), stockroom.ECONFLICT)
	})
	t.Run("UnknownWarehouseStoresNothing", func(t *testing.T) {
		// The service names the unknown warehouse; the database refuses it.
		bad := *c
		bad.ID, bad.Scope = "ghost", stockroom.Scope{IDs: []int64{2, 9}}
		if err := db.CreateClient(ctx, &bad, "x"); err == nil {
			t.Fatal("a client scoped to a warehouse that does not exist was stored")
		}
		_, _, err := db.FindClient(ctx, "ghost")
		wantCode(t, err, stockroom.ENOTFOUND)
	})
	t.Run("List", func(t *testing.T) {
		must(t, db.CreateClient(ctx, adminClient("admin"), "hash-a"))
		list, err := db.ListClients(ctx)
		must(t, err)
		if len(list) != 2 || list[0].ID != "admin" || !list[0].Scope.All || list[1].ID != "picker" || !slices.Equal(list[1].Scope.IDs, []int64{1, 3}) {
			t.Fatalf("list = %+v %+v", list[0], list[1])
		}
	})
	t.Run("UnknownIsNotFound", func(t *testing.T) {
		wantCode(t, db.SetClientEnabled(ctx, "nobody", false, t0), stockroom.ENOTFOUND)
		wantCode(t, db.SetClientSecret(ctx, "nobody", "h", t0), stockroom.ENOTFOUND)
		_, _, err := db.FindClient(ctx, "nobody")
		wantCode(t, err, stockroom.ENOTFOUND)
	})
}

func (h *harness) testTokens(t *testing.T) {
	db := h.open(t)
	must(t, db.CreateWarehouse(ctx, stockroom.Warehouse{ID: 1, Name: "W", Active: true, Created: t0, Modified: t0}))
	c := &stockroom.Client{
		ID: "app", Name: "App", Permissions: []stockroom.Permission{11},
		Scope: stockroom.Scope{IDs: []int64{1}}, Owners: stockroom.Scope{All: true}, Enabled: true, Created: t0, Modified: t0,
	}
	must(t, db.CreateClient(ctx, c, "hash"))
	expires := t0.Add(time.Hour)
	must(t, db.CreateToken(ctx, "tok-1", "app", t0, expires))

	t.Run("FindsPrincipal", func(t *testing.T) {
		p, err := db.FindPrincipalByToken(ctx, "tok-1", t0)
		must(t, err)
		if p.ClientID != "app" || !p.Can(11) || p.Can(116) || !slices.Equal(p.Scope.IDs, []int64{1}) {
			t.Fatalf("principal %+v", p)
		}
	})
	t.Run("UnknownIsNotFound", func(t *testing.T) {
		_, err := db.FindPrincipalByToken(ctx, "tok-2", t0)
		wantCode(t, err, stockroom.ENOTFOUND)
	})
	t.Run("ExpiresAtExpiry", func(t *testing.T) {
		_, err := db.FindPrincipalByToken(ctx, "tok-1", expires.Add(-time.Microsecond))
		must(t, err)
		_, err = db.FindPrincipalByToken(ctx, "tok-1", expires)
		wantCode(t, err, stockroom.ENOTFOUND)
	})
	t.Run("DisableRevokes", func(t *testing.T) {
		must(t, db.SetClientEnabled(ctx, "app", false, t0))
		_, err := db.FindPrincipalByToken(ctx, "tok-1", t0)
		wantCode(t, err, stockroom.ENOTFOUND)
		// Enabling again does not bring revoked tokens back.
		must(t, db.SetClientEnabled(ctx, "app", true, t0))
		_, err = db.FindPrincipalByToken(ctx, "tok-1", t0)
		wantCode(t, err, stockroom.ENOTFOUND)
		got, _, err := db.FindClient(ctx, "app")
		must(t, err)
		if !got.Enabled {
			t.Fatal("client still disabled after enable")
		}
	})
	t.Run("NewSecretRevokes", func(t *testing.T) {
		must(t, db.CreateToken(ctx, "tok-3", "app", t0, expires))
		must(t, db.SetClientSecret(ctx, "app", "hash-2", t0))
		_, err := db.FindPrincipalByToken(ctx, "tok-3", t0)
		wantCode(t, err, stockroom.ENOTFOUND)
		_, hash, err := db.FindClient(ctx, "app")
		must(t, err)
		if hash != "hash-2" {
			t.Fatalf("secret hash %q after rotation, want hash-2", hash)
		}
	})
}

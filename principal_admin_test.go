package stockroom

import "testing"

func TestAuthorizeAdministrator(t *testing.T) {
	admin := Principal{Permissions: AllPermissions, Scope: Scope{All: true}, Owners: Scope{All: true}}
	if err := admin.AuthorizeAdministrator(); err != nil {
		t.Fatalf("the first start's administrator: %v", err)
	}
	for name, p := range map[string]Principal{
		"read-only":        {Permissions: AllPermissions, Scope: Scope{All: true}, Owners: Scope{All: true}, ReadOnly: true},
		"some warehouses":  {Permissions: AllPermissions, Scope: Scope{IDs: []int64{1}}, Owners: Scope{All: true}},
		"some owners":      {Permissions: AllPermissions, Scope: Scope{All: true}, Owners: Scope{IDs: []int64{0}}},
		"a permission off": {Permissions: AllPermissions[1:], Scope: Scope{All: true}, Owners: Scope{All: true}},
	} {
		if ErrorCode(p.AuthorizeAdministrator()) != EFORBIDDEN {
			t.Errorf("%s: not refused", name)
		}
	}
}

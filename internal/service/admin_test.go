package service

import (
	"testing"

	"github.com/stockroom/stockroom"
)

// TestAdmitAdministrator: the admin operations admit the operator and a
// client like the first start's administrator, and no one less.
func TestAdmitAdministrator(t *testing.T) {
	all := stockroom.Scope{All: true}
	for _, p := range []*stockroom.Principal{Operator, {Permissions: stockroom.AllPermissions, Scope: all, Owners: all}} {
		if err := admitAdministrator(p); err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
	}
	for name, p := range map[string]*stockroom.Principal{
		"none":             nil,
		"read-only":        {Permissions: stockroom.AllPermissions, Scope: all, Owners: all, ReadOnly: true},
		"some warehouses":  {Permissions: stockroom.AllPermissions, Scope: stockroom.Scope{IDs: []int64{1}}, Owners: all},
		"some owners":      {Permissions: stockroom.AllPermissions, Scope: all, Owners: stockroom.Scope{IDs: []int64{0}}},
		"a permission off": {Permissions: stockroom.AllPermissions[1:], Scope: all, Owners: all},
	} {
		err := admitAdministrator(p)
		if stockroom.ErrorCode(err) != stockroom.EFORBIDDEN || stockroom.ErrorMessage(err) != stockroom.MsgNotAdministrator {
			t.Errorf("%s: %v, want the refusal", name, err)
		}
	}
}

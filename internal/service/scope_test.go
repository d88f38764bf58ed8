package service

import (
	"testing"

	"github.com/stockroom/stockroom"
)

// TestScopeRules: the pure rules of scope.go, over clients of every
// warehouse and owner, of some, and of one.
func TestScopeRules(t *testing.T) {
	every := &stockroom.Principal{Scope: stockroom.Scope{All: true}, Owners: stockroom.Scope{All: true}}
	some := &stockroom.Principal{Scope: stockroom.Scope{IDs: []int64{1}}, Owners: stockroom.Scope{IDs: []int64{0, 7}}}
	one := &stockroom.Principal{Scope: stockroom.Scope{IDs: []int64{1}}, Owners: stockroom.Scope{IDs: []int64{7}}}
	missing := stockroom.Errorf(stockroom.ENOTFOUND, "Warehouse 9 does not exist.")
	for _, tc := range []struct {
		name      string
		got, want any
	}{
		{"UnknownWarehouseToEvery", stockroom.ErrorCode(unknownWarehouse(every, missing)), stockroom.ENOTFOUND},
		{"UnknownWarehouseToSome", stockroom.ErrorMessage(unknownWarehouse(some, missing)), stockroom.MsgOutOfScope},
		{"KnownWarehouse", unknownWarehouse(some, nil), nil},
		{"LotInScope", seesLot(some, stockroom.Lot{WID: 1, Owner: 7}), true},
		{"LotOfOtherWarehouse", seesLot(some, stockroom.Lot{WID: 2, Owner: 7}), false},
		{"LotOfOtherOwner", seesLot(some, stockroom.Lot{WID: 1, Owner: 8}), false},
		{"EveryOwnerNamesAnyFound", hidesOwner(every, 8, true), false},
		{"EveryOwnerNotFoundIsAField", hidesOwner(every, 8, false), false},
		{"OwnOwner", hidesOwner(some, 7, true), false},
		{"OtherOwner", hidesOwner(some, 8, true), true},
		{"NoSuchOwnerIsHidden", hidesOwner(some, 9, false), true},
		{"HouseItemSeen", seesItem(one, stockroom.HouseOwner), true},
		{"OtherOwnersItemUnseen", seesItem(one, 8), false},
		{"HouseCatalogueNotKept", stockroom.ErrorMessage(authorizeCatalogue(some, stockroom.HouseOwner)), stockroom.MsgOwnerOutOfScope},
		{"OwnCatalogueKept", authorizeCatalogue(one, 7), nil},
		{"NewItemOfTheOneOwner", newItemOwner(one, nil), int64(7)},
		{"NewItemOfTheHouse", newItemOwner(some, nil), stockroom.HouseOwner},
		{"OtherClientBlank", clientSeen(one, "other"), ""},
		{"OtherClientToEvery", clientSeen(every, "other"), "other"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

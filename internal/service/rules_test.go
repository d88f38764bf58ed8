package service_test

import (
	"context"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// These tests hold the service to the rules of contract §2–§7 that need no
// database: which permission each operation needs, the order in which a
// request's checks are made, and warehouse scope. The store beneath is a
// stand-in that knows warehouses 1 and 2, item KNOWN and the default reason
// codes, and records whether a write reached it; the behaviour of the
// stores themselves is the storetest suite's, on real databases.

type stubStore struct {
	service.Store // nil: any method not written here panics, so a test that reaches one fails
	writes        int
}

func (s *stubStore) FindWarehouse(_ context.Context, wid int64) (stockroom.Warehouse, error) {
	if wid == 1 || wid == 2 {
		return stockroom.Warehouse{ID: wid}, nil
	}
	return stockroom.Warehouse{}, stockroom.ErrNotFound
}

func (s *stubStore) FindItemByShortID(_ context.Context, shortID string) (stockroom.Item, error) {
	if stockroom.FoldKey(shortID) == stockroom.FoldKey("KNOWN") {
		return stockroom.Item{PartNo: 7, ShortID: "KNOWN"}, nil
	}
	return stockroom.Item{}, stockroom.ErrNotFound
}

func (s *stubStore) FindReasonCode(_ context.Context, code int64) (stockroom.ReasonCode, error) {
	for _, rc := range stockroom.DefaultReasonCodes {
		if rc.Code == code {
			return rc, nil
		}
	}
	return stockroom.ReasonCode{}, stockroom.ErrNotFound
}

func (s *stubStore) Receive(context.Context, *stockroom.IdempotencyKey, stockroom.Receipt, stockroom.LedgerEntry) (stockroom.ReceiveResult, error) {
	s.writes++
	return stockroom.ReceiveResult{}, nil
}

func (s *stubStore) Withdraw(context.Context, *stockroom.IdempotencyKey, stockroom.Withdrawal, stockroom.LedgerEntry) (stockroom.DrawResult, error) {
	s.writes++
	return stockroom.DrawResult{}, nil
}

func (s *stubStore) CreateItem(context.Context, *stockroom.IdempotencyKey, *stockroom.Item) error {
	s.writes++
	return nil
}

func principal(readOnly bool, scope stockroom.Scope, perms ...stockroom.Permission) *stockroom.Principal {
	return &stockroom.Principal{ClientID: "c", Permissions: perms, Scope: scope, Owners: stockroom.Scope{All: true}, ReadOnly: readOnly}
}

var (
	all        = stockroom.Scope{All: true}
	onlyOne    = stockroom.Scope{IDs: []int64{1}}
	unreadable = stockroom.Errorf(stockroom.EBADREQUEST, "The request body is not a JSON object.")
)

func TestCheckOrder(t *testing.T) {
	good := stockroom.ReceiveRequest{ItemID: "KNOWN", Units: stockroom.Whole(1), WID: 1, ReasonCode: 1}
	badFields := stockroom.ReceiveRequest{ItemID: "", Units: stockroom.Whole(-1), WID: 1, ReasonCode: 20}
	for _, tc := range []struct {
		name    string
		p       *stockroom.Principal
		req     service.Request[stockroom.ReceiveRequest]
		code    string
		message string
		write   bool
	}{
		{"ReadOnlyBeforePermission", principal(true, all), service.Request[stockroom.ReceiveRequest]{In: good}, stockroom.EFORBIDDEN, stockroom.MsgReadOnly, false},
		{"PermissionBeforeReading", principal(false, all, stockroom.PermItemRead), service.Request[stockroom.ReceiveRequest]{Unreadable: unreadable}, stockroom.EFORBIDDEN, stockroom.MsgNoPermission, false},
		{"ReadingBeforeFields", principal(false, all, stockroom.PermReceive), service.Request[stockroom.ReceiveRequest]{In: badFields, Unreadable: unreadable}, stockroom.EBADREQUEST, unreadable.Message, false},
		{"FieldsBeforeScope", principal(false, onlyOne, stockroom.PermReceive), service.Request[stockroom.ReceiveRequest]{In: stockroom.ReceiveRequest{WID: 2, ReasonCode: 1}}, stockroom.EINVALID, stockroom.MsgValidation, false},
		{"ReasonCodeOfTheWrongDirectionIsAField", principal(false, all, stockroom.PermReceive), service.Request[stockroom.ReceiveRequest]{In: stockroom.ReceiveRequest{ItemID: "KNOWN", Units: stockroom.Whole(1), WID: 1, ReasonCode: 20}}, stockroom.EINVALID, stockroom.MsgValidation, false},
		{"ScopeBeforeExistence", principal(false, onlyOne, stockroom.PermReceive), service.Request[stockroom.ReceiveRequest]{In: stockroom.ReceiveRequest{ItemID: "GHOST", Units: stockroom.Whole(1), WID: 2, ReasonCode: 1}}, stockroom.EFORBIDDEN, stockroom.MsgOutOfScope, false},
		{"UnknownWarehouseIs403WhenScoped", principal(false, onlyOne, stockroom.PermReceive), service.Request[stockroom.ReceiveRequest]{In: stockroom.ReceiveRequest{ItemID: "KNOWN", Units: stockroom.Whole(1), WID: 9, ReasonCode: 1}}, stockroom.EFORBIDDEN, stockroom.MsgOutOfScope, false},
		{"UnknownWarehouseIs404ToAllScope", principal(false, all, stockroom.PermReceive), service.Request[stockroom.ReceiveRequest]{In: stockroom.ReceiveRequest{ItemID: "KNOWN", Units: stockroom.Whole(1), WID: 9, ReasonCode: 1}}, stockroom.ENOTFOUND, "Warehouse 9 does not exist.", false},
		{"UnknownItemIs404", principal(false, all, stockroom.PermReceive), service.Request[stockroom.ReceiveRequest]{In: stockroom.ReceiveRequest{ItemID: "GHOST", Units: stockroom.Whole(1), WID: 1, ReasonCode: 1}}, stockroom.ENOTFOUND, `No item with ShortID "GHOST".`, false},
		{"AllChecksPassed", principal(false, onlyOne, stockroom.PermReceive), service.Request[stockroom.ReceiveRequest]{In: good}, "", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &stubStore{}
			_, err := service.New(st, service.Options{}).Receive(context.Background(), tc.p, tc.req)
			if stockroom.ErrorCode(err) != tc.code || stockroom.ErrorMessage(err) != tc.message {
				t.Fatalf("error %v, want %q %q", err, tc.code, tc.message)
			}
			if (st.writes == 1) != tc.write {
				t.Fatalf("%d writes reached the store, want a write: %v", st.writes, tc.write)
			}
		})
	}
}

// TestPermissions: each write needs its SecurityID and nothing else.
func TestPermissions(t *testing.T) {
	ctx := context.Background()
	ops := []struct {
		name string
		perm stockroom.Permission
		run  func(s *service.Service, p *stockroom.Principal) error
	}{
		{"Receive", stockroom.PermReceive, func(s *service.Service, p *stockroom.Principal) error {
			_, err := s.Receive(ctx, p, service.Request[stockroom.ReceiveRequest]{In: stockroom.ReceiveRequest{ItemID: "KNOWN", Units: stockroom.Whole(1), WID: 1, ReasonCode: 1}})
			return err
		}},
		{"Issue", stockroom.PermIssue, func(s *service.Service, p *stockroom.Principal) error {
			_, err := s.Issue(ctx, p, service.Request[stockroom.IssueRequest]{In: stockroom.IssueRequest{ItemID: "KNOWN", Units: stockroom.Whole(1), WID: 1, ReasonCode: 20}})
			return err
		}},
		{"Move", stockroom.PermMove, func(s *service.Service, p *stockroom.Principal) error {
			_, err := s.Move(ctx, p, service.Request[stockroom.MoveRequest]{In: stockroom.MoveRequest{ItemID: "KNOWN", Units: stockroom.Whole(1), WID: 1, ShipToWID: 2}})
			return err
		}},
		{"CreateItem", stockroom.PermItemWrite, func(s *service.Service, p *stockroom.Principal) error {
			_, err := s.CreateItem(ctx, p, service.Request[stockroom.ItemChange]{In: stockroom.ItemChange{ShortID: "NEW"}})
			return err
		}},
	}
	for _, op := range ops {
		for _, perm := range stockroom.AllPermissions {
			st := &stubStore{}
			err := op.run(service.New(st, service.Options{}), principal(false, all, perm))
			switch {
			case perm == op.perm && err != nil:
				t.Errorf("%s with %d: %v", op.name, perm, err)
			case perm != op.perm && stockroom.ErrorMessage(err) != stockroom.MsgNoPermission:
				t.Errorf("%s with only %d: %v, want %q", op.name, perm, err, stockroom.MsgNoPermission)
			case perm != op.perm && st.writes != 0:
				t.Errorf("%s with only %d reached the store", op.name, perm)
			}
		}
	}
}

// TestMoveNeedsBothWarehousesInScope: a move between warehouses is checked
// at both ends.
func TestMoveNeedsBothWarehousesInScope(t *testing.T) {
	st := &stubStore{}
	s := service.New(st, service.Options{})
	p := principal(false, onlyOne, stockroom.PermMove)
	for _, r := range []stockroom.MoveRequest{
		{ItemID: "KNOWN", Units: stockroom.Whole(1), WID: 1, ShipToWID: 2},
		{ItemID: "KNOWN", Units: stockroom.Whole(1), WID: 2, ShipToWID: 1},
	} {
		_, err := s.Move(context.Background(), p, service.Request[stockroom.MoveRequest]{In: r})
		if stockroom.ErrorMessage(err) != stockroom.MsgOutOfScope {
			t.Errorf("move %d -> %d: %v", r.WID, r.ShipToWID, err)
		}
	}
	if st.writes != 0 {
		t.Fatalf("%d moves reached the store", st.writes)
	}
}

// TestBodyReadOnlyOnceAdmitted: a request's body is decoded only once the
// caller's permission holds (contract §14), exactly once, before its
// fields are judged: what it decodes is what the operation does, its
// problems are the fields', and a body that cannot be read is 400 after
// the permission's 403.
func TestBodyReadOnlyOnceAdmitted(t *testing.T) {
	good := stockroom.ReceiveRequest{ItemID: "KNOWN", Units: stockroom.Whole(1), WID: 1, ReasonCode: 1}
	for _, tc := range []struct {
		name    string
		p       *stockroom.Principal
		body    error // what decoding the body finds wrong
		decoded bool
		code    string
		write   bool
	}{
		{"ReadOnly", principal(true, all, stockroom.PermReceive), nil, false, stockroom.EFORBIDDEN, false},
		{"NoPermission", principal(false, all, stockroom.PermItemRead), unreadable, false, stockroom.EFORBIDDEN, false},
		{"Unreadable", principal(false, all, stockroom.PermReceive), unreadable, true, stockroom.EBADREQUEST, false},
		{"FieldProblems", principal(false, all, stockroom.PermReceive), stockroom.Invalid("units", "must be a number"), true, stockroom.EINVALID, false},
		{"Good", principal(false, all, stockroom.PermReceive), nil, true, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			decoded := 0
			req := service.Request[stockroom.ReceiveRequest]{Decode: func(in *stockroom.ReceiveRequest) error {
				decoded++
				*in = good
				return tc.body
			}}
			st := &stubStore{}
			_, err := service.New(st, service.Options{}).Receive(context.Background(), tc.p, req)
			if stockroom.ErrorCode(err) != tc.code {
				t.Fatalf("error %v, want %q", err, tc.code)
			}
			if want := map[bool]int{false: 0, true: 1}[tc.decoded]; decoded != want {
				t.Fatalf("body decoded %d times, want %d", decoded, want)
			}
			if (st.writes == 1) != tc.write {
				t.Fatalf("%d writes reached the store, want a write: %v", st.writes, tc.write)
			}
		})
	}
}

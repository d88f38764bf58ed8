package sdktest_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
	"github.com/stockroom/stockroom/internal/service"
)

// wantAPIError checks that err is an *Error with the given status and code,
// and returns it.
func wantAPIError(t *testing.T, err error, status int, code string) *client.Error {
	t.Helper()
	apiErr, ok := errors.AsType[*client.Error](err)
	if !ok {
		t.Fatalf("error %v (%T), want an *client.Error %d %s", err, err, status, code)
	}
	if apiErr.StatusCode != status || apiErr.Code != code || apiErr.Message == "" || apiErr.RequestID == "" {
		t.Fatalf("error %+v, want %d %s with a message and a request id", apiErr, status, code)
	}
	return apiErr
}

// TestErrors proves each kind of refusal reaches the caller as an *Error
// carrying what the server said, so programs can branch on it.
func TestErrors(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverConfig{})
	s.addWarehouse(t, 2, "North")
	admin := s.admin(t)
	ctx := context.Background()
	mustCreateItem(t, admin, "ERR-1")
	mustReceive(t, admin, "ERR-1", units(t, "40"), 1, "")

	t.Run("ValidationDetailsNameEachField", func(t *testing.T) {
		_, err := admin.Receive(ctx, client.ReceiveRequest{ItemID: "ERR-1", WID: 1})
		apiErr := wantAPIError(t, err, 400, stockroom.EINVALID)
		fields := slices.Sorted(maps.Keys(apiErr.Details))
		if !slices.Equal(fields, []string{"reasonCode", "units"}) || apiErr.Details["units"][0] != "must be greater than 0" {
			t.Fatalf("details %v", apiErr.Details)
		}
		if !strings.Contains(apiErr.Error(), "[units: must be greater than 0]") {
			t.Fatalf("Error() = %q", apiErr.Error())
		}
	})
	t.Run("ShortStockIsAConflictNamingTheUnits", func(t *testing.T) {
		_, err := admin.Issue(ctx, client.IssueRequest{ItemID: "ERR-1", Units: units(t, "100"), WID: 1, ReasonCode: 20})
		apiErr := wantAPIError(t, err, 409, stockroom.ECONFLICT)
		if apiErr.Message != "Insufficient stock: 100 units requested, 40 available." {
			t.Fatalf("message %q", apiErr.Message)
		}
		if got := level(t, admin, "ERR-1", 1).InStock; got != units(t, "40") {
			t.Fatalf("the refused issue changed the stock to %s", got)
		}
	})
	t.Run("DuplicateShortIDIsAConflict", func(t *testing.T) {
		_, err := admin.CreateItem(ctx, client.ItemInput{ShortID: "err-1"})
		wantAPIError(t, err, 409, stockroom.ECONFLICT)
	})
	t.Run("UnknownItemIsNotFound", func(t *testing.T) {
		_, err := admin.FindItemByShortID(ctx, "NO-SUCH-ITEM")
		wantAPIError(t, err, 404, stockroom.ENOTFOUND)
		_, err = admin.GetTransaction(ctx, 999999)
		wantAPIError(t, err, 404, stockroom.ENOTFOUND)
	})
	t.Run("ForbiddenMessagesTellTheCause", func(t *testing.T) {
		scoped := s.clientWith(t, service.NewClient{Permissions: stockroom.AllPermissions, Scope: stockroom.Scope{IDs: []int64{1}}})
		_, err := scoped.Receive(ctx, client.ReceiveRequest{ItemID: "ERR-1", Units: units(t, "1"), WID: 2, ReasonCode: 1})
		if apiErr := wantAPIError(t, err, 403, stockroom.EFORBIDDEN); apiErr.Message != stockroom.MsgOutOfScope {
			t.Fatalf("out of scope: %q", apiErr.Message)
		}
		reader := s.clientWith(t, service.NewClient{Permissions: []stockroom.Permission{stockroom.PermItemRead}, Scope: stockroom.Scope{All: true}})
		_, err = reader.Receive(ctx, client.ReceiveRequest{ItemID: "ERR-1", Units: units(t, "1"), WID: 1, ReasonCode: 1})
		if apiErr := wantAPIError(t, err, 403, stockroom.EFORBIDDEN); apiErr.Message != stockroom.MsgNoPermission {
			t.Fatalf("without permission: %q", apiErr.Message)
		}
		readOnly := s.clientWith(t, service.NewClient{Permissions: stockroom.AllPermissions, Scope: stockroom.Scope{All: true}, ReadOnly: true})
		_, err = readOnly.CreateItem(ctx, client.ItemInput{ShortID: "ERR-2"})
		if apiErr := wantAPIError(t, err, 403, stockroom.EFORBIDDEN); apiErr.Message != stockroom.MsgReadOnly {
			t.Fatalf("read-only account: %q", apiErr.Message)
		}
	})
}

// TestNew proves a mistaken configuration is reported by New, before any
// request, and that the /api/v1 prefix may be given or left out.
func TestNew(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"", "stockroom.example.com", "ftp://host/", "http://host/api/v1?x=1"} {
		if _, err := client.New(bad, "id", "secret"); err == nil {
			t.Errorf("New(%q) accepted", bad)
		}
	}
	if _, err := client.New("http://host", "", ""); err == nil {
		t.Error("New without credentials accepted")
	}
	s := newServer(t, serverConfig{})
	for _, base := range []string{s.url, s.url + "/", s.url + "/api/v1", s.url + "/api/v1/"} {
		listWarehouses(t, newClient(t, base, s.adminID, s.adminSecret))
	}
}

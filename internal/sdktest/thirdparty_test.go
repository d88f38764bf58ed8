package sdktest_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/testdb"
)

// The third-party logistics story through the SDK: two customers' stock of
// the same item in the same bin, beside the house's.
const (
	custA int64 = 7 // ShortID "C-7"
	custB int64 = 8 // ShortID "C-8"
)

// addCustomer stores a customer as POST /Customer would, ShortID "C-<id>".
func (s *testServer) addCustomer(t *testing.T, id int64) {
	t.Helper()
	err := s.db.ExecForTest(context.Background(), fmt.Sprintf(`
		INSERT INTO parties (id, kind, short_id, short_id_key, name, address1, address2, city, state, zip,
			country, phone, fax, email, contact, active, created, modified)
		VALUES (%d, 'customer', 'C-%d', 'c-%d', 'Customer %d', '', '', '', '', '', '', '', '', '', '', TRUE, 0, 0)`, id, id, id, id))
	if err != nil {
		t.Fatalf("add customer %d: %v", id, err)
	}
}

// wantCode fails unless err is an *client.Error with the status and code.
func wantCode(t *testing.T, what string, err error, status int, code string) {
	t.Helper()
	var e *client.Error
	if !errors.As(err, &e) || e.StatusCode != status || e.Code != code {
		t.Errorf("%s: %v, want %d %s", what, err, status, code)
	}
}

// owner returns a reference to a customer by id.
func owner(id int64) *stockroom.OwnerRef { return &stockroom.OwnerRef{ID: id} }

func TestThirdPartyLogistics(t *testing.T) {
	for _, engine := range testdb.Engines(t) {
		t.Run(engine, func(t *testing.T) { thirdPartyStory(t, newServer(t, serverConfig{engine: engine})) })
	}
}

// thirdParty is the story's state: the two items, and the recNos and
// transaction ids of owner B that a client limited to A must never reach.
type thirdParty struct {
	sku, skuOfB string // skuOfB has dfltOwner B
	lotsOfB     []int64
	txOfB       []int64
}

func thirdPartyStory(t *testing.T, s *testServer) {
	ctx := context.Background()
	admin := s.admin(t)
	s.addWarehouse(t, 2, "Overflow")
	s.addCustomer(t, custA)
	s.addCustomer(t, custB)
	tp := thirdParty{sku: unique("3PL"), skuOfB: unique("3PL-B")}
	mustCreateItem(t, admin, tp.sku)
	mustCreateItem(t, admin, tp.skuOfB)
	if _, err := admin.UpdateItem(ctx, client.ItemInput{ShortID: tp.skuOfB, DfltOwner: new(custB)}); err != nil {
		t.Fatal(err)
	}
	// One bin, three owners: A (by id), B (by ShortID) and the house.
	for _, r := range []struct {
		owner *stockroom.OwnerRef
		units string
	}{{owner(custA), "3"}, {&stockroom.OwnerRef{ShortID: "C-8"}, "10"}, {owner(stockroom.HouseOwner), "4"}} {
		res, err := admin.Receive(ctx, client.ReceiveRequest{ItemID: tp.sku, Units: units(t, r.units), WID: 1, ReasonCode: 1, Spot: "BIN-1", Owner: r.owner})
		if err != nil {
			t.Fatal(err)
		}
		if res.Lot.Owner == custB {
			tp.lotsOfB, tp.txOfB = append(tp.lotsOfB, res.RecNo), append(tp.txOfB, res.TransactionID)
		}
	}
	res, err := admin.Receive(ctx, client.ReceiveRequest{ItemID: tp.skuOfB, Units: units(t, "6"), WID: 1, ReasonCode: 1, Spot: "BIN-1"})
	if err != nil || res.Lot.Owner != custB || res.Lot.Associate != "Customer 8" {
		t.Fatalf("receive without owner of an item whose dfltOwner is B: %+v, %v", res, err)
	}
	tp.lotsOfB, tp.txOfB = append(tp.lotsOfB, res.RecNo), append(tp.txOfB, res.TransactionID)

	t.Run("IssueTakesOneOwnersUnits", func(t *testing.T) { issueForOneOwner(t, s, admin, &tp) })
	t.Run("ClientLimitedToASeesNothingOfB", func(t *testing.T) { limitedSeesOwnOnly(t, s, admin, tp) })
}

// issueForOneOwner: an issue for A never takes B's units, even when A is
// short and B has plenty; moves keep their owner.
func issueForOneOwner(t *testing.T, s *testServer, admin *client.Client, tp *thirdParty) {
	ctx := context.Background()
	_, err := admin.Issue(ctx, client.IssueRequest{ItemID: tp.sku, Units: units(t, "5"), WID: 1, ReasonCode: 20, Spot: "BIN-1", Owner: owner(custA)})
	wantCode(t, "issue of 5 for A, who has 3, beside B's 10", err, 409, stockroom.ECONFLICT)
	res, err := admin.Issue(ctx, client.IssueRequest{ItemID: tp.sku, Units: units(t, "2"), WID: 1, ReasonCode: 20, Owner: owner(custA)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Owner != custA {
		t.Errorf("issue for A answered owner %d", res.Owner)
	}
	for _, l := range res.Lines {
		if lot := findLot(t, admin, l.RecNo); lot.Owner != custA {
			t.Errorf("issue for A drew lot %d of owner %d", l.RecNo, lot.Owner)
		}
	}
	mv, err := admin.Move(ctx, client.MoveRequest{ItemID: tp.sku, Units: units(t, "4"), WID: 1, ShipToWID: 2, ToSpot: new("BIN-9"), Owner: &stockroom.OwnerRef{ShortID: "c-8"}})
	if err != nil {
		t.Fatal(err)
	}
	tp.txOfB = append(tp.txOfB, mv.TransactionID)
	for _, l := range mv.Lines {
		tp.lotsOfB = append(tp.lotsOfB, l.SplitRecNo())
	}
	if _, err := admin.Hold(ctx, tp.lotsOfB[0]); err != nil {
		t.Fatal(err)
	}
	want := map[int64][3]string{ // owner -> inStock in warehouses 1 and 2, onHold in 1
		custA:                {"1", "0", "0"},
		custB:                {"6", "4", "6"},
		stockroom.HouseOwner: {"4", "0", "0"},
	}
	for o, w := range want {
		for i, wid := range []int64{1, 2} {
			if l := ownerLevel(t, admin, tp.sku, wid, o); l.InStock != units(t, w[i]) {
				t.Errorf("owner %d in warehouse %d: inStock %s, want %s", o, wid, l.InStock, w[i])
			}
		}
		if l := ownerLevel(t, admin, tp.sku, 1, o); l.OnHold != units(t, w[2]) {
			t.Errorf("owner %d in warehouse 1: onHold %s, want %s", o, l.OnHold, w[2])
		}
	}
	if l := level(t, admin, tp.sku, 0); l.InStock != units(t, "15") {
		t.Errorf("the sum over owners is %s, want 15", l.InStock)
	}
	if found, err := s.svc.Audit(ctx); err != nil || len(found) > 0 {
		t.Errorf("audit: %v %v", found, err)
	}
}

// ownerLevel returns one owner's level of an item (wid 0: summed over
// warehouses), zero when it has none.
func ownerLevel(t *testing.T, c *client.Client, sku string, wid, o int64) stockroom.StockLevel {
	t.Helper()
	p, err := c.ListStockLevels(context.Background(), client.StockLevelListOptions{WID: wid, ItemID: sku, Owner: owner(o)})
	if err != nil {
		t.Fatalf("levels of %s for owner %d: %v", sku, o, err)
	}
	if len(p.Value) == 0 {
		return stockroom.StockLevel{}
	}
	return p.Value[0]
}

// findLot finds a lot by recNo among every lot, shipped ones too.
func findLot(t *testing.T, c *client.Client, recNo int64) stockroom.Lot {
	t.Helper()
	for l, err := range c.Lots(context.Background(), client.LotListOptions{IncludeShipped: true}) {
		if err != nil {
			t.Fatal(err)
		}
		if l.RecNo == recNo {
			return l
		}
	}
	t.Fatalf("no lot %d", recNo)
	return stockroom.Lot{}
}

// limitedSeesOwnOnly: a client limited to owner A sees nothing of B in any
// list, total, sum or single read, and may write nothing for B.
func limitedSeesOwnOnly(t *testing.T, s *testServer, admin *client.Client, tp thirdParty) {
	ctx := context.Background()
	limited := s.clientWith(t, service.NewClient{Permissions: stockroom.AllPermissions, Scope: stockroom.Scope{All: true},
		Owners: &stockroom.Scope{IDs: []int64{custA}}})
	for _, opts := range []client.LotListOptions{{}, {WID: 1}, {WID: 2}, {IncludeShipped: true}, {ItemID: tp.sku, Spot: new("BIN-1")}} {
		got, total := walkAll(t, limited.Lots(ctx, opts)), firstPage(t, limited.ListLots, opts).TotalCount
		asA := opts
		asA.Owner = owner(custA)
		want := walkAll(t, admin.Lots(ctx, asA))
		if len(got) != len(want) || total != int64(len(want)) {
			t.Errorf("lots %+v: the limited client sees %d (totalCount %d), owner A has %d", opts, len(got), total, len(want))
		}
		for _, l := range got {
			if l.Owner != custA {
				t.Errorf("lots %+v: the limited client sees lot %d of owner %d", opts, l.RecNo, l.Owner)
			}
		}
	}
	for _, opts := range []client.StockLevelListOptions{{}, {WID: 1}, {WID: 2}, {IncludeZero: true}, {WID: 1, IncludeZero: true}, {ItemID: tp.skuOfB, IncludeZero: true}} {
		got, total := walkAll(t, limited.StockLevels(ctx, opts)), firstPage(t, limited.ListStockLevels, opts).TotalCount
		asA := opts
		asA.Owner = owner(custA)
		want := walkAll(t, admin.StockLevels(ctx, asA))
		if total != int64(len(want)) || fmt.Sprint(figures(got)) != fmt.Sprint(figures(want)) {
			t.Errorf("levels %+v: the limited client sees %v (totalCount %d), owner A has %v", opts, figures(got), total, figures(want))
		}
	}
	if l := level(t, limited, tp.sku, 0); l.InStock != units(t, "1") || !l.OnHold.IsZero() {
		t.Errorf("the limited client's sum: inStock %s onHold %s, want A's 1 and 0", l.InStock, l.OnHold)
	}
	txs := walkAll(t, limited.Transactions(ctx, client.TransactionListOptions{}))
	wantTxs := walkAll(t, admin.Transactions(ctx, client.TransactionListOptions{Owner: owner(custA)}))
	if total := firstPage(t, limited.ListTransactions, client.TransactionListOptions{}).TotalCount; len(txs) != len(wantTxs) || total != int64(len(wantTxs)) {
		t.Errorf("ledger: the limited client sees %d entries (totalCount %d), owner A has %d", len(txs), total, len(wantTxs))
	}
	for _, tx := range txs {
		if tx.Owner != custA {
			t.Errorf("ledger: the limited client sees transaction %d of owner %d", tx.ID, tx.Owner)
		}
	}
	for _, id := range tp.txOfB {
		_, err := limited.GetTransaction(ctx, id)
		wantCode(t, fmt.Sprintf("transaction %d of B", id), err, 404, stockroom.ENOTFOUND)
	}
	for _, recNo := range tp.lotsOfB {
		_, err := limited.Hold(ctx, recNo)
		wantCode(t, fmt.Sprintf("hold of B's lot %d", recNo), err, 404, stockroom.ENOTFOUND)
		_, err = limited.Release(ctx, recNo)
		wantCode(t, fmt.Sprintf("release of B's lot %d", recNo), err, 404, stockroom.ENOTFOUND)
	}
	limitedWritesForB(t, limited, tp)
	// B's item is not found, as one that does not exist.
	for _, o := range []*stockroom.OwnerRef{nil, owner(custA)} {
		_, err := limited.Receive(ctx, client.ReceiveRequest{ItemID: tp.skuOfB, Units: units(t, "1"), WID: 1, ReasonCode: 1, Spot: "BIN-1", Owner: o})
		wantCode(t, fmt.Sprintf("receive of B's item for owner %v", o), err, 404, stockroom.ENOTFOUND)
		_, err = limited.Issue(ctx, client.IssueRequest{ItemID: tp.skuOfB, Units: units(t, "1"), WID: 1, ReasonCode: 20, Owner: o})
		wantCode(t, fmt.Sprintf("issue of B's item for owner %v", o), err, 404, stockroom.ENOTFOUND)
		_, err = limited.Move(ctx, client.MoveRequest{ItemID: tp.skuOfB, Units: units(t, "1"), WID: 1, ToSpot: new("BIN-2"), Owner: o})
		wantCode(t, fmt.Sprintf("move of B's item for owner %v", o), err, 404, stockroom.ENOTFOUND)
	}
	if l := ownerLevel(t, admin, tp.sku, 1, custB); l.InStock != units(t, "6") || l.OnHold != units(t, "6") {
		t.Errorf("B's level after the refusals: inStock %s onHold %s, want 6 and 6", l.InStock, l.OnHold)
	}
}

// limitedWritesForB: every write for B, named, and every ?owner=B, is 403.
func limitedWritesForB(t *testing.T, limited *client.Client, tp thirdParty) {
	ctx := context.Background()
	forbidden := func(what string, err error) {
		t.Helper()
		wantCode(t, what, err, 403, stockroom.EFORBIDDEN)
		if e := (*client.Error)(nil); errors.As(err, &e) && e.Message != stockroom.MsgOwnerOutOfScope {
			t.Errorf("%s: message %q", what, e.Message)
		}
	}
	for _, w := range []struct {
		sku   string
		owner *stockroom.OwnerRef
	}{{tp.sku, owner(custB)}, {tp.sku, &stockroom.OwnerRef{ShortID: "C-8"}}, {tp.skuOfB, owner(custB)}} {
		what := fmt.Sprintf("%s for owner %v", w.sku, w.owner)
		_, err := limited.Receive(ctx, client.ReceiveRequest{ItemID: w.sku, Units: units(t, "1"), WID: 1, ReasonCode: 1, Spot: "BIN-1", Owner: w.owner})
		forbidden("receive of "+what, err)
		_, err = limited.Issue(ctx, client.IssueRequest{ItemID: w.sku, Units: units(t, "1"), WID: 1, ReasonCode: 20, Owner: w.owner})
		forbidden("issue of "+what, err)
		_, err = limited.Move(ctx, client.MoveRequest{ItemID: w.sku, Units: units(t, "1"), WID: 1, ToSpot: new("BIN-2"), Owner: w.owner})
		forbidden("move of "+what, err)
	}
	for _, o := range []*stockroom.OwnerRef{owner(custB), {ShortID: "C-8"}, owner(stockroom.HouseOwner)} {
		_, err := limited.ListLots(ctx, client.LotListOptions{Owner: o})
		forbidden(fmt.Sprintf("lots of owner %v", o), err)
		_, err = limited.ListLots(ctx, client.LotListOptions{WID: 1, Owner: o})
		forbidden(fmt.Sprintf("lots of warehouse 1 of owner %v", o), err)
		_, err = limited.ListStockLevels(ctx, client.StockLevelListOptions{Owner: o})
		forbidden(fmt.Sprintf("levels of owner %v", o), err)
		_, err = limited.ListStockLevels(ctx, client.StockLevelListOptions{WID: 1, Owner: o})
		forbidden(fmt.Sprintf("levels in warehouse 1 of owner %v", o), err)
		_, err = limited.ListTransactions(ctx, client.TransactionListOptions{Owner: o})
		forbidden(fmt.Sprintf("ledger of owner %v", o), err)
	}
}

// walkAll collects what an iterator yields.
func walkAll[T any](t *testing.T, seq func(func(T, error) bool)) []T {
	t.Helper()
	var out []T
	for v, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// firstPage reads the first page of a list.
func firstPage[O, T any](t *testing.T, list func(context.Context, O) (*client.Page[T], error), opts O) *client.Page[T] {
	t.Helper()
	p, err := list(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// figures are the levels as a client compares them: item and figures.
func figures(ls []stockroom.StockLevel) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = fmt.Sprintf("%s:%s/%s/%s", l.ShortID, l.InStock, l.OnHold, l.Available)
	}
	return out
}

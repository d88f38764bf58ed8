package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/testdb"
)

// batchAnswer is a batch's answer as a client reads it.
type batchAnswer struct {
	Atomic  bool
	Results []struct {
		Status int
		Body   json.RawMessage
	}
}

// postBatch sends a batch of ops (atomic unless told otherwise) with the
// given headers.
func (a *api) postBatch(t *testing.T, tok string, atomic *bool, ops []map[string]any, headers ...string) response {
	t.Helper()
	body := map[string]any{"operations": ops}
	if atomic != nil {
		body["atomic"] = *atomic
	}
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return a.doBody(t, "POST", "/api/v1/Inventory/Batch", string(b),
		append([]string{"Authorization", "Bearer " + tok, "Content-Type", "application/json"}, headers...)...)
}

// eventCount is how many events the client sees.
func (a *api) eventCount(t *testing.T, tok string) int {
	t.Helper()
	// On PostgreSQL an event is readable once every older transaction of
	// the server has ended, other packages' tests' among them: counted
	// before that, a change made before the count would seem to come
	// after it.
	testdb.SettleFeed(t, a.db)
	return len(decode[stockroom.EventPage](t, a.get(t, "/api/v1/Events?limit=1000", tok)).Value)
}

// everything is what a refused batch must leave as it was: every lot, the
// levels, the ledger's size and the events.
func (a *api) everything(t *testing.T, tok string) string {
	t.Helper()
	lots, ledger := a.stockState(t, tok)
	levels := a.get(t, "/api/v1/Inventory/StockLevels?includeZero=true", tok)
	return fmt.Sprintf("%s\n%s\nledger %d, events %d", lots, levels.body, ledger, a.eventCount(t, tok))
}

func op(name string, fields map[string]any) map[string]any {
	fields["op"] = name
	return fields
}

var notAtomic = new(bool)

// TestBatchAtomicRefusalChangesNothing: an atomic batch whose third
// operation is short of stock (by the move before it) is refused with that operation's 409, placed
// at it, and leaves lots, levels, ledger and events as they were; without
// it, the same batch is carried out in full, each operation seeing the ones
// before it.
func TestBatchAtomicRefusalChangesNothing(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		lot := a.mustPost(t, tok, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 5, "wid": 1, "reasonCode": 1}, 201)["recNo"]
		ops := func(issue int) []map[string]any {
			return []map[string]any{
				op("receive", map[string]any{"itemID": "ITEM-A", "units": 10, "wid": 1, "reasonCode": 1}),
				op("move", map[string]any{"itemID": "ITEM-A", "units": 2, "wid": 1, "shipToWid": 2, "toSpot": "R"}),
				op("issue", map[string]any{"itemID": "ITEM-A", "units": issue, "wid": 2, "reasonCode": 20}),
				op("hold", map[string]any{"recno": lot}),
			}
		}
		before := a.everything(t, tok)
		r := a.postBatch(t, tok, nil, ops(3))
		e := wantError(t, r, 409, stockroom.ECONFLICT)
		details, _ := e["details"].(map[string]any)
		if msgs, _ := details["operations[2]"].([]any); len(msgs) != 1 || msgs[0] != e["message"] || len(details) != 1 {
			t.Fatalf("refusal's details %v, want operations[2] with its message %q", details, e["message"])
		}
		if after := a.everything(t, tok); after != before {
			t.Fatalf("a refused atomic batch changed something:\n%s\n---\n%s", before, after)
		}
		// A field's problem is named at its operation.
		r = a.postBatch(t, tok, nil, append(ops(1), op("receive", map[string]any{"itemID": "ITEM-A", "units": -1, "wid": 1, "reasonCode": 1})))
		if got := detailFields(wantError(t, r, 400, stockroom.EINVALID)); strings.Join(got, ",") != "operations[4],operations[4].units" {
			t.Fatalf("validation refusal names %v", got)
		}
		a.auditClean(t)

		res := decode[batchAnswer](t, a.postBatch(t, tok, nil, ops(2)))
		if !res.Atomic || len(res.Results) != 4 || res.Results[0].Status != 201 || res.Results[3].Status != 200 {
			t.Fatalf("atomic batch: %+v", res)
		}
		if l1, l2 := a.levelOf(t, tok, "ITEM-A", 1), a.levelOf(t, tok, "ITEM-A", 2); l1.InStock != stockroom.Whole(13) || l1.OnHold != stockroom.Whole(3) || l2.InStock.Sign() != 0 {
			t.Fatalf("levels after the batch: %+v %+v", l1, l2)
		}
		a.auditClean(t)
	})
}

// timeFields are the fields of an answer that say when it was made.
var timeFields = regexp.MustCompile(`"(received|modified|shipped)":"[^"]*"`)

// TestBatchNotAtomicAnswersAsEndpoints: the operations of a batch that is
// not atomic answer exactly what the same requests answer one by one, on a
// database of the same history, refusals included.
func TestBatchNotAtomicAnswersAsEndpoints(t *testing.T) {
	eachEngine(t, func(t *testing.T, single *api) {
		batch := newAPI(t, t.Name()[strings.LastIndex(t.Name(), "/")+1:]) // the same engine
		ops := []map[string]any{
			op("receive", map[string]any{"itemID": "ITEM-A", "units": 10, "wid": 1, "reasonCode": 1, "spot": "S"}),
			op("issue", map[string]any{"itemID": "ITEM-A", "units": 11, "wid": 1, "reasonCode": 20}),
			op("issue", map[string]any{"itemID": "ITEM-A", "units": 4, "wid": 1, "reasonCode": 20}),
			op("move", map[string]any{"itemID": "ITEM-A", "units": 2, "wid": 1, "shipToWid": 2, "toSpot": "R"}),
			op("receive", map[string]any{"itemID": "NO-SUCH", "units": 1, "wid": 1, "reasonCode": 1}),
			op("receive", map[string]any{"itemID": "ITEM-B", "units": "x", "wid": 1, "reasonCode": 99}),
			op("hold", map[string]any{"recno": 1}),
			op("release", map[string]any{"recno": 1}),
			op("release", map[string]any{"recno": 1}),
			op("hold", map[string]any{"recno": 99}),
		}
		tokS, tokB := stockAPI(t, single), stockAPI(t, batch)
		res := decode[batchAnswer](t, batch.postBatch(t, tokB, notAtomic, ops))
		if res.Atomic || len(res.Results) != len(ops) {
			t.Fatalf("answer: %+v", res)
		}
		paths := map[string]string{"receive": "Receive", "issue": "Issue", "move": "Move", "hold": "Hold", "release": "Release"}
		for i, o := range ops {
			name := o["op"].(string)
			delete(o, "op")
			r := single.send(t, "POST", "/api/v1/Inventory/"+paths[name], tokS, o)
			got := timeFields.ReplaceAllString(string(res.Results[i].Body), "")
			want := timeFields.ReplaceAllString(strings.TrimSpace(string(r.body)), "")
			if res.Results[i].Status != r.status || got != want {
				t.Errorf("operation %d (%s): batch %d %s\nendpoint %d %s", i, name, res.Results[i].Status, got, r.status, want)
			}
		}
		batch.auditClean(t)
	})
}

// TestBatchOfAThousand: 1,000 receipts in one request, all or nothing, and
// a thousand and one refused.
func TestBatchOfAThousand(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		ops := make([]map[string]any, stockroom.MaxBatchOperations+1)
		for i := range ops {
			ops[i] = op("receive", map[string]any{"itemID": []string{"ITEM-A", "ITEM-B"}[i%2], "units": 1, "wid": 1 + i%2, "reasonCode": 1})
		}
		wantError(t, a.postBatch(t, tok, nil, ops), 400, stockroom.EINVALID)
		res := decode[batchAnswer](t, a.postBatch(t, tok, nil, ops[:stockroom.MaxBatchOperations]))
		if len(res.Results) != stockroom.MaxBatchOperations {
			t.Fatalf("%d results", len(res.Results))
		}
		if la, lb := a.levelOf(t, tok, "ITEM-A", 1), a.levelOf(t, tok, "ITEM-B", 2); la.InStock != stockroom.Whole(500) || lb.InStock != stockroom.Whole(500) {
			t.Fatalf("levels %+v %+v", la, lb)
		}
		if n := a.ledgerSize(t, tok); n != stockroom.MaxBatchOperations {
			t.Fatalf("ledger holds %d entries", n)
		}
		a.auditClean(t)
	})
}

// TestBatchPermissionAndScopePerOperation: each operation needs its own
// endpoint's permission and scope; the batch itself only a token that may
// write.
func TestBatchPermissionAndScopePerOperation(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		admin := stockAPI(t, a)
		a.mustPost(t, admin, "/api/v1/Inventory/Receive", map[string]any{"itemID": "ITEM-A", "units": 5, "wid": 1, "reasonCode": 1}, 201)
		noIssue := a.clientToken(t, false, stockroom.PermItemRead, stockroom.PermReceive, stockroom.PermMove)
		ops := []map[string]any{
			op("receive", map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "reasonCode": 1}),
			op("issue", map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 1, "reasonCode": 20}),
		}
		before := a.everything(t, admin)
		e := wantError(t, a.postBatch(t, noIssue, nil, ops), 403, stockroom.EFORBIDDEN)
		if e["message"] != stockroom.MsgNoPermission || detailFields(e)[0] != "operations[1]" {
			t.Fatalf("refusal %v", e)
		}
		if a.everything(t, admin) != before {
			t.Fatal("a batch refused for a permission changed something")
		}
		res := decode[batchAnswer](t, a.postBatch(t, noIssue, notAtomic, ops))
		if res.Results[0].Status != 201 || res.Results[1].Status != 403 || !strings.Contains(string(res.Results[1].Body), stockroom.MsgNoPermission) {
			t.Fatalf("not atomic: %+v", res)
		}

		id, secret := a.addClient(t, service.NewClient{Permissions: []stockroom.Permission{stockroom.PermItemRead, stockroom.PermReceive}, Scope: stockroom.Scope{IDs: []int64{1}}})
		scoped := a.token(t, id, secret)
		ops[1] = op("receive", map[string]any{"itemID": "ITEM-A", "units": 1, "wid": 2, "reasonCode": 1})
		e = wantError(t, a.postBatch(t, scoped, nil, ops), 403, stockroom.EFORBIDDEN)
		if e["message"] != stockroom.MsgOutOfScope || detailFields(e)[0] != "operations[1]" {
			t.Fatalf("scope refusal %v", e)
		}
		readOnly := a.clientToken(t, true, stockroom.PermItemRead, stockroom.PermReceive)
		wantError(t, a.postBatch(t, readOnly, nil, ops[:1]), 403, stockroom.EFORBIDDEN)
		a.auditClean(t)
	})
}

// TestBatchIdempotentReplay: a repeat of a keyed batch, atomic or not,
// gets the first answer again and changes nothing; the key with another
// batch is 422.
func TestBatchIdempotentReplay(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		ops := []map[string]any{
			op("receive", map[string]any{"itemID": "ITEM-A", "units": 3, "wid": 1, "reasonCode": 1}),
			op("issue", map[string]any{"itemID": "ITEM-A", "units": 50, "wid": 1, "reasonCode": 20}),
		}
		for _, atomic := range []*bool{nil, notAtomic} {
			key := fmt.Sprint("batch-", atomic == nil)
			ops := ops
			if atomic == nil {
				ops = ops[:1]
			}
			first := a.postBatch(t, tok, atomic, ops, "Idempotency-Key", key)
			ledger := a.ledgerSize(t, tok)
			again := a.postBatch(t, tok, atomic, ops, "Idempotency-Key", key)
			if first.status != 200 || again.status != 200 || string(first.body) != string(again.body) || again.header.Get("Idempotent-Replayed") != "true" {
				t.Fatalf("atomic %v: first %d %s, repeat %d %s", atomic == nil, first.status, first.body, again.status, again.body)
			}
			if a.ledgerSize(t, tok) != ledger {
				t.Fatal("a replayed batch changed the ledger")
			}
			other := []map[string]any{op("receive", map[string]any{"itemID": "ITEM-B", "units": 1, "wid": 1, "reasonCode": 1})}
			wantError(t, a.postBatch(t, tok, atomic, other, "Idempotency-Key", key), 422, stockroom.EIDEMPOTENCY)
		}
		a.auditClean(t)
	})
}

// TestBatchStrictNestedFields: unknown fields of an operation are named at
// their place in the batch, and refused under handling=strict.
func TestBatchStrictNestedFields(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		ops := []map[string]any{
			op("receive", map[string]any{"itemID": "ITEM-A", "units": 3, "wid": 1, "reasonCode": 1}),
			op("receive", map[string]any{"itemID": "ITEM-A", "units": 3, "wid": 1, "reasonCode": 1, "colour": "red"}),
		}
		r := a.postBatch(t, tok, nil, ops)
		if r.status != 200 || r.header.Get("Stockroom-Ignored-Fields") != "operations[1].colour" {
			t.Fatalf("lenient: %d %q %s", r.status, r.header.Get("Stockroom-Ignored-Fields"), r.body)
		}
		before := a.everything(t, tok)
		e := wantError(t, a.postBatch(t, tok, nil, ops, "Prefer", "handling=strict"), 400, stockroom.EINVALID)
		if got := strings.Join(detailFields(e), ","); got != "operations[1],operations[1].colour" {
			t.Fatalf("strict refusal names %s", got)
		}
		if a.everything(t, tok) != before {
			t.Fatal("a strict refusal changed something")
		}
	})
}

// TestConcurrentBatchesAndSingles: atomic and non-atomic batches and single
// requests on the same lots, at once; the audit finds nothing.
func TestConcurrentBatchesAndSingles(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		items := []string{"ITEM-A", "ITEM-B"}
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Go(func() {
				for n := range 6 {
					it, other := items[(w+n)%2], items[(w+n+1)%2]
					ops := []map[string]any{
						op("receive", map[string]any{"itemID": it, "units": 4, "wid": 1, "reasonCode": 1}),
						op("move", map[string]any{"itemID": it, "units": 3, "wid": 1, "shipToWid": 2, "toSpot": "M"}),
						op("receive", map[string]any{"itemID": other, "units": 2, "wid": 2, "reasonCode": 1}),
						op("issue", map[string]any{"itemID": other, "units": 3, "wid": 2, "reasonCode": 20}),
					}
					switch w % 3 {
					case 0:
						a.postBatch(t, tok, nil, ops)
					case 1:
						a.postBatch(t, tok, notAtomic, ops)
					default:
						for _, o := range ops {
							name := o["op"].(string)
							delete(o, "op")
							a.send(t, "POST", "/api/v1/Inventory/"+strings.ToUpper(name[:1])+name[1:], tok, o)
						}
					}
				}
			})
		}
		wg.Wait()
		a.auditClean(t)
	})
}

// TestBatchGroupedReceiptRefusal: consecutive receipts of an atomic batch
// go to the store together; one the store refuses (a warehouse made
// inactive) is still named at its own operation, and nothing changes.
func TestBatchGroupedReceiptRefusal(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		if _, err := a.svc.UpdateWarehouse(context.Background(), service.Operator, 2, stockroom.WarehouseChange{Active: new(false)}); err != nil {
			t.Fatal(err)
		}
		receipt := func(wid int) map[string]any {
			return op("receive", map[string]any{"itemID": "ITEM-A", "units": 1, "wid": wid, "reasonCode": 1})
		}
		before := a.everything(t, tok)
		r := a.postBatch(t, tok, nil, []map[string]any{receipt(1), receipt(1), receipt(2), receipt(1)})
		e := wantError(t, r, 409, stockroom.ECONFLICT)
		if got := detailFields(e); strings.Join(got, ",") != "operations[2]" || !strings.Contains(e["message"].(string), "Warehouse 2 is inactive") {
			t.Fatalf("refusal %v names %v", e["message"], got)
		}
		if after := a.everything(t, tok); after != before {
			t.Fatalf("a refused atomic batch changed something:\n%s\n---\n%s", before, after)
		}
		r = a.postBatch(t, tok, nil, []map[string]any{receipt(1), receipt(1), receipt(1)})
		if r.status != 200 {
			t.Fatalf("three receipts: %d %s", r.status, r.body)
		}
		a.auditClean(t)
	})
}

package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"sync"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/mixtest"
	"github.com/stockroom/stockroom/internal/service"
)

// The HTTP concurrency test: workers that each mix receives, issues, moves
// (within a warehouse, across, and of a lot named by recno), holds and
// releases over three items and three warehouses all of them share, so they
// contend for the same lots, draw moved stock again, and meet short stock.

// httpOp is one kind of request in the mix, with how often it is picked.
type httpOp struct {
	name   string
	path   string
	weight int
}

var httpOps = []httpOp{
	{"receive", "Receive", 30},
	{"issue", "Issue", 22},
	{"move across warehouses", "Move", 14},
	{"move within a warehouse", "Move", 8},
	{"move by recno", "Move", 8},
	{"hold", "Hold", 10},
	{"release", "Release", 8},
}

func pickHTTPOp(rng *rand.Rand) httpOp {
	total := 0
	for _, op := range httpOps {
		total += op.weight
	}
	n := rng.IntN(total)
	for _, op := range httpOps {
		if n < op.weight {
			return op
		}
		n -= op.weight
	}
	panic("unreachable")
}

// stockAnswer is the body of a successful stock request, of any kind.
type stockAnswer struct {
	TransactionID *int64
	RecNo         int64
	Lot           stockroom.Lot
	ToWID         *int64 `json:"toWid"`
	Lines         []struct {
		RecNo    int64
		NewRecNo *int64
	}
}

// httpOutcome is what one request got.
type httpOutcome struct {
	ref       string // the request's reference; empty for holds, which carry none
	op        string
	ok        bool
	txID      int64 // 0 for a refusal or a hold that changed nothing
	drewMoved bool  // an issue that drew from a lot that had been moved
	short     bool  // refused for short stock while some was available
}

// someAvailable matches a short-stock refusal that found some stock, not
// none: contention, not an empty shelf.
var someAvailable = regexp.MustCompile(`[1-9][0-9.]* available`)

// httpMix is what the workers share: the owners whose stock they change
// (none: requests name no owner, and all stock is the house's), the known
// lots (where each was last seen and whose it is), the outcomes, the net of
// the successes per owner, item and warehouse, and any draw that took a lot
// of another owner than the request's.
type httpMix struct {
	owners   []int64
	mu       sync.Mutex
	lots     mixtest.Lots[mixLot]
	outcomes []httpOutcome
	net      map[mixKey]stockroom.Units
	foreign  []string
}

func newHTTPMix(owners ...int64) *httpMix {
	return &httpMix{owners: owners, net: map[mixKey]stockroom.Units{}}
}

// mixKey is an owner's stock of an item (its index) in a warehouse.
type mixKey struct {
	owner int64
	item  int
	wid   int64
}

// mixLot is a lot as last seen: whose, which item, where.
type mixLot = mixKey

// someLot picks a known lot (mixtest.Lots.Pick).
func (m *httpMix) someLot(rng *rand.Rand, release bool) (recNo int64, l mixLot, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.lots.Pick(rng, release)
}

// checkDrawn notes each line of a draw for owner that took a known lot of
// another owner.
func (m *httpMix) checkDrawn(what string, owner int64, recNos []int64) {
	for _, r := range recNos {
		if l, ok := m.lots.At(r); ok && l.owner != owner {
			m.foreign = append(m.foreign, fmt.Sprintf("%s for owner %d drew lot %d of owner %d", what, owner, r, l.owner))
		}
	}
}

// TestConcurrentStockOverHTTP runs the mix, then proves the outcome exact:
// each success is in the ledger once (found by its unique reference, or for
// holds by its transaction id), no refusal left a trace, the levels are the
// net of the successful responses, and the audit finds nothing.
func TestConcurrentStockOverHTTP(t *testing.T) {
	eachEngine(t, func(t *testing.T, a *api) {
		tok := stockAPI(t, a)
		if err := a.svc.AddWarehouse(context.Background(), service.Operator, stockroom.Warehouse{ID: 3, Name: "Third"}); err != nil {
			t.Fatal(err)
		}
		a.createItem(t, tok, map[string]any{"shortID": "ITEM-C"})
		items := []string{"ITEM-A", "ITEM-B", "ITEM-C"}
		m := newHTTPMix()
		a.runMix(t, tok, m, items, 16, 50, 20)
		if t.Failed() {
			return
		}
		a.auditClean(t)
		for i, item := range items {
			for wid := 1; wid <= 3; wid++ {
				if l := a.levelOf(t, tok, item, wid); l.InStock != m.net[mixKey{0, i, int64(wid)}] {
					t.Errorf("%s in warehouse %d: inStock %s, the successful responses net %s", item, wid, l.InStock, m.net[mixKey{0, i, int64(wid)}])
				}
			}
		}
		a.checkLedger(t, tok, m.outcomes)
		checkHTTPMix(t, m.outcomes)
	})
}

// movedSince matches the refusal of a move by recno whose lot moved since
// it was last seen: the warehouse given is no longer the lot's, or the
// destination is where the lot now is (400, contract §7).
var movedSince = regexp.MustCompile(`"(wid|toSpot|shipToWid)":\["is (not the warehouse of lot|where the stock already is|the warehouse the stock is in)`)

// mixStep sends one random request and records its outcome. Only an
// unexpected answer is returned as an error: 409 is a refusal, part of the
// mix, and so is a move by recno of a lot that moved since (movedSince).
func (a *api) mixStep(tok string, m *httpMix, items []string, rng *rand.Rand, ref string) error {
	op, item, wid := pickHTTPOp(rng), rng.IntN(len(items)), int64(1+rng.IntN(3))
	body := map[string]any{"itemID": items[item], "wid": wid, "reference": ref}
	owner := stockroom.HouseOwner
	if len(m.owners) > 0 {
		owner = m.owners[rng.IntN(len(m.owners))]
		body["owner"] = owner
	}
	toWID, lotRecNo := wid, int64(0)
	switch op.name {
	case "receive":
		body["units"], body["reasonCode"], body["spot"] = 1+rng.IntN(4), 1, []string{"A", "B"}[rng.IntN(2)]
	case "issue":
		body["units"], body["reasonCode"] = 1+rng.IntN(6), 20
	case "move across warehouses":
		toWID = 1 + (wid+int64(rng.IntN(2)))%3 // one of the other two
		body["units"], body["shipToWid"], body["toSpot"] = 1+rng.IntN(5), toWID, []string{"A", "B", "M"}[rng.IntN(3)]
	case "move within a warehouse":
		body["units"], body["toSpot"] = 1+rng.IntN(5), []string{"A", "B", "M"}[rng.IntN(3)]
	case "move by recno", "hold", "release":
		// A lot as last seen: it may have moved or emptied since.
		recNo, lot, ok := m.someLot(rng, op.name == "release")
		if !ok {
			return nil
		}
		if op.name != "move by recno" {
			body, ref = map[string]any{"recno": recNo}, ""
			lotRecNo = recNo
			break
		}
		item, wid, owner, toWID = lot.item, lot.wid, lot.owner, 1+rng.Int64N(3)
		body = map[string]any{"itemID": items[item], "wid": wid, "reference": ref, "recno": recNo,
			"units": 1 + rng.IntN(2), "shipToWid": toWID, "toSpot": "R"}
		if len(m.owners) > 0 {
			body["owner"] = owner
		}
	}
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	r, err := a.try("POST", "/api/v1/Inventory/"+op.path, tok, b)
	if err != nil {
		return fmt.Errorf("%s %s: %w", op.name, b, err)
	}
	o := httpOutcome{ref: ref, op: op.name}
	var ans stockAnswer
	switch {
	case r.status == 409, r.status == 400 && op.name == "move by recno" && movedSince.Match(r.body):
		o.short = someAvailable.Match(r.body)
		m.mu.Lock()
		m.outcomes = append(m.outcomes, o)
		m.mu.Unlock()
		return nil
	case r.status/100 != 2:
		return fmt.Errorf("%s %s: %d %s", op.name, b, r.status, r.body)
	}
	if err := json.Unmarshal(r.body, &ans); err != nil {
		return fmt.Errorf("%s answered %s: %w", op.name, r.body, err)
	}
	o.ok = true
	if ans.TransactionID != nil {
		o.txID = *ans.TransactionID
	}
	units, _ := body["units"].(int)
	m.noteSuccess(op.path, o, ans, mixKey{owner, item, wid}, mixKey{owner, item, toWID}, stockroom.Whole(int64(units)), lotRecNo)
	return nil
}

// noteSuccess records a successful request: the lots it made, moved or held
// (recNo, for a hold), the net it changed, and any lot it drew of another
// owner.
func (m *httpMix) noteSuccess(path string, o httpOutcome, ans stockAnswer, from, to mixKey, u stockroom.Units, recNo int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	drawn := make([]int64, len(ans.Lines))
	for i, l := range ans.Lines {
		drawn[i] = l.RecNo
	}
	switch path {
	case "Receive":
		m.lots.Note(ans.RecNo, from, false)
		m.net[from] = m.net[from].Add(u)
	case "Issue":
		m.checkDrawn(o.ref, from.owner, drawn)
		for _, l := range ans.Lines {
			o.drewMoved = o.drewMoved || m.lots.Moved(l.RecNo)
		}
		m.net[from] = m.net[from].Sub(u)
	case "Move":
		m.checkDrawn(o.ref, from.owner, drawn)
		for _, l := range ans.Lines {
			if l.NewRecNo != nil && *l.NewRecNo != 0 {
				m.lots.Note(*l.NewRecNo, to, true)
			} else {
				m.lots.Note(l.RecNo, to, true)
			}
		}
		m.net[from] = m.net[from].Sub(u)
		m.net[to] = m.net[to].Add(u)
	case "Hold":
		if o.txID != 0 {
			m.lots.Held(recNo)
		}
	}
	m.outcomes = append(m.outcomes, o)
}

// try sends an authenticated JSON request and returns its response or the
// transport error. Unlike do it never stops the test, so workers may use it.
func (a *api) try(method, path, tok string, body []byte) (response, error) {
	req, err := http.NewRequest(method, a.url+path, bytes.NewReader(body))
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return response{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return response{status: res.StatusCode, header: res.Header, body: b}, err
}

// checkLedger reads the whole ledger through the API and checks that each
// success with a transaction is in it exactly once, under its reference (or,
// for holds, its id), and that nothing else is: no refusal, no hold that
// changed nothing.
func (a *api) checkLedger(t *testing.T, tok string, outcomes []httpOutcome) {
	t.Helper()
	byRef, byID := map[string][]int64{}, map[int64]stockroom.Transaction{}
	for page := 1; ; page++ {
		p := decode[struct {
			Value   []stockroom.Transaction
			HasMore bool
		}](t, a.get(t, fmt.Sprintf("/api/v1/Inventory/Transactions?pageSize=250&page=%d", page), tok))
		for _, tx := range p.Value {
			if _, dup := byID[tx.ID]; dup {
				t.Fatalf("transaction %d listed twice", tx.ID)
			}
			byID[tx.ID] = tx
			if tx.Reference != "" {
				byRef[tx.Reference] = append(byRef[tx.Reference], tx.ID)
			}
		}
		if !p.HasMore {
			break
		}
	}
	claimed := map[int64]string{}
	for _, o := range outcomes {
		if o.txID != 0 {
			if other, dup := claimed[o.txID]; dup {
				t.Errorf("transaction %d answered both %q and %q", o.txID, other, o.op)
			}
			claimed[o.txID] = o.op
		}
		got := byRef[o.ref]
		switch {
		case o.ref == "" && o.txID != 0: // a hold: it has only its id
			if tx, ok := byID[o.txID]; !ok || string(tx.Type) != o.op { // "hold" or "release"
				t.Errorf("%s answered transaction %d; the ledger has %+v", o.op, o.txID, tx)
			}
		case o.ref == "":
		case o.txID != 0:
			if len(got) != 1 || got[0] != o.txID {
				t.Errorf("%s (%s) answered transaction %d; the ledger has %v under its reference", o.ref, o.op, o.txID, got)
			}
		case len(got) != 0:
			t.Errorf("%s (%s) was refused; the ledger has %v under its reference", o.ref, o.op, got)
		}
	}
	if len(byID) != len(claimed) {
		t.Errorf("the ledger has %d entries for %d successful transactions", len(byID), len(claimed))
	}
}

// checkHTTPMix fails the test unless the mix did what it is for: each kind
// of request succeeded and was recorded, withdrawals were refused for short
// stock though some was there, and moved stock was issued again.
func checkHTTPMix(t *testing.T, outcomes []httpOutcome) {
	t.Helper()
	ok, refused, recorded, short := map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}
	fromMoved := 0
	for _, o := range outcomes {
		if !o.ok {
			refused[o.op]++
			if o.short {
				short[o.op]++
			}
			continue
		}
		ok[o.op]++
		if o.txID != 0 {
			recorded[o.op]++
		}
		if o.drewMoved {
			fromMoved++
		}
	}
	t.Logf("%d requests; succeeded %v, of which changed stock %v; refused (409) %v (with some stock available: %v); %d issues drew moved stock",
		len(outcomes), ok, recorded, refused, short, fromMoved)
	for _, op := range httpOps {
		if recorded[op.name] == 0 {
			t.Errorf("no %s was recorded in the ledger: the mix did not exercise it", op.name)
		}
	}
	for _, op := range []string{"issue", "move across warehouses"} {
		if short[op] == 0 {
			t.Errorf("no %s was refused for short stock while some was available: the workers did not contend", op)
		}
	}
	if fromMoved == 0 {
		t.Error("no issue drew from moved stock")
	}
}

// runMix runs workers goroutines of each random steps of the mix over the
// items, with random numbers from seed, and waits for them.
func (a *api) runMix(t *testing.T, tok string, m *httpMix, items []string, workers, each int, seed uint64) {
	var wg sync.WaitGroup
	for g := range workers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), seed))
			for i := range each {
				if err := a.mixStep(tok, m, items, rng, fmt.Sprintf("g%d-%d", g, i)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

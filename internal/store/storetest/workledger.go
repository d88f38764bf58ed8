package storetest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stockroom/stockroom"
)

// testWorkOrderLedger: a completion is one ledger entry of type assemble
// (contract §11), as a move is one entry with its lines. Its item is the
// product; its lines are the products' new lot and every consumed lot (each
// of its own item, negative); its figures the components' committed that
// allocations gave, each of its own item. The ledger filtered by the
// product or by any component finds it, and the audit holds every item's
// units, figures and each component's consumption to it.
func (h *harness) testWorkOrderLedger(t *testing.T) {
	s := h.openStock(t)
	c := newItem("C", t0)
	must(t, s.CreateItem(ctx, nil, &c))
	a1 := s.priced(s.a.PartNo, u(4), "1")
	a2 := s.priced(s.a.PartNo, u(6), "2")
	c1 := s.priced(c.PartNo, u(5), "3")
	s.placeWorkOrder("WO-1", u(4), comp(s.a.PartNo, u(2)), comp(c.PartNo, u(1)))
	must(t, firstErr(s.CommitOrder(ctx, nil, s.act(stockroom.OrderKindWork, "WO-1", everyone), stockroom.CommitRequest{Lines: []stockroom.AllocLine{
		{Line: 1, Units: up(3), RecNo: a2.RecNo}, {Line: 2, Units: up(2)}}})))
	// 3 products: 6 of A (a2's 3 allocated, then a1's oldest free 3) and 3 of
	// C (c1's 2 allocated and 1 free); (3×2 + 3×1 + 3×3) / 3 = 6 each.
	done, err := s.complete("WO-1", u(3))
	must(t, err)
	entries := s.ledgerOf(stockroom.TxAssemble)
	if len(entries) != 1 {
		t.Fatalf("a completion wrote %d assemble entries, want 1: %+v", len(entries), entries)
	}
	e := entries[0]
	if e.ID != done.TransactionID || e.PartNo != s.b.PartNo || e.ShortID != "B" || e.Units != u(3) || e.WID != 1 || e.Spot != "OUT" ||
		e.Reference != "WO-1" || e.Details["woNo"] != "WO-1" || fmt.Sprint(e.Details["components"]) != "[map[line:1 units:6] map[line:2 units:3]]" {
		t.Fatalf("the entry %+v (answered transaction %d)", e, done.TransactionID)
	}
	for _, cp := range done.Components {
		if cp.TransactionID == nil || *cp.TransactionID != e.ID {
			t.Fatalf("component line %d answered entry %v, want %d", cp.Line, cp.TransactionID, e.ID)
		}
	}
	want := fmt.Sprintf("%d B +3, %d A -3, %d A -3, %d C -3", done.Lot.RecNo, a2.RecNo, a1.RecNo, c1.RecNo)
	if got := entryLines(e); got != want || done.Lot.Price != u(6) {
		t.Fatalf("the entry's lines %s, want %s (product lot at %s)", got, want, done.Lot.Price)
	}
	if got := entryFigures(e); got != "A 1 committed -3, C 1 committed -2" {
		t.Fatalf("the entry's figures %s", got)
	}
	for _, item := range []string{"a", "B", "c"} {
		p, err := s.ListTransactions(ctx, stockroom.Scope{All: true}, stockroom.TransactionFilter{ItemShortID: item, Type: stockroom.TxAssemble},
			stockroom.PageRequest{Page: 1, PageSize: 250})
		must(t, err)
		if p.Total != 1 || len(p.Items) != 1 || p.Items[0].ID != e.ID || entryLines(p.Items[0]) != want {
			t.Fatalf("the ledger of item %s lists %+v, want entry %d", item, p.Items, e.ID)
		}
	}
	// C's ledger: its receipt, its commit, the completion.
	if p, err := s.ListTransactions(ctx, stockroom.Scope{All: true}, stockroom.TransactionFilter{ItemShortID: "C"}, stockroom.PageRequest{Page: 1, PageSize: 2}); err != nil ||
		p.Total != 3 || p.Items[0].ID != e.ID || p.Items[1].Type != stockroom.TxCommit {
		t.Fatalf("C's ledger %+v %v", p, err)
	}
	s.audit()
	must(t, firstErr(s.complete("WO-1", u(1))))
	if n := len(s.ledgerOf(stockroom.TxAssemble)); n != 2 {
		t.Fatalf("two completions wrote %d assemble entries", n)
	}
	s.audit()
}

// entryLines writes a ledger entry's lines in their order: "recNo shortID
// ±units", comma-separated.
func entryLines(e stockroom.Transaction) string {
	var out []string
	for _, l := range e.Lines {
		out = append(out, fmt.Sprintf("%d %s %s", l.RecNo, l.ShortID, signed(l.Units)))
	}
	return strings.Join(out, ", ")
}

// entryFigures writes a ledger entry's figures in their order: "shortID
// wid figure ±units" for each figure not zero, comma-separated.
func entryFigures(e stockroom.Transaction) string {
	var out []string
	for _, f := range e.Figures {
		for _, v := range []struct {
			name  string
			units stockroom.Units
		}{{"onOrder", f.OnOrder}, {"aSN", f.ASN}, {"committed", f.Committed}, {"packed", f.Packed}} {
			if !v.units.IsZero() {
				out = append(out, fmt.Sprintf("%s %d %s %s", f.ShortID, f.WID, v.name, signed(v.units)))
			}
		}
	}
	return strings.Join(out, ", ")
}

// signed writes units with their sign.
func signed(u stockroom.Units) string {
	if u.Sign() > 0 {
		return "+" + u.String()
	}
	return u.String()
}

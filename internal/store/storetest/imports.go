package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
)

// testImports: what an import (contract §15) asks of the store beside the
// writes every request makes: receipts judged without writing, exactly as
// their writes would judge them, customers stored many at once, and the
// record of an import's run written with its rows.
func (h *harness) testImports(t *testing.T) {
	t.Run("ReceiptRefusals", h.testReceiptRefusals)
	t.Run("CreateParties", h.testCreateParties)
	t.Run("ImportMarks", h.testImportMarks)
}

// testReceiptRefusals holds ReceiptRefusals to the receipt's own write:
// for each receipt, the refusal it foretells is the one Receive then meets
// (or none, and the lot is made).
func (h *harness) testReceiptRefusals(t *testing.T) {
	s := h.openStock(t)
	gone := newItem("GONE", t0)
	gone.Discontinued = true
	must(t, s.CreateItem(ctx, nil, &gone))
	must(t, s.CreateWarehouse(ctx, stockroom.Warehouse{ID: 3, Name: "W3", Created: t0, Modified: t0}))
	active, idle := newParty(stockroom.Customer, "ACTIVE", t0), newParty(stockroom.Customer, "IDLE", t0)
	idle.Active = false
	must(t, s.CreateParties(ctx, []*stockroom.Party{&active, &idle}, nil))
	owned := newItem("OWNED", t0)
	owned.DfltOwner = active.ID
	must(t, s.CreateItem(ctx, nil, &owned))
	receipt := func(part, wid, owner int64, isDefault bool) stockroom.Receipt {
		return stockroom.Receipt{PartNo: part, Owner: owner, OwnerIsDefault: isDefault, ReceiveRequest: stockroom.ReceiveRequest{WID: wid, Units: u(1)}}
	}
	cases := []struct {
		r    stockroom.Receipt
		want error
	}{
		{receipt(s.a.PartNo, 1, 0, false), nil},
		{receipt(gone.PartNo, 1, 0, false), stockroom.ErrDiscontinued},
		{receipt(s.a.PartNo, 3, 0, false), stockroom.ErrWarehouseInactive},
		{receipt(s.a.PartNo, 1, idle.ID, false), stockroom.ErrOwnerInactive},
		{receipt(s.a.PartNo, 1, active.ID, false), nil},
		{receipt(owned.PartNo, 1, active.ID, true), nil},
		{receipt(owned.PartNo, 1, 0, true), stockroom.ErrDefaultOwnerChanged},
		{receipt(gone.PartNo, 3, idle.ID, false), stockroom.ErrDiscontinued},
	}
	rs := make([]stockroom.Receipt, len(cases))
	for i, c := range cases {
		rs[i] = c.r
	}
	got, err := s.ReceiptRefusals(ctx, rs)
	must(t, err)
	for i, c := range cases {
		_, wrote := s.Receive(ctx, nil, c.r, s.entry())
		if !errors.Is(got[i], c.want) || !errors.Is(wrote, c.want) || (c.want == nil) != (got[i] == nil && wrote == nil) {
			t.Errorf("receipt %d (%+v): foretold %v, written %v, want %v", i, c.r, got[i], wrote, c.want)
		}
	}
	missing, err := s.ReceiptRefusals(ctx, []stockroom.Receipt{receipt(gone.PartNo+100, 1, 0, false), receipt(s.a.PartNo, 9, 0, false)})
	must(t, err)
	for i, err := range missing {
		if !errors.Is(err, stockroom.ErrNotFound) {
			t.Errorf("missing %d: %v", i, err)
		}
	}
}

// testCreateParties stores customers many at once, with their IDs, or
// none of them when one's ShortID is taken.
func (h *harness) testCreateParties(t *testing.T) {
	db := h.open(t)
	var ps []*stockroom.Party
	for i := range 3 {
		p := newParty(stockroom.Customer, fmt.Sprint("C", i), t0)
		ps = append(ps, &p)
	}
	must(t, db.CreateParties(ctx, ps, nil))
	for _, p := range ps {
		got, err := db.FindParty(ctx, stockroom.Customer, p.ID)
		if err != nil || got != *p {
			t.Fatalf("stored %+v as %+v: %v", *p, got, err)
		}
	}
	fresh, taken := newParty(stockroom.Customer, "C9", t0), newParty(stockroom.Customer, "c1", t0)
	if err := db.CreateParties(ctx, []*stockroom.Party{&fresh, &taken}, nil); !errors.Is(err, stockroom.ErrDuplicate) {
		t.Fatalf("a taken ShortID: %v", err)
	}
	if _, err := db.FindPartyByShortID(ctx, stockroom.Customer, "C9"); !errors.Is(err, stockroom.ErrNotFound) {
		t.Fatalf("C9 stored beside a refused one: %v", err)
	}
}

// testImportMarks: the record of an import's run commits with the rows it
// counts, and a transaction whose mark finds the record elsewhere than it
// says (another run of the file made it, or moved it) is refused with
// stockroom.ErrImportMoved and writes none of its rows.
func (h *harness) testImportMarks(t *testing.T) {
	db := h.open(t)
	if _, err := db.LastImport(ctx, "f00d", "customers"); !errors.Is(err, stockroom.ErrNotFound) {
		t.Fatalf("no run yet: %v", err)
	}
	run := stockroom.ImportRun{File: "f00d", Kind: "customers", Run: 1, Rows: 1, Total: 3, Started: t0, Modified: t0}
	write := func(shortID string, was int64, r stockroom.ImportRun) error {
		p := newParty(stockroom.Customer, shortID, t0)
		return db.CreateParties(ctx, []*stockroom.Party{&p}, &stockroom.ImportMark{Run: r, Was: was})
	}
	must(t, write("M1", -1, run))
	if err := write("M2", -1, run); !errors.Is(err, stockroom.ErrImportMoved) {
		t.Fatalf("a second first mark of run 1: %v", err)
	}
	moved := run
	moved.Rows = 2
	if err := write("M2", 0, moved); !errors.Is(err, stockroom.ErrImportMoved) {
		t.Fatalf("a mark from 0 rows, recorded 1: %v", err)
	}
	if _, err := db.FindPartyByShortID(ctx, stockroom.Customer, "M2"); !errors.Is(err, stockroom.ErrNotFound) {
		t.Fatalf("M2 stored by a refused mark: %v", err)
	}
	done := run
	done.Rows, done.Finished, done.Modified = 3, true, t0.Add(time.Minute)
	must(t, write("M2", 1, done))
	got, err := db.LastImport(ctx, "f00d", "customers")
	if err != nil || got != done {
		t.Fatalf("recorded %+v, want %+v: %v", got, done, err)
	}
	if err := write("M3", 3, done); !errors.Is(err, stockroom.ErrImportMoved) {
		t.Fatalf("a mark of a finished run: %v", err)
	}
}

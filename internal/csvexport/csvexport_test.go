package csvexport_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/csvexport"
)

type inner struct {
	A stockroom.Units `json:"a"`
	B *string         `json:"b"`
}

type embedded struct {
	Hidden int64  `json:"-"`
	Shared string `json:"shared"`
}

type record struct {
	ID int64 `json:"id"`
	embedded
	At      time.Time         `json:"at"`
	Maybe   *time.Time        `json:"maybe"`
	Flag    bool              `json:"flag"`
	In      inner             `json:"in"`
	Ptr     *inner            `json:"ptr"`
	Lines   []inner           `json:"lines,omitempty"`
	Details map[string]any    `json:"details"`
	Kind    stockroom.TxType  `json:"kind"`
	Units   []stockroom.Units `json:"units"`
}

func TestColumns(t *testing.T) {
	cols := csvexport.ColumnsOf[record]()
	want := []string{"id", "shared", "at", "maybe", "flag", "in.a", "in.b", "ptr.a", "ptr.b", "lines", "details", "kind", "units"}
	if got := cols.Header(); !slices.Equal(got, want) {
		t.Fatalf("header %q, want %q", got, want)
	}
	b := "x,\"y\""
	r := record{
		ID: 7, embedded: embedded{Hidden: 1, Shared: "s"},
		At:    time.Date(2025, 1, 15, 9, 30, 0, 500_000_000, time.FixedZone("", 3600)),
		In:    inner{A: stockroom.MustParseUnits("0.000001"), B: &b},
		Lines: []inner{{A: stockroom.MustParseUnits("12.5")}},
		Kind:  stockroom.TxMove,
		Units: []stockroom.Units{stockroom.MustParseUnits("1234567.654321")},
	}
	row := cols.Row(nil, r)
	wantRow := []string{"7", "s", "2025-01-15T08:30:00.5Z", "", "false", "0.000001", b, "", "", `[{"a":12.5,"b":null}]`, "", "move", "[1234567.654321]"}
	if !slices.Equal(row, wantRow) {
		t.Fatalf("row %q, want %q", row, wantRow)
	}

	var buf bytes.Buffer
	w, err := csvexport.NewWriter(&buf, nil, cols.Header())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(row); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	back, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(back) != 2 || !slices.Equal(back[1], wantRow) {
		t.Fatalf("read back %q, %v", back, err)
	}
	var lines []map[string]json.Number
	if err := json.Unmarshal([]byte(back[1][9]), &lines); err != nil || lines[0]["a"] != "12.5" {
		t.Fatalf("lines cell %q: %v", back[1][9], err)
	}
}

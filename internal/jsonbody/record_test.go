package jsonbody_test

import (
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/jsonbody"
)

// TestRecord reads rows of a table as a body: names in any case and by
// their synonyms, each cell as its field's type, a cell of the wrong type
// that field's problem, empty cells left out.
func TestRecord(t *testing.T) {
	names := []string{"SHORTID", " description", "categoryID", "units", "active", "dfltOwner"}
	cases := []struct {
		name     string
		values   []string
		want     stockroom.ItemChange
		problems map[string][]string
	}{
		{"every kind", []string{"BOLT-1", "M8 bolt", "3", "12.5", "FALSE", "7"}, stockroom.ItemChange{
			ShortID: "BOLT-1", Description: new("M8 bolt"), Category: new(int64(3)), Units: new(stockroom.MustParseUnits("12.5")),
			Discontinued: new(true), DfltOwner: new(int64(7)),
		}, nil},
		{"empty cells and a short row", []string{"BOLT-2", "", ""}, stockroom.ItemChange{ShortID: "BOLT-2"}, nil},
		{"text that looks like a number stays text", []string{"12", "0042"}, stockroom.ItemChange{ShortID: "12", Description: new("0042")}, nil},
		{"cells of the wrong type", []string{"B", "d", "three", "1.2345678", "yes", "1.5"}, stockroom.ItemChange{ShortID: "B", Description: new("d")},
			map[string][]string{
				"categoryID": {"must be an integer"}, "units": {"must have at most 6 digits after the decimal point"},
				"active": {"must be true or false"}, "dfltOwner": {"must be an integer"},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got stockroom.ItemChange
			res, err := jsonbody.Record(names, tc.values, &got)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("read %+v, want %+v", got, tc.want)
			}
			if d := details(res.Problems); !maps.EqualFunc(d, tc.problems, slices.Equal) {
				t.Errorf("problems %v, want %v", d, tc.problems)
			}
		})
	}
}

// TestUnknownColumns names the columns that are no field of the type, but
// neither a synonym nor a read-only field of its resource.
func TestUnknownColumns(t *testing.T) {
	got := jsonbody.Unknown([]string{"shortID", "UNIT", "partNo", "colour", " active "}, &stockroom.ItemChange{})
	if !slices.Equal(got, []string{"colour"}) {
		t.Errorf("unknown %q, want [colour]", got)
	}
}

package jsonbody_test

import (
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/jsonbody"
)

// decodeCase is a body decoded into a new value of the type of into, and
// what must come of it: the value (when want is not nil), the problems
// (field → messages) and the unknown fields.
type decodeCase struct {
	name     string
	into     any
	body     string
	want     any
	problems map[string][]string
	unknown  []string
}

func TestDecode(t *testing.T) {
	for _, tc := range append(append(itemCases(), orderCases()...), valueCases()...) {
		t.Run(tc.name, func(t *testing.T) {
			dst := reflect.New(reflect.TypeOf(tc.into))
			res, err := jsonbody.Decode([]byte(tc.body), dst.Interface())
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if tc.want != nil && !reflect.DeepEqual(dst.Elem().Interface(), tc.want) {
				t.Errorf("decoded %+v\nwant    %+v", dst.Elem().Interface(), tc.want)
			}
			if got := details(res.Problems); !maps.EqualFunc(got, tc.problems, slices.Equal) {
				t.Errorf("problems %v, want %v", got, tc.problems)
			}
			if !slices.Equal(res.Unknown, tc.unknown) {
				t.Errorf("unknown %q, want %q", res.Unknown, tc.unknown)
			}
		})
	}
}

// details are a validation's problems by field, each field's sorted.
func details(v stockroom.Validation) map[string][]string {
	var e *stockroom.Error
	if !errors.As(v.Err(), &e) {
		return nil
	}
	for _, msgs := range e.Details {
		slices.Sort(msgs)
	}
	return e.Details
}

func itemCases() []decodeCase {
	type item = stockroom.ItemChange
	return []decodeCase{
		{name: "NamesInAnyLetterCase", into: item{}, body: `{"SHORTID":"A-1","Description":"d","uom":"KG","PUTUP":"box","units":2.5,"dfltowner":7}`,
			want: item{ShortID: "A-1", Description: new("d"), UOM: new("KG"), PutUp: new("box"), Units: new(stockroom.MustParseUnits("2.5")), DfltOwner: new(int64(7))}},
		{name: "SynonymAlone", into: item{}, body: `{"categoryID":4,"Unit":"KG"}`, want: item{Category: new(int64(4)), UOM: new("KG")}},
		{name: "SynonymsAgree", into: item{}, body: `{"category":3,"categoryID":3,"uOM":"KG","unit":"KG"}`, want: item{Category: new(int64(3)), UOM: new("KG")}},
		{name: "SynonymsDisagree", into: item{}, body: `{"category":3,"CategoryId":4,"uOM":"KG","unit":"EA"}`, want: item{},
			problems: map[string][]string{"categoryID": {"differs from category; give one of them"}, "unit": {"differs from uOM; give one of them"}}},
		{name: "SynonymOfWrongType", into: item{}, body: `{"category":"3","categoryID":3}`, want: item{Category: new(int64(3))},
			problems: map[string][]string{"category": {"must be an integer"}}},
		{name: "NullIsAbsent", into: item{}, body: `{"description":null,"category":null,"categoryID":3}`, want: item{Category: new(int64(3))}},
		{name: "InverseAlone", into: item{}, body: `{"active":false}`, want: item{Discontinued: new(true)}},
		{name: "InverseAgrees", into: item{}, body: `{"active":true,"discontinued":false}`, want: item{Discontinued: new(false)}},
		{name: "InverseContradicts", into: item{}, body: `{"active":true,"discontinued":true}`, want: item{Discontinued: new(false)},
			problems: map[string][]string{"active": {"contradicts discontinued; give one of them"}}},
		{name: "TypeErrors", into: item{}, body: `{"shortID":1,"units":"5","category":1.5,"subCategory":1e2,"discontinued":"no","dfltOwner":99999999999999999999,"description":[1]}`,
			want: item{}, problems: map[string][]string{
				"shortID": {"must be a string"}, "units": {"must be a number"}, "category": {"must be an integer"},
				"subCategory": {"must be an integer"}, "discontinued": {"must be true or false"}, "dfltOwner": {"is out of range"},
				"description": {"must be a string"},
			}},
		{name: "ReadOnlyFieldsAreNotUnknown", into: item{}, body: `{"shortID":"A","partNo":12,"Created":"2025-01-15T00:00:00Z","modified":"x","createdBy":"c"}`,
			want: item{ShortID: "A"}},
		{name: "UnknownFields", into: item{}, body: `{"shortID":"A","descripton":"x","note":{"a":1},"Units":1}`,
			want: item{ShortID: "A", Units: new(stockroom.Whole(1))}, unknown: []string{"descripton", "note"}},
		{name: "LongUnknownNameCut", into: item{}, body: `{"` + strings.Repeat("x", 200) + `":1}`, want: item{},
			unknown: []string{strings.Repeat("x", 128) + "…"}},
		{name: "LetterCaseTwice", into: item{}, body: `{"shortID":"A","units":1,"units":2,"Units":3}`, problems: map[string][]string{
			"units": {"is given more than once", "is given more than once, in different letter cases"},
			"Units": {"is given more than once, in different letter cases"},
		}},
		{name: "TextProblems", into: item{}, body: "{\"shortID\":\"A\\ud800\",\"note\":[\"ok\",\"\xff\"],\"\xffx\":1}", problems: map[string][]string{
			"shortID": {`has a \u escape of half a UTF-16 surrogate pair without its other half`},
			"note[1]": {"is not valid UTF-8 text"}, "\uFFFDx": {"has a name that is not valid Unicode text"},
		}, unknown: []string{"note", "\uFFFDx"}},
		{name: "TypeSpeaksForTheField", into: item{}, body: "{\"units\":\"\xff\",\"UNITS\":\"\xff\"}", problems: map[string][]string{
			"units": {"must be a number"},
		}},
	}
}

func orderCases() []decodeCase {
	type (
		po   = stockroom.PurchaseOrderRequest
		so   = stockroom.ShippingOrderRequest
		line = stockroom.OrderLineRequest
	)
	tooMany := `{"lines":[` + strings.Repeat(`{"units":"x"},`, stockroom.MaxOrderLines) + `{}]}`
	return []decodeCase{
		{name: "Lines", into: po{}, body: `{"poNo":"P-1","vendorID":"BOLTCO","LINES":[{"itemID":"A","units":2,"unitPrice":0.5,"wid":1},{"lineNo":2,"Units":3,"owner":7}]}`,
			want: po{PONo: "P-1", VendorID: &stockroom.OwnerRef{ShortID: "BOLTCO"}, Lines: []line{
				{ItemID: "A", Units: new(stockroom.Whole(2)), UnitPrice: new(stockroom.MustParseUnits("0.5")), Warehouse: 1},
				{LineNo: 2, Units: new(stockroom.Whole(3)), Owner: &stockroom.OwnerRef{ID: 7}},
			}}},
		{name: "LineProblems", into: po{}, body: `{"lines":[{"units":"1","warehouse":1,"wid":2},7,{"itemID":5,"Owner":true},null]}`,
			want: po{Lines: make([]line, 4)}, problems: map[string][]string{
				"lines[0].units": {"must be a number"}, "lines[0].wid": {"differs from warehouse; give one of them"},
				"lines[1]": {"must be an object"}, "lines[2].itemID": {"must be a string"}, "lines[2].owner": {"must be an integer"},
				"lines[3]": {"must be an object"},
			}},
		{name: "LinesNotAnArray", into: po{}, body: `{"lines":{"units":1}}`, want: po{},
			problems: map[string][]string{"lines": {"must be an array of objects"}}},
		{name: "EmptyLines", into: po{}, body: `{"lines":[]}`, want: po{}},
		{name: "TooManyLinesUnread", into: po{}, body: tooMany, want: po{},
			problems: map[string][]string{"lines": {stockroom.TooManyElements(stockroom.MaxOrderLines)}}},
		{name: "UnknownInLines", into: po{}, body: `{"poNo":"P","colour":1,"Lines":[{"itemID":"A","shade":2},{"unitsCommitted":1}]}`,
			want: po{PONo: "P", Lines: []line{{ItemID: "A"}, {}}}, unknown: []string{"colour", "Lines[0].shade", "Lines[1].unitsCommitted"}},
		{name: "WholeOrderAsRead", into: po{}, body: `{"poNo":"P","vendor":"V","status":"Open","totalLines":1,"totalValue":2,"created":"c","modified":"m",
			"lines":[{"lineNo":1,"partNo":3,"shortID":"A","description":"d","units":2,"warehouse":1,"warehouseName":"Main","owner":0,
			"unitsReceived":0,"unitsInTransit":0,"unitsRejected":0,"unitsDue":2,"unitPrice":1}]}`,
			want: po{PONo: "P", Lines: []line{{LineNo: 1, Units: new(stockroom.Whole(2)), Warehouse: 1, Owner: &stockroom.OwnerRef{}, UnitPrice: new(stockroom.Whole(1))}}}},
		{name: "IgnoredInLines", into: so{}, body: `{"soNo":"S","lines":[{"itemID":"A","unitPrice":"x","unitsShipped":1}]}`,
			want: so{SONo: "S", Lines: []line{{ItemID: "A"}}}, unknown: []string{"lines[0].unitPrice"}},
		{name: "RefsOfParties", into: so{}, body: `{"customerID":" 12 ","owner":""}`, want: so{CustomerID: &stockroom.OwnerRef{ID: 12}},
			problems: map[string][]string{"owner": {"is empty: give an id or a ShortID"}}},
		{name: "CommitReadsRecno", into: stockroom.CommitRequest{}, body: `{"lines":[{"line":1,"recno":4}],"allowPartial":true}`,
			want: stockroom.CommitRequest{Lines: []stockroom.AllocLine{{Line: 1, RecNo: 4}}, AllowPartial: true}},
		{name: "PackIgnoresRecno", into: stockroom.PackRequest{}, body: `{"lines":[{"line":1,"recno":4}]}`,
			want: stockroom.PackRequest{Lines: []stockroom.AllocLine{{Line: 1}}}, unknown: []string{"lines[0].recno"}},
		{name: "NothingToRead", into: struct{}{}, body: `{"a":1,"b":{"c":2}}`, want: struct{}{}, unknown: []string{"a", "b"}},
	}
}

func valueCases() []decodeCase {
	type receive = stockroom.ReceiveRequest
	return []decodeCase{
		{name: "QuantitiesExactly", into: receive{}, body: `{"units":0.1,"price":123456789.123456,"netWeight":1e2}`,
			want: receive{Units: stockroom.MustParseUnits("0.1"), Price: stockroom.MustParseUnits("123456789.123456"), NetWeight: stockroom.Whole(100)}},
		{name: "QuantityProblems", into: receive{}, body: `{"units":1e-7,"price":true,"netWeight":1e999999,"grossWeight":{}}`, want: receive{},
			problems: map[string][]string{
				"units": {"must have at most 6 digits after the decimal point"}, "price": {"must be a number"},
				"netWeight": {"is out of range"}, "grossWeight": {"must be a number"},
			}},
		{name: "Times", into: receive{}, body: `{"expires":"2025-01-15"}`, want: receive{Expires: new(time.Date(2025, 1, 15, 0, 0, 0, 0, time.UTC))}},
		{name: "TimeProblems", into: receive{}, body: `{"expires":"soon"}`, want: receive{},
			problems: map[string][]string{"expires": {"must be a date or date-time such as 2025-01-15T09:30:00Z"}}},
		{name: "Refs", into: receive{}, body: `{"owner":"C-1","wid":-3}`, want: receive{Owner: &stockroom.OwnerRef{ShortID: "C-1"}, WID: -3}},
		{name: "RefProblems", into: receive{}, body: `{"owner":1.5}`, want: receive{}, problems: map[string][]string{"owner": {"must be an integer"}}},
		{name: "LastOfTwiceCounts", into: receive{}, body: `{"itemID":"A","itemID":null,"wid":1,"wid":2}`, want: receive{WID: 2},
			problems: map[string][]string{"itemID": {"is given more than once"}, "wid": {"is given more than once"}}},
	}
}

// TestDecodeRefusesWhatIsNoObject: a body that is not JSON, or not an
// object, is a bad request.
func TestDecodeRefusesWhatIsNoObject(t *testing.T) {
	for _, body := range []string{``, `[]`, `null`, `"x"`, `1`, `{`, `{"a":1}x`, "{\"a\":\xff}", strings.Repeat("[", 20000)} {
		var in stockroom.ItemChange
		if _, err := jsonbody.Decode([]byte(body), &in); stockroom.ErrorCode(err) != stockroom.EBADREQUEST {
			t.Errorf("%.40q: %v, want bad_request", body, err)
		}
	}
}

package stockroom

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// PartyKind tells customers from vendors. Both are parties: one kind of
// record, one id sequence, so a customerID is never also a vendorID.
type PartyKind string

// The kinds of party.
const (
	Customer PartyKind = "customer"
	Vendor   PartyKind = "vendor"
)

// Party is a customer or a vendor. A customer may own stock (a lot's owner);
// a vendor supplies it (a receipt's supplier).
type Party struct {
	Kind     PartyKind `json:"-"`
	ID       int64     `json:"-"` // customerID or vendorID, by Kind
	ShortID  string    `json:"shortID"`
	Name     string    `json:"name"`
	Address1 string    `json:"address1"`
	Address2 string    `json:"address2"`
	City     string    `json:"city"`
	State    string    `json:"state"`
	Zip      string    `json:"zip"`
	Country  string    `json:"country"`
	Phone    string    `json:"phone"`
	Fax      string    `json:"fax"`
	Email    string    `json:"email"`
	Contact  string    `json:"contact"`
	Active   bool      `json:"active"`
	Created  time.Time `json:"created"`
	Modified time.Time `json:"modified"`
}

// IDField is the name of the party's id in the API: customerID or vendorID.
func (k PartyKind) IDField() string { return string(k) + "ID" }

// Path is the kind's resource in the API: Customer or Vendor.
func (k PartyKind) Path() string { return strings.ToUpper(string(k[:1])) + string(k[1:]) }

// MarshalJSON writes a party with its id under its kind's name.
func (p Party) MarshalJSON() ([]byte, error) {
	type fields Party
	body, err := json.Marshal(fields(p))
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(`{"` + p.Kind.IDField() + `":` + strconv.FormatInt(p.ID, 10) + ",")
	b.Write(body[1:])
	return b.Bytes(), nil
}

// UnmarshalJSON reads a party as MarshalJSON writes it: its kind is told by
// the name of its id (customerID or vendorID).
func (p *Party) UnmarshalJSON(b []byte) error {
	type fields Party
	var ids struct {
		CustomerID *int64 `json:"customerID"`
		VendorID   *int64 `json:"vendorID"`
	}
	if err := json.Unmarshal(b, &ids); err != nil {
		return err
	}
	if err := json.Unmarshal(b, (*fields)(p)); err != nil {
		return err
	}
	switch {
	case ids.CustomerID != nil:
		p.Kind, p.ID = Customer, *ids.CustomerID
	case ids.VendorID != nil:
		p.Kind, p.ID = Vendor, *ids.VendorID
	}
	return nil
}

// Category groups items; an item's category and subCategory are 0 or a
// category's id.
type Category struct {
	CategoryID  int64     `json:"categoryID"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Active      bool      `json:"active"`
	Created     time.Time `json:"created"`
	Modified    time.Time `json:"modified"`
}

// HouseOwner is the owner of the house's own stock.
const HouseOwner int64 = 0

// OwnerRef names an owner in a request: a customerID (0 for the house's own
// stock), or a customer's ShortID.
type OwnerRef struct {
	ID      int64
	ShortID string // when not empty, ID is not used
}

// String writes the reference as it was given.
func (o OwnerRef) String() string {
	if o.ShortID != "" {
		return strconv.Quote(o.ShortID)
	}
	return strconv.FormatInt(o.ID, 10)
}

// MarshalJSON writes the id as a number, a ShortID as a string.
func (o OwnerRef) MarshalJSON() ([]byte, error) {
	if o.ShortID != "" {
		return json.Marshal(o.ShortID)
	}
	return []byte(strconv.FormatInt(o.ID, 10)), nil
}

// UnmarshalJSON reads a number (a customerID) or a string: a ShortID, or a
// customerID written as digits.
func (o *OwnerRef) UnmarshalJSON(b []byte) error {
	var n int64
	if err := json.Unmarshal(b, &n); err == nil {
		*o = OwnerRef{ID: n}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return &json.UnmarshalTypeError{Value: string(b), Type: nil}
	}
	*o = ParseOwnerRef(s)
	return nil
}

// ParseOwnerRef reads an owner from text (a query parameter, a string in a
// body): digits are a customerID, anything else a ShortID.
func ParseOwnerRef(s string) OwnerRef {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return OwnerRef{ID: n}
	}
	return OwnerRef{ShortID: s}
}

// ErrNoCategoryID is a store's answer to a new category without an id when
// the next after the largest would pass MaxCategoryID.
var ErrNoCategoryID = &Error{Code: ECONFLICT, Message: "No category id is left after the largest; give categoryID."}

package stockroom

import (
	"strconv"
	"strings"
)

// Field length limits of customers, vendors and categories, in characters.
// They are generous for what the fields hold (an e-mail address may be 254
// characters long by RFC 5321) and keep a record small.
const (
	MaxPartyNameLen     = 100
	MaxAddressLen       = 100 // address1, address2
	MaxCityLen          = 50
	MaxStateLen         = 50
	MaxZipLen           = 20
	MaxCountryLen       = 50
	MaxPhoneLen         = 30 // phone, fax
	MaxEmailLen         = 254
	MaxContactLen       = 100
	MaxCategoryNameLen  = 100
	MaxCategoryDescrLen = 500
	// MaxCategoryID is the largest category id: an item's category fits
	// the same range as its other ids.
	MaxCategoryID = MaxWarehouseID
)

// PartyChange is a create or partial update of a customer or vendor, the
// body of POST and PUT /Customer and /Vendor (the SDK sends it as it is):
// nil fields are left as they are, or take their zero value on create. The
// id (customerID, vendorID) is assigned and never changes.
type PartyChange struct {
	// The record's fields the server writes: neither read nor unknown.
	_ struct{} `readonly:"customerID,vendorID,created,modified"`
	// ShortID is required, 1 to 64 characters, unique per kind regardless
	// of letter case. On update it names the record to change; it cannot be
	// renamed.
	ShortID string `json:"shortID"`
	// Name is required on create, and cannot be made empty.
	Name     *string `json:"name,omitempty"`
	Address1 *string `json:"address1,omitempty"`
	Address2 *string `json:"address2,omitempty"`
	City     *string `json:"city,omitempty"`
	State    *string `json:"state,omitempty"`
	Zip      *string `json:"zip,omitempty"`
	Country  *string `json:"country,omitempty"`
	Phone    *string `json:"phone,omitempty"`
	Fax      *string `json:"fax,omitempty"`
	Email    *string `json:"email,omitempty"`
	Contact  *string `json:"contact,omitempty"`
	// Active set to true on update reactivates a discontinued record.
	Active *bool `json:"active,omitempty"`
}

// Validate checks every field of the change and reports every failure at
// once; create says whether the change makes a new record. It trims the
// ShortID and the name.
func (c *PartyChange) Validate(v *Validation, create bool) {
	c.ShortID = strings.TrimSpace(c.ShortID)
	ValidateKey(v, "shortID", c.ShortID)
	checkName(v, "name", &c.Name, MaxPartyNameLen, create)
	for _, f := range []struct {
		name string
		s    *string
		max  int
	}{
		{"address1", c.Address1, MaxAddressLen}, {"address2", c.Address2, MaxAddressLen},
		{"city", c.City, MaxCityLen}, {"state", c.State, MaxStateLen}, {"zip", c.Zip, MaxZipLen},
		{"country", c.Country, MaxCountryLen}, {"phone", c.Phone, MaxPhoneLen}, {"fax", c.Fax, MaxPhoneLen},
		{"email", c.Email, MaxEmailLen}, {"contact", c.Contact, MaxContactLen},
	} {
		if !v.Has(f.name) {
			checkText(v, f.name, f.s, f.max)
		}
	}
}

// Apply writes the change onto p and reports whether any value changed.
func (c *PartyChange) Apply(p *Party) bool {
	before := *p
	for _, f := range []struct{ dst, src *string }{
		{&p.Name, c.Name}, {&p.Address1, c.Address1}, {&p.Address2, c.Address2}, {&p.City, c.City},
		{&p.State, c.State}, {&p.Zip, c.Zip}, {&p.Country, c.Country}, {&p.Phone, c.Phone},
		{&p.Fax, c.Fax}, {&p.Email, c.Email}, {&p.Contact, c.Contact},
	} {
		set(f.dst, f.src)
	}
	set(&p.Active, c.Active)
	return *p != before
}

// CategoryChange is a create or partial update of a category, the body of
// POST and PUT /Category.
type CategoryChange struct {
	// The category's fields the server writes: neither read nor unknown.
	_ struct{} `readonly:"created,modified"`
	// CategoryID names the category to change. On create it is optional:
	// 0 takes the next id after the largest.
	CategoryID  int64   `json:"categoryID,omitempty"`
	Name        *string `json:"name,omitempty"`
	Description *string `json:"description,omitempty"`
	// Active set to true on update reactivates a discontinued category.
	Active *bool `json:"active,omitempty"`
}

// Validate checks every field of the change and reports every failure at
// once; create says whether the change makes a new category (whose id may
// be left out). It trims the name.
func (c *CategoryChange) Validate(v *Validation, create bool) {
	switch {
	case v.Has("categoryID"):
	case c.CategoryID == 0 && !create:
		v.Add("categoryID", "is required")
	case c.CategoryID < 0 || c.CategoryID > MaxCategoryID:
		v.Add("categoryID", "must be between 1 and "+strconv.FormatInt(MaxCategoryID, 10))
	}
	checkName(v, "name", &c.Name, MaxCategoryNameLen, create)
	if !v.Has("description") {
		checkText(v, "description", c.Description, MaxCategoryDescrLen)
	}
}

// Apply writes the change onto cat and reports whether any value changed.
func (c *CategoryChange) Apply(cat *Category) bool {
	before := *cat
	set(&cat.Name, c.Name)
	set(&cat.Description, c.Description)
	set(&cat.Active, c.Active)
	return *cat != before
}

// checkName checks a record's name: required on create, never empty, trimmed.
func checkName(v *Validation, field string, name **string, max int, create bool) {
	if v.Has(field) {
		return
	}
	if *name != nil {
		s := strings.TrimSpace(**name)
		*name = &s
	}
	switch {
	case *name == nil && create, *name != nil && **name == "":
		v.Add(field, "is required")
	default:
		checkText(v, field, *name, max)
	}
}

package stockroom

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
)

// Item is a catalog entry: a part with an auto-assigned partNo and a unique
// ShortID (the SKU).
type Item struct {
	PartNo       int64     `json:"partNo"`
	ShortID      string    `json:"shortID"`
	Description  string    `json:"description"`
	Category     int64     `json:"category"`
	SubCategory  int64     `json:"subCategory"`
	UOM          string    `json:"uOM"`
	PutUp        string    `json:"putUp"`
	Units        Units     `json:"units"`
	DfltOwner    int64     `json:"dfltOwner"`
	Created      time.Time `json:"created"`
	Modified     time.Time `json:"modified"`
	Discontinued bool      `json:"discontinued"`
	CreatedBy    string    `json:"createdBy"`
}

// Active reports whether the item is active: not discontinued.
func (it Item) Active() bool { return !it.Discontinued }

// MarshalJSON writes an item as the API shows it: its fields, and beside
// them the names clients of the original product read: active (the inverse
// of discontinued), categoryID (category) and unit (uOM).
func (it Item) MarshalJSON() ([]byte, error) {
	type fields Item
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(struct {
		fields
		Active     bool   `json:"active"`
		CategoryID int64  `json:"categoryID"`
		Unit       string `json:"unit"`
	}{fields(it), it.Active(), it.Category, it.UOM})
	return bytes.TrimRight(b.Bytes(), "\n"), err
}

// Field length limits of items, in characters.
const (
	MaxKeyLen         = 64 // ShortIDs and aliases
	MaxDescriptionLen = 500
	MaxUOMLen         = 20
	MaxPutUpLen       = 100
)

// ItemChange is a create or partial update of an item, the body of POST and
// PUT /Item (the SDK sends it as it is): nil fields are left as they are, or
// take their zero value on create. Go's new(expr) fills the pointers:
// Description: new("Hex bolt M8x40").
type ItemChange struct {
	// The item's fields the server writes, which a PUT of the whole item
	// as read may carry: neither read nor unknown.
	_ struct{} `readonly:"partNo,created,modified,createdBy"`
	// ShortID is the SKU: required, 1 to 64 characters, unique regardless of
	// letter case. On update it names the item to change; it cannot be
	// renamed.
	ShortID     string  `json:"shortID"`
	Description *string `json:"description,omitempty"`
	// Category is also read as categoryID, UOM as unit, and Discontinued
	// as the inverse of active (contract §6).
	Category    *int64  `json:"category,omitempty" alias:"categoryID"`
	SubCategory *int64  `json:"subCategory,omitempty"`
	UOM         *string `json:"uOM,omitempty" alias:"unit"`
	PutUp       *string `json:"putUp,omitempty"`
	Units       *Units  `json:"units,omitempty"`
	DfltOwner   *int64  `json:"dfltOwner,omitempty"`
	// Discontinued set to false on update reactivates a discontinued item.
	Discontinued *bool `json:"discontinued,omitempty" inverse:"active"`
}

// Validate checks every field of the change and reports every failure at
// once. It trims the ShortID.
func (c *ItemChange) Validate(v *Validation) {
	c.ShortID = strings.TrimSpace(c.ShortID)
	ValidateKey(v, "shortID", c.ShortID)
	checkText(v, "description", c.Description, MaxDescriptionLen)
	checkText(v, "uOM", c.UOM, MaxUOMLen)
	checkText(v, "putUp", c.PutUp, MaxPutUpLen)
	for field, p := range map[string]*int64{"category": c.Category, "subCategory": c.SubCategory, "dfltOwner": c.DfltOwner} {
		if p != nil && (*p < 0 || *p > MaxWarehouseID) {
			v.Add(field, "must be between 0 and 2147483647")
		}
	}
	if c.Units != nil {
		checkNonNegative(v, "units", *c.Units)
	}
}

// Apply writes the change onto item and reports whether any value changed.
func (c *ItemChange) Apply(item *Item) bool {
	before := *item
	set(&item.Description, c.Description)
	set(&item.Category, c.Category)
	set(&item.SubCategory, c.SubCategory)
	set(&item.UOM, c.UOM)
	set(&item.PutUp, c.PutUp)
	set(&item.Units, c.Units)
	set(&item.DfltOwner, c.DfltOwner)
	set(&item.Discontinued, c.Discontinued)
	return *item != before
}

func set[T any](dst *T, src *T) {
	if src != nil {
		*dst = *src
	}
}

func checkText(v *Validation, field string, s *string, max int) {
	switch {
	case s == nil:
	case utf8.RuneCountInString(*s) > max:
		v.Add(field, "must be at most "+strconv.Itoa(max)+" characters")
	case strings.ContainsFunc(*s, func(r rune) bool { return unicode.IsControl(r) && r != '\t' && r != '\n' }):
		v.Add(field, "must not contain control characters")
	}
}

// ValidateKey checks a ShortID or alias: 1 to 64 characters after trimming,
// no control characters. The caller trims.
func ValidateKey(v *Validation, field, key string) {
	switch {
	case v.Has(field): // already refused, for its JSON type say
	case key == "":
		v.Add(field, "is required")
	case utf8.RuneCountInString(key) > MaxKeyLen:
		v.Add(field, "must be at most 64 characters")
	case strings.ContainsFunc(key, unicode.IsControl):
		v.Add(field, "must not contain control characters")
	case !utf8.ValidString(key):
		v.Add(field, "must be valid UTF-8")
	}
}

// FoldKey returns the form under which ShortIDs and aliases are unique and
// found: Unicode case folding, so "bolt-m8" and "BOLT-M8" are one key. It is
// computed here, once, so both engines agree on it.
func FoldKey(key string) string {
	return cases.Fold().String(strings.TrimSpace(key))
}

// Alias is an alternate part number that points to one item.
type Alias struct {
	Alias    string    `json:"alias"`
	PartNo   int64     `json:"partNo"`
	ShortID  string    `json:"shortID"`
	Created  time.Time `json:"created"`
	Modified time.Time `json:"modified"`
}

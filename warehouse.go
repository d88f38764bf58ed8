package stockroom

import (
	"strings"
	"time"
	"unicode"
)

// MaxWarehouseID bounds warehouse ids to what every JSON client reads exactly.
const MaxWarehouseID = 1<<31 - 1

// MaxNameLen bounds warehouse and client names, in characters.
const MaxNameLen = 100

// Warehouse is a physical site holding stock.
type Warehouse struct {
	ID       int64     `json:"wID"`
	Name     string    `json:"name"`
	Active   bool      `json:"active"`
	Created  time.Time `json:"-"`
	Modified time.Time `json:"-"`
}

// Validate checks a warehouse before it is stored.
func (w *Warehouse) Validate() error {
	var v Validation
	if w.ID < 1 || w.ID > MaxWarehouseID {
		v.Add("wID", "must be between 1 and 2147483647")
	}
	w.Name = strings.TrimSpace(w.Name)
	ValidateName(&v, "name", w.Name)
	return v.Err()
}

// WarehouseChange is an operator's change to a warehouse: a nil field stays
// as it is. A warehouse's id never changes, and warehouses are never removed:
// one no longer used is deactivated.
type WarehouseChange struct {
	Name   *string
	Active *bool
}

// Validate checks the change to warehouse wid.
func (ch *WarehouseChange) Validate(wid int64) error {
	var v Validation
	if wid < 1 || wid > MaxWarehouseID {
		v.Add("wID", "must be between 1 and 2147483647")
	}
	if ch.Name != nil {
		*ch.Name = strings.TrimSpace(*ch.Name)
		ValidateName(&v, "name", *ch.Name)
	}
	return v.Err()
}

// Apply makes the change to w and reports whether any value changed.
func (ch *WarehouseChange) Apply(w *Warehouse) bool {
	changed := false
	if ch.Name != nil && *ch.Name != w.Name {
		w.Name, changed = *ch.Name, true
	}
	if ch.Active != nil && *ch.Active != w.Active {
		w.Active, changed = *ch.Active, true
	}
	return changed
}

// ValidateName checks a display name: present, at most MaxNameLen characters
// and free of control characters.
func ValidateName(v *Validation, field, name string) {
	switch {
	case name == "":
		v.Add(field, "is required")
	case len([]rune(name)) > MaxNameLen:
		v.Add(field, "must be at most 100 characters")
	case strings.ContainsFunc(name, unicode.IsControl):
		v.Add(field, "must not contain control characters")
	}
}

// ReasonCode explains why stock was received or issued. Receive and issue
// requests must name one whose direction fits.
type ReasonCode struct {
	Code        int64     `json:"code"`
	Description string    `json:"description"`
	Direction   Direction `json:"direction"`
	Created     time.Time `json:"-"`
}

// Direction is the way stock moves in a change a reason code may explain.
type Direction string

// Reason code directions.
const (
	DirectionReceive Direction = "receive"
	DirectionIssue   Direction = "issue"
	DirectionAny     Direction = "any"
)

// Validate checks a reason code before it is stored.
func (rc *ReasonCode) Validate() error {
	var v Validation
	if rc.Code < 1 || rc.Code > MaxWarehouseID {
		v.Add("code", "must be between 1 and 2147483647")
	}
	rc.Description = strings.TrimSpace(rc.Description)
	ValidateName(&v, "description", rc.Description)
	switch rc.Direction {
	case DirectionReceive, DirectionIssue, DirectionAny:
	default:
		v.Add("direction", "must be receive, issue or any")
	}
	return v.Err()
}

// Allows reports whether the code may be used for a stock change in the given
// direction (DirectionReceive or DirectionIssue).
func (rc *ReasonCode) Allows(direction Direction) bool {
	return rc.Direction == DirectionAny || rc.Direction == direction
}

// DefaultReasonCodes is the set a fresh database starts with: the usual causes
// of receipts and issues in a warehouse, so a new installation can transact at
// once. Operators add their own with `stockroom reasoncode add`.
var DefaultReasonCodes = []ReasonCode{
	{Code: 1, Description: "Purchase order receipt", Direction: DirectionReceive},
	{Code: 2, Description: "Customer return", Direction: DirectionReceive},
	{Code: 3, Description: "Production output", Direction: DirectionReceive},
	{Code: 4, Description: "Found stock", Direction: DirectionReceive},
	{Code: 10, Description: "Cycle count adjustment", Direction: DirectionAny},
	{Code: 11, Description: "Opening balance", Direction: DirectionAny},
	{Code: 20, Description: "Sales shipment", Direction: DirectionIssue},
	{Code: 21, Description: "Production consumption", Direction: DirectionIssue},
	{Code: 22, Description: "Damaged or scrapped", Direction: DirectionIssue},
	{Code: 23, Description: "Return to supplier", Direction: DirectionIssue},
	{Code: 24, Description: "Sample or internal use", Direction: DirectionIssue},
}

// DefaultWarehouse is the warehouse a fresh database starts with.
var DefaultWarehouse = Warehouse{ID: 1, Name: "Main", Active: true}

// Bootstrap is what a fresh database is given, once in its life: its first
// warehouse, its reason codes and its administrator client (with the hash
// of the client's secret), at Time.
type Bootstrap struct {
	Warehouse   Warehouse
	ReasonCodes []ReasonCode
	Admin       *Client
	SecretHash  string
	Time        time.Time
}

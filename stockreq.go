package stockroom

import (
	"strings"
	"time"
)

// Text limits of stock transaction fields, in characters.
const (
	MaxSpotLen      = 64
	MaxSerialLen    = 100
	MaxReferenceLen = 100
	MaxRemarkLen    = 500
)

// ReceiveRequest is a receive as the client sent it.
type ReceiveRequest struct {
	ItemID      string
	Units       Units
	WID         int64
	ReasonCode  int64
	Spot        string
	Serial      string
	Serial2     string
	RFIDTag     string
	Reference   string
	Remark      string
	NetWeight   Units
	GrossWeight Units
	Price       Units
	Expires     *time.Time
	Supplier    int64
	Line        int64
	JobID       int64
}

// IssueRequest is an issue as the client sent it.
type IssueRequest struct {
	ItemID     string
	Units      Units
	WID        int64
	ReasonCode int64
	Spot       string
	Serial     string
	Serial2    string
	RFIDTag    string
	Reference  string
	Remark     string
	NetWeight  Units
	ShipTo     int64
	ProdID     string
	RecNo      int64
	Line       int64
}

// MoveRequest is a move as the client sent it.
type MoveRequest struct {
	ItemID      string
	Units       Units
	WID         int64
	FromSpot    string
	ToSpot      *string
	ShipToWID   int64
	TransitSlip string
	Serial      string
	Serial2     string
	RFIDTag     string
	Reference   string
	RecNo       int64
	Received    *time.Time
}

// Validate checks a receive's fields.
func (r *ReceiveRequest) Validate(v *Validation) {
	r.ItemID = checkStockLine(v, r.ItemID, r.Units, r.WID)
	checkID(v, "reasonCode", r.ReasonCode, true)
	checkLotTexts(v, r.Serial, r.Serial2, r.RFIDTag, r.Reference)
	checkTexts(v, map[string]textField{"spot": {r.Spot, MaxSpotLen}, "remark": {r.Remark, MaxRemarkLen}})
	for field, u := range map[string]Units{"netWeight": r.NetWeight, "grossWeight": r.GrossWeight, "price": r.Price} {
		checkNonNegative(v, field, u)
	}
	for field, n := range map[string]int64{"supplier": r.Supplier, "line": r.Line, "jobid": r.JobID} {
		checkID(v, field, n, false)
	}
}

// Validate checks an issue's fields.
func (r *IssueRequest) Validate(v *Validation) {
	r.ItemID = checkStockLine(v, r.ItemID, r.Units, r.WID)
	checkID(v, "reasonCode", r.ReasonCode, true)
	checkLotTexts(v, r.Serial, r.Serial2, r.RFIDTag, r.Reference)
	checkTexts(v, map[string]textField{
		"spot": {r.Spot, MaxSpotLen}, "remark": {r.Remark, MaxRemarkLen}, "prodID": {r.ProdID, MaxReferenceLen},
	})
	checkNonNegative(v, "netWeight", r.NetWeight)
	for field, n := range map[string]int64{"shipto": r.ShipTo, "recno": r.RecNo, "line": r.Line} {
		checkID(v, field, n, false)
	}
}

// Validate checks a move's fields: it needs a destination, and one that is
// not where the stock already is.
func (r *MoveRequest) Validate(v *Validation) {
	r.ItemID = checkStockLine(v, r.ItemID, r.Units, r.WID)
	checkID(v, "shipToWid", r.ShipToWID, false)
	checkID(v, "recno", r.RecNo, false)
	to := ""
	if r.ToSpot != nil {
		to = *r.ToSpot
	}
	checkLotTexts(v, r.Serial, r.Serial2, r.RFIDTag, r.Reference)
	checkTexts(v, map[string]textField{
		"fromSpot": {r.FromSpot, MaxSpotLen}, "toSpot": {to, MaxSpotLen}, "transitSlip": {r.TransitSlip, MaxReferenceLen},
	})
	sameWarehouse := r.ShipToWID == 0 || r.ShipToWID == r.WID
	switch {
	case r.ToSpot == nil && r.ShipToWID == 0:
		v.Add("toSpot", "is required: give toSpot, shipToWid or both")
	case sameWarehouse && r.ToSpot != nil && r.FromSpot != "" && *r.ToSpot == r.FromSpot:
		v.Add("toSpot", "is where the stock already is")
	case sameWarehouse && r.ToSpot == nil:
		v.Add("shipToWid", "is the warehouse the stock is in; give toSpot to move within it")
	}
}

// Destination returns where a valid move goes: the warehouse, and the spot
// (empty when only shipToWid was given).
func (r *MoveRequest) Destination() (int64, string) {
	wid, spot := r.WID, ""
	if r.ShipToWID != 0 {
		wid = r.ShipToWID
	}
	if r.ToSpot != nil {
		spot = *r.ToSpot
	}
	return wid, spot
}

// checkStockLine checks what every stock transaction names: an item, a
// quantity above zero and a warehouse. It returns the trimmed itemID.
func checkStockLine(v *Validation, itemID string, units Units, wid int64) string {
	itemID = strings.TrimSpace(itemID)
	ValidateKey(v, "itemID", itemID)
	checkQuantity(v, "units", units)
	checkID(v, "wid", wid, true)
	return itemID
}

// checkLotTexts checks the lot identifiers and reference every stock
// transaction may carry.
func checkLotTexts(v *Validation, serial, serial2, rfidTag, reference string) {
	checkTexts(v, map[string]textField{
		"serial": {serial, MaxSerialLen}, "serial2": {serial2, MaxSerialLen},
		"rfidTag": {rfidTag, MaxSerialLen}, "reference": {reference, MaxReferenceLen},
	})
}

type textField struct {
	value string
	max   int
}

func checkTexts(v *Validation, fields map[string]textField) {
	for name, f := range fields {
		s := f.value
		checkText(v, name, &s, f.max)
	}
}

func checkQuantity(v *Validation, field string, u Units) {
	if v.Has(field) {
		return
	}
	if u <= 0 {
		v.Add(field, "must be greater than 0")
	}
}

func checkNonNegative(v *Validation, field string, u Units) {
	if !v.Has(field) && u < 0 {
		v.Add(field, "must be 0 or greater")
	}
}

// checkID checks an integer id field: within 1..2147483647, or 0 for an
// optional field left out.
func checkID(v *Validation, field string, n int64, required bool) {
	switch {
	case v.Has(field):
	case n == 0 && required:
		v.Add(field, "is required")
	case n < 0 || n > MaxWarehouseID:
		v.Add(field, "must be between 1 and 2147483647")
	}
}

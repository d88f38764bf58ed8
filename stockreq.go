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

// ReceiveRequest is a receipt of stock into a warehouse, as clients send
// it (the SDK too): a positive adjustment that creates one new lot.
type ReceiveRequest struct {
	// ItemID is the ShortID of the item received (required).
	ItemID string `json:"itemID"`
	// Units is the quantity, above 0 (required).
	Units Units `json:"units"`
	// WID is the receiving warehouse (required).
	WID int64 `json:"wid"`
	// ReasonCode explains the receipt; it must be a code for receipts (see
	// ReasonCodes). Required.
	ReasonCode int64 `json:"reasonCode"`

	Spot        string `json:"spot,omitempty"`
	Serial      string `json:"serial,omitempty"`
	Serial2     string `json:"serial2,omitempty"`
	RFIDTag     string `json:"rfidTag,omitempty"`
	Reference   string `json:"reference,omitempty"`
	Remark      string `json:"remark,omitempty"`
	NetWeight   Units  `json:"netWeight,omitzero"`
	GrossWeight Units  `json:"grossWeight,omitzero"`
	// Price is the unit cost.
	Price    Units      `json:"price,omitzero"`
	Expires  *time.Time `json:"expires,omitempty"`
	Supplier int64      `json:"supplier,omitzero"`
	// Line is the purchase order line received against: a line of order
	// PONo, or, without PONo, of the order whose number is Reference, when
	// there is one. Without either it is recorded as given.
	Line int64 `json:"line,omitzero"`
	// PONo is the purchase order received against (with Line).
	PONo  string `json:"poNo,omitempty"`
	JobID int64  `json:"jobid,omitzero"`
	// Owner is whose stock it is: a customerID or customer ShortID, 0 for
	// the house; absent, the client's own owner when it is limited to
	// exactly one, else the item's dfltOwner.
	Owner *OwnerRef `json:"owner,omitempty"`
}

// IssueRequest takes stock out of a warehouse: a negative adjustment drawn
// from the oldest matching lots first. The lot filters (Spot, Serial,
// Serial2, RFIDTag, RecNo) narrow the lots drawn from; held lots are never
// issued.
type IssueRequest struct {
	ItemID     string `json:"itemID"`
	Units      Units  `json:"units"`
	WID        int64  `json:"wid"`
	ReasonCode int64  `json:"reasonCode"`

	Spot      string `json:"spot,omitempty"`
	Serial    string `json:"serial,omitempty"`
	Serial2   string `json:"serial2,omitempty"`
	RFIDTag   string `json:"rfidTag,omitempty"`
	Reference string `json:"reference,omitempty"`
	Remark    string `json:"remark,omitempty"`
	NetWeight Units  `json:"netWeight,omitzero"`
	// ShipTo is the ship-to customer id.
	ShipTo int64 `json:"shipto,omitzero"`
	// ProdID is the production or assembly id.
	ProdID string `json:"prodID,omitempty"`
	RecNo  int64  `json:"recno,omitzero"`
	Line   int64  `json:"line,omitzero"`
	// Owner is whose lots are drawn (one owner's only); absent, the
	// client's own owner when it is limited to exactly one, else the item's
	// dfltOwner.
	Owner *OwnerRef `json:"owner,omitempty"`
}

// MoveRequest relocates stock to another spot and/or warehouse, drawn from
// the oldest matching lots first. A whole lot moves in place (keeping its
// recNo); part of a lot splits off into a new lot at the destination. Held
// lots move only when named by RecNo.
//
// A move by RecNo needs only the lot and a destination: ItemID, WID,
// FromSpot and Owner default to the lot's (given, they must be the lot's),
// and Units to its free units (not committed to orders), so that the whole
// lot moves.
type MoveRequest struct {
	// ItemID is the ShortID of the item moved: required without RecNo.
	ItemID string `json:"itemID,omitempty"`
	// Units is the quantity, above 0: required without RecNo; with it,
	// zero (absent) is the lot's free units.
	Units Units `json:"units,omitzero"`
	// WID is the warehouse the stock is in: required without RecNo.
	WID int64 `json:"wid,omitzero"`
	// FromSpot keeps the lots in this bin.
	FromSpot string `json:"fromSpot,omitempty"`
	// ToSpot is the destination bin; new("") is the blank spot. ToSpot,
	// ShipToWID or both are required.
	ToSpot *string `json:"toSpot,omitempty"`
	// ShipToWID is the destination warehouse of an inter-warehouse move; both
	// warehouses must be in the client's scope. With a TransitSlip the move
	// is a transfer: it ships a transit, and only the source need be in scope.
	ShipToWID   int64  `json:"shipToWid,omitzero"`
	TransitSlip string `json:"transitSlip,omitempty"`
	Serial      string `json:"serial,omitempty"`
	Serial2     string `json:"serial2,omitempty"`
	RFIDTag     string `json:"rfidTag,omitempty"`
	Reference   string `json:"reference,omitempty"`
	RecNo       int64  `json:"recno,omitzero"`
	// Received keeps the lots received on this UTC day (its time of day is
	// ignored).
	Received *time.Time `json:"received,omitempty"`
	// Owner is whose lots move (one owner's only); absent, the lot's owner
	// for a move by RecNo, else the client's own owner when it is limited
	// to exactly one, else the item's dfltOwner.
	Owner *OwnerRef `json:"owner,omitempty"`
}

// Validate checks a receive's fields.
func (r *ReceiveRequest) Validate(v *Validation) {
	r.ItemID = checkStockLine(v, r.ItemID, r.Units, r.WID)
	checkID(v, "reasonCode", r.ReasonCode, true)
	checkLotTexts(v, r.Serial, r.Serial2, r.RFIDTag, r.Reference)
	r.PONo = strings.TrimSpace(r.PONo)
	checkTexts(v, map[string]textField{"spot": {r.Spot, MaxSpotLen}, "remark": {r.Remark, MaxRemarkLen}, "poNo": {r.PONo, MaxOrderNoLen}})
	if r.PONo != "" && r.Line == 0 && !v.Has("line") {
		v.Add("line", "is required with poNo: the line of the order received against")
	}
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
// not where the stock already is. A move by RecNo may leave out what the
// lot says (see MoveRequest); its destination is checked against the lot
// once it is read (CheckDestination).
func (r *MoveRequest) Validate(v *Validation) {
	if r.RecNo == 0 || v.Has("recno") {
		r.ItemID = checkStockLine(v, r.ItemID, r.Units, r.WID)
	} else {
		if r.ItemID = strings.TrimSpace(r.ItemID); r.ItemID != "" {
			ValidateKey(v, "itemID", r.ItemID)
		}
		if !r.Units.IsZero() {
			checkQuantity(v, "units", r.Units)
		}
		checkID(v, "wid", r.WID, false)
	}
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
	var from *string
	if r.FromSpot != "" {
		from = &r.FromSpot
	}
	r.CheckDestination(v, from)
}

// CheckDestination checks where a move goes against where its stock is:
// warehouse WID (0: not known yet, as for a move by RecNo before its lot
// is read) and spot from (nil: any).
func (r *MoveRequest) CheckDestination(v *Validation, from *string) {
	sameWarehouse := r.ShipToWID == 0 || r.ShipToWID == r.WID
	switch {
	case r.ToSpot == nil && r.ShipToWID == 0:
		v.Add("toSpot", "is required: give toSpot, shipToWid or both")
	case r.WID == 0:
	case r.IsTransfer() && r.ShipToWID == r.WID:
		v.Add("shipToWid", "is the warehouse the stock is in; a transit (transitSlip) goes to another warehouse")
	case sameWarehouse && r.ToSpot != nil && from != nil && strings.TrimSpace(*r.ToSpot) == strings.TrimSpace(*from):
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
	if u.Sign() <= 0 {
		v.Add(field, "must be greater than 0")
	}
	checkAtMost(v, field, u)
}

func checkNonNegative(v *Validation, field string, u Units) {
	if !v.Has(field) && u.Sign() < 0 {
		v.Add(field, "must be 0 or greater")
	}
	checkAtMost(v, field, u)
}

// checkAtMost holds a request's quantity to MaxQuantity, so that sums of
// many of them stay within what is kept.
func checkAtMost(v *Validation, field string, u Units) {
	if !v.Has(field) && MaxQuantity().Less(u) {
		v.Add(field, "must be at most "+MaxQuantity().String())
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

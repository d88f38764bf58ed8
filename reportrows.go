package stockroom

import "time"

// ReportRow is one row of a report: its JSON object is the row of a page,
// and Cells, its values as text in the order of its report's Columns, the
// row of a CSV (units exact, times RFC 3339 in UTC).
type ReportRow interface {
	Cells() []string
}

func timeCell(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func optTimeCell(t *time.Time) string {
	if t == nil {
		return ""
	}
	return timeCell(*t)
}

var valuationColumns = []string{"partNo", "itemID", "wid", "units", "unitCost", "totalValue"}

// ValuationRow is a row of Stock Valuation (15): an item's stock in one
// warehouse and its value at its lots' prices.
type ValuationRow struct {
	PartNo     int64  `json:"partNo"`
	ItemID     string `json:"itemID"`
	WID        int64  `json:"wid"`
	Units      Units  `json:"units"`
	UnitCost   Units  `json:"unitCost"`
	TotalValue Units  `json:"totalValue"`
}

// Cells implements ReportRow.
func (r ValuationRow) Cells() []string {
	return []string{itoa(r.PartNo), r.ItemID, itoa(r.WID), r.Units.String(), r.UnitCost.String(), r.TotalValue.String()}
}

var activityColumns = []string{"partNo", "itemID", "wid", "opening", "unitsReceived", "unitsIssued", "unitsMovedIn", "unitsMovedOut", "closing"}

// ActivityRow is a row of Inventory Activity (22): closing = opening +
// received - issued + movedIn - movedOut.
type ActivityRow struct {
	PartNo   int64  `json:"partNo"`
	ItemID   string `json:"itemID"`
	WID      int64  `json:"wid"`
	Opening  Units  `json:"opening"`
	Received Units  `json:"unitsReceived"`
	Issued   Units  `json:"unitsIssued"`
	MovedIn  Units  `json:"unitsMovedIn"`
	MovedOut Units  `json:"unitsMovedOut"`
	Closing  Units  `json:"closing"`
}

// Cells implements ReportRow.
func (r ActivityRow) Cells() []string {
	return []string{itoa(r.PartNo), r.ItemID, itoa(r.WID), r.Opening.String(), r.Received.String(), r.Issued.String(),
		r.MovedIn.String(), r.MovedOut.String(), r.Closing.String()}
}

var ageingColumns = []string{"partNo", "itemID", "wid", "units", "days0To30", "days31To60", "days61To90", "over90"}

// AgeingRow is a row of Stock Ageing (101).
type AgeingRow struct {
	PartNo     int64  `json:"partNo"`
	ItemID     string `json:"itemID"`
	WID        int64  `json:"wid"`
	Units      Units  `json:"units"`
	Days0To30  Units  `json:"days0To30"`
	Days31To60 Units  `json:"days31To60"`
	Days61To90 Units  `json:"days61To90"`
	Over90     Units  `json:"over90"`
}

// Cells implements ReportRow.
func (r AgeingRow) Cells() []string {
	return []string{itoa(r.PartNo), r.ItemID, itoa(r.WID), r.Units.String(), r.Days0To30.String(), r.Days31To60.String(),
		r.Days61To90.String(), r.Over90.String()}
}

// AgeBucket is the Stock Ageing column of a lot received whole days ago:
// 0 for 0-30, 1 for 31-60, 2 for 61-90, 3 for over 90.
func AgeBucket(days int64) int {
	switch {
	case days <= 30:
		return 0
	case days <= 60:
		return 1
	case days <= 90:
		return 2
	}
	return 3
}

// WholeDays is the whole days from then to now (floor), as ages and
// daysLeft count them.
func WholeDays(then, now time.Time) int64 {
	d := now.Sub(then)
	days := int64(d / (24 * time.Hour))
	if d < 0 && d%(24*time.Hour) != 0 {
		days--
	}
	return days
}

var expiringColumns = []string{"recNo", "partNo", "itemID", "wid", "owner", "spot", "serial", "units", "expires", "daysLeft"}

// ExpiringLotRow is a row of Expiring Lots (102): daysLeft is the whole days
// from the run to expires (floor; negative once expired).
type ExpiringLotRow struct {
	RecNo    int64     `json:"recNo"`
	PartNo   int64     `json:"partNo"`
	ItemID   string    `json:"itemID"`
	WID      int64     `json:"wid"`
	Owner    int64     `json:"owner"`
	Spot     string    `json:"spot"`
	Serial   string    `json:"serial"`
	Units    Units     `json:"units"`
	Expires  time.Time `json:"expires"`
	DaysLeft int64     `json:"daysLeft"`
}

// Cells implements ReportRow.
func (r ExpiringLotRow) Cells() []string {
	return []string{itoa(r.RecNo), itoa(r.PartNo), r.ItemID, itoa(r.WID), itoa(r.Owner), r.Spot, r.Serial, r.Units.String(),
		timeCell(r.Expires), itoa(r.DaysLeft)}
}

var storageColumns = []string{"owner", "wid", "opening", "closing", "unitDays"}

// StorageRow is a row of Storage by Owner (103).
type StorageRow struct {
	Owner    int64 `json:"owner"`
	WID      int64 `json:"wid"`
	Opening  Units `json:"opening"`
	Closing  Units `json:"closing"`
	UnitDays Units `json:"unitDays"`
}

// Cells implements ReportRow.
func (r StorageRow) Cells() []string {
	return []string{itoa(r.Owner), itoa(r.WID), r.Opening.String(), r.Closing.String(), r.UnitDays.String()}
}

var openPurchaseColumns = []string{"poNo", "line", "vendorID", "dueDate", "partNo", "itemID", "wid", "owner", "units", "unitsReceived", "unitsInTransit", "unitsRejected", "unitsDue"}

// OpenPurchaseRow is a row of Open Purchase Orders (47).
type OpenPurchaseRow struct {
	PONo      string     `json:"poNo"`
	Line      int64      `json:"line"`
	VendorID  string     `json:"vendorID"`
	DueDate   *time.Time `json:"dueDate"`
	PartNo    int64      `json:"partNo"`
	ItemID    string     `json:"itemID"`
	WID       int64      `json:"wid"`
	Owner     int64      `json:"owner"`
	Units     Units      `json:"units"`
	Received  Units      `json:"unitsReceived"`
	InTransit Units      `json:"unitsInTransit"`
	Rejected  Units      `json:"unitsRejected"`
	Due       Units      `json:"unitsDue"`
}

// Cells implements ReportRow.
func (r OpenPurchaseRow) Cells() []string {
	return []string{r.PONo, itoa(r.Line), r.VendorID, optTimeCell(r.DueDate), itoa(r.PartNo), r.ItemID, itoa(r.WID), itoa(r.Owner),
		r.Units.String(), r.Received.String(), r.InTransit.String(), r.Rejected.String(), r.Due.String()}
}

var openShippingColumns = []string{"soNo", "line", "dueDate", "partNo", "itemID", "wid", "owner", "units", "unitsCommitted", "unitsPacked", "unitsShipped", "unitsOpen", "available", "unitsShort"}

// OpenShippingRow is a row of Open Shipping Orders (104).
type OpenShippingRow struct {
	SONo      string     `json:"soNo"`
	Line      int64      `json:"line"`
	DueDate   *time.Time `json:"dueDate"`
	PartNo    int64      `json:"partNo"`
	ItemID    string     `json:"itemID"`
	WID       int64      `json:"wid"`
	Owner     int64      `json:"owner"`
	Units     Units      `json:"units"`
	Committed Units      `json:"unitsCommitted"`
	Packed    Units      `json:"unitsPacked"`
	Shipped   Units      `json:"unitsShipped"`
	Open      Units      `json:"unitsOpen"`
	Available Units      `json:"available"`
	Short     Units      `json:"unitsShort"`
}

// Cells implements ReportRow.
func (r OpenShippingRow) Cells() []string {
	return []string{r.SONo, itoa(r.Line), optTimeCell(r.DueDate), itoa(r.PartNo), r.ItemID, itoa(r.WID), itoa(r.Owner),
		r.Units.String(), r.Committed.String(), r.Packed.String(), r.Shipped.String(), r.Open.String(), r.Available.String(), r.Short.String()}
}

var traceColumns = []string{"transactionID", "line", "time", "type", "recNo", "partNo", "itemID", "wid", "spot", "units", "reference"}

// TraceRow is a row of Lot Trace (105): one ledger line of a traced lot.
type TraceRow struct {
	TransactionID int64     `json:"transactionID"`
	Line          int64     `json:"line"`
	Time          time.Time `json:"time"`
	Type          TxType    `json:"type"`
	RecNo         int64     `json:"recNo"`
	PartNo        int64     `json:"partNo"`
	ItemID        string    `json:"itemID"`
	WID           int64     `json:"wid"`
	Spot          string    `json:"spot"`
	Units         Units     `json:"units"`
	Reference     string    `json:"reference"`
}

// Cells implements ReportRow.
func (r TraceRow) Cells() []string {
	return []string{itoa(r.TransactionID), itoa(r.Line), timeCell(r.Time), string(r.Type), itoa(r.RecNo), itoa(r.PartNo), r.ItemID,
		itoa(r.WID), r.Spot, r.Units.String(), r.Reference}
}

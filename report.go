package stockroom

import (
	"fmt"
	"slices"
	"strings"
)

// Reports (contract §13): a fixed catalogue of read-only views over one
// snapshot of the database, each producing rows of a fixed column list, so
// that a page of JSON and a stream of CSV are two writers of one sequence of
// rows (ReportRow).

// ReportID identifies a report of the catalogue (the original product's
// numbers where it has them).
type ReportID int64

// The reports of contract §13.
const (
	ReportStockValuation     ReportID = 15
	ReportInventoryActivity  ReportID = 22
	ReportOpenPurchaseOrders ReportID = 47
	ReportStockAgeing        ReportID = 101
	ReportExpiringLots       ReportID = 102
	ReportStorageByOwner     ReportID = 103
	ReportOpenShippingOrders ReportID = 104
	ReportLotTrace           ReportID = 105
)

// MaxReportPageSize is the largest page of a report (the specification's
// limit for report resources); a larger pageSize is capped silently.
const MaxReportPageSize = 1000

// ReportParameter describes one parameter a report takes.
type ReportParameter struct {
	Name string `json:"name"`
	// Type is "integer", "datetime" or "string".
	Type     string `json:"type"`
	Required bool   `json:"required"`
}

// Report is a report of the catalogue as GET /Report lists it.
type Report struct {
	ReportID    ReportID          `json:"reportID"`
	ReportName  string            `json:"reportName"`
	ReportType  string            `json:"reportType"`
	Description string            `json:"description"`
	Parameters  []ReportParameter `json:"parameters"`
	// Columns are the fields of each row, in order: the keys of a row's
	// JSON object and the header of its CSV.
	Columns []string `json:"columns"`
}

// The parameters reports share.
var (
	paramWID  = ReportParameter{Name: "wid", Type: "integer"}
	paramFrom = ReportParameter{Name: "from", Type: "datetime", Required: true}
	paramTo   = ReportParameter{Name: "to", Type: "datetime", Required: true}
)

// Reports is the catalogue, in ReportID order.
var Reports = []Report{
	{ReportID: ReportStockValuation, ReportName: "Stock Valuation", ReportType: "stock",
		Description: "Per item and warehouse with a stock level (any figure not zero, as GET /Inventory/StockLevels lists them): units in stock, their value at each lot's price (totalValue, exact, rounded half away from zero to 6 decimals) and unitCost = totalValue / units (rounded the same way). flags: ignored.",
		Parameters:  []ReportParameter{paramWID}, Columns: valuationColumns},
	{ReportID: ReportInventoryActivity, ReportName: "Inventory Activity", ReportType: "ledger",
		Description: "Per item and warehouse with movement in [from, to): units in stock at from (opening), received, issued, moved in, moved out, and at to (closing). A move within one warehouse moves nothing in or out of it. flags: ignored.",
		Parameters:  []ReportParameter{paramFrom, paramTo, paramWID}, Columns: activityColumns},
	{ReportID: ReportOpenPurchaseOrders, ReportName: "Open Purchase Orders", ReportType: "orders",
		Description: "Every line of an open purchase order with units still to arrive (units - received - rejected > 0); unitsDue excludes what is in transit. flags: ignored.",
		Parameters:  []ReportParameter{paramWID}, Columns: openPurchaseColumns},
	{ReportID: ReportStockAgeing, ReportName: "Stock Ageing", ReportType: "stock",
		Description: "Per item and warehouse with a stock level: units in stock by whole days since received (floor of elapsed time / 24 h at the run): 0-30, 31-60, 61-90, over 90. flags: ignored.",
		Parameters:  []ReportParameter{paramWID}, Columns: ageingColumns},
	{ReportID: ReportExpiringLots, ReportName: "Expiring Lots", ReportType: "stock",
		Description: "Lots in stock that expire at or before now + days x 24 h (those already expired included, daysLeft negative), soonest first. flags: ignored.",
		Parameters:  []ReportParameter{{Name: "days", Type: "integer", Required: true}, paramWID}, Columns: expiringColumns},
	{ReportID: ReportStorageByOwner, ReportName: "Storage by Owner", ReportType: "ledger",
		Description: "Per owner and warehouse: unit-days of storage over [from, to) from the ledger's history of units (a unit stored one day is one unit-day; exact to the microsecond, rounded half away from zero to 6 decimals), with units at from and at to. flags: ignored.",
		Parameters:  []ReportParameter{paramFrom, paramTo, paramWID}, Columns: storageColumns},
	{ReportID: ReportOpenShippingOrders, ReportName: "Open Shipping Orders", ReportType: "orders",
		Description: "Every line of an open shipping order not fully shipped: unitsOpen = units - shipped; unitsShort = what of the unallocated units (unitsOpen - unitsCommitted - unitsPacked) is beyond the item's available units in the line's warehouse for its owner (each line judged alone). flags: ignored.",
		Parameters:  []ReportParameter{paramWID}, Columns: openShippingColumns},
	{ReportID: ReportLotTrace, ReportName: "Lot Trace", ReportType: "ledger",
		Description: "Every ledger line of the lots carrying serial, or of lot recNo and the lots split from it (by moves) or copied from it (by a transfer's receipt), in ledger order. Give serial or recNo. flags: ignored.",
		Parameters:  []ReportParameter{{Name: "serial", Type: "string"}, {Name: "recNo", Type: "integer"}}, Columns: traceColumns},
}

// FindReport returns the report with id; ok is false for none.
func FindReport(id ReportID) (Report, bool) {
	i := slices.IndexFunc(Reports, func(r Report) bool { return r.ReportID == id })
	if i < 0 {
		return Report{}, false
	}
	return Reports[i], true
}

// ParseReports parses a comma-separated list of ReportIDs, or "all", or
// "none" (or nothing): the reports a client may run. A client holds none
// unless an operator grants them (client add/update --reports).
func ParseReports(s string) (Scope, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "none") {
		return Scope{IDs: []int64{}}, nil
	}
	return parseScope(s, 1, func(f string) error {
		return fmt.Errorf("unknown report %q (want a list of %s, all or none)", f, reportIDList())
	}, func(n int64) bool { _, ok := FindReport(ReportID(n)); return ok })
}

// FormatReports writes report rights as ParseReports reads them.
func FormatReports(s Scope) string {
	if !s.All && len(s.IDs) == 0 {
		return "none"
	}
	return s.String()
}

func reportIDList() string {
	ids := make([]string, len(Reports))
	for i, r := range Reports {
		ids[i] = fmt.Sprint(int64(r.ReportID))
	}
	return strings.Join(ids, ",")
}

// MayRun reports whether the principal may run report id.
func (p *Principal) MayRun(id ReportID) bool { return p.Reports.Contains(int64(id)) }

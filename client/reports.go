package client

import (
	"context"
	"iter"
	"net/url"
	"strconv"
	"time"

	"github.com/stockroom/stockroom"
)

// ReportOptions are a run of a report: which page, its flags and its
// parameters (those its report lists; the others are not sent).
type ReportOptions struct {
	// Page is the 1-based page number; 0 means 1.
	Page int64
	// PageSize is rows per page; 0 means the server's default (25), and the
	// iterators use stockroom.MaxReportPageSize (1000). Larger values are
	// capped by the server.
	PageSize int64
	// Flags is the report-specific string (every built-in report ignores
	// it).
	Flags string
	// Params are the report's own parameters: WID for most, From and To
	// for 22 and 103, Days for 102, Serial or RecNo for 105.
	Params stockroom.ReportParams
}

// values encodes a run of report id (days is sent to Expiring Lots even
// when 0, a horizon of its own).
func (o ReportOptions) values(id stockroom.ReportID) url.Values {
	q := ListOptions{Page: o.Page, PageSize: o.PageSize}.values()
	setIf(q, "flags", o.Flags)
	p := o.Params
	setInt := func(name string, n int64) {
		if n != 0 {
			q.Set(name, strconv.FormatInt(n, 10))
		}
	}
	setInt("wid", p.WID)
	setInt("recNo", p.RecNo)
	if p.Days != 0 || id == stockroom.ReportExpiringLots {
		q.Set("days", strconv.FormatInt(p.Days, 10))
	}
	for name, t := range map[string]time.Time{"from": p.From, "to": p.To} {
		if !t.IsZero() {
			q.Set(name, t.UTC().Format(time.RFC3339Nano))
		}
	}
	setIf(q, "serial", p.Serial)
	return q
}

// ListReports returns every report the client may run (GET /Report), with
// its parameters and the columns of its rows.
func (c *Client) ListReports(ctx context.Context) ([]stockroom.Report, error) {
	var out []stockroom.Report
	for r, err := range Walk(ctx, ListOptions{}, func(ctx context.Context, lo ListOptions) (*Page[stockroom.Report], error) {
		return getPage[stockroom.Report](ctx, c, "Report", lo.values())
	}) {
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// RunReport returns one page of report id's rows, each a T: the row type
// of that report (stockroom.ValuationRow for 15, and so on; the typed
// iterators below pair them). A report the client may not run is an
// *Error with status 403 and the message stockroom.MsgReportDenied.
func RunReport[T stockroom.ReportRow](ctx context.Context, c *Client, id stockroom.ReportID, opts ReportOptions) (*Page[T], error) {
	return getPage[T](ctx, c, "Report/"+strconv.FormatInt(int64(id), 10), opts.values(id))
}

// ReportRows yields every row of report id from opts.Page on, page by page
// (1000 rows a page unless opts.PageSize says otherwise). Each page is a
// snapshot of its own: rows that change between pages may be missed or
// seen twice.
func ReportRows[T stockroom.ReportRow](ctx context.Context, c *Client, id stockroom.ReportID, opts ReportOptions) iter.Seq2[T, error] {
	if opts.PageSize == 0 {
		opts.PageSize = stockroom.MaxReportPageSize
	}
	return Walk(ctx, ListOptions{Page: opts.Page, PageSize: opts.PageSize}, func(ctx context.Context, lo ListOptions) (*Page[T], error) {
		opts.Page, opts.PageSize = lo.Page, lo.PageSize
		return RunReport[T](ctx, c, id, opts)
	})
}

// StockValuation yields the rows of report 15.
func (c *Client) StockValuation(ctx context.Context, opts ReportOptions) iter.Seq2[stockroom.ValuationRow, error] {
	return ReportRows[stockroom.ValuationRow](ctx, c, stockroom.ReportStockValuation, opts)
}

// InventoryActivity yields the rows of report 22 (opts.Params.From and To
// are required).
func (c *Client) InventoryActivity(ctx context.Context, opts ReportOptions) iter.Seq2[stockroom.ActivityRow, error] {
	return ReportRows[stockroom.ActivityRow](ctx, c, stockroom.ReportInventoryActivity, opts)
}

// OpenPurchaseOrders yields the rows of report 47.
func (c *Client) OpenPurchaseOrders(ctx context.Context, opts ReportOptions) iter.Seq2[stockroom.OpenPurchaseRow, error] {
	return ReportRows[stockroom.OpenPurchaseRow](ctx, c, stockroom.ReportOpenPurchaseOrders, opts)
}

// StockAgeing yields the rows of report 101.
func (c *Client) StockAgeing(ctx context.Context, opts ReportOptions) iter.Seq2[stockroom.AgeingRow, error] {
	return ReportRows[stockroom.AgeingRow](ctx, c, stockroom.ReportStockAgeing, opts)
}

// ExpiringLots yields the rows of report 102 (opts.Params.Days is the
// horizon; 0 is the lots expired by now).
func (c *Client) ExpiringLots(ctx context.Context, opts ReportOptions) iter.Seq2[stockroom.ExpiringLotRow, error] {
	return ReportRows[stockroom.ExpiringLotRow](ctx, c, stockroom.ReportExpiringLots, opts)
}

// StorageByOwner yields the rows of report 103 (opts.Params.From and To
// are required).
func (c *Client) StorageByOwner(ctx context.Context, opts ReportOptions) iter.Seq2[stockroom.StorageRow, error] {
	return ReportRows[stockroom.StorageRow](ctx, c, stockroom.ReportStorageByOwner, opts)
}

// OpenShippingOrders yields the rows of report 104.
func (c *Client) OpenShippingOrders(ctx context.Context, opts ReportOptions) iter.Seq2[stockroom.OpenShippingRow, error] {
	return ReportRows[stockroom.OpenShippingRow](ctx, c, stockroom.ReportOpenShippingOrders, opts)
}

// LotTrace yields the rows of report 105 (opts.Params.Serial or RecNo).
func (c *Client) LotTrace(ctx context.Context, opts ReportOptions) iter.Seq2[stockroom.TraceRow, error] {
	return ReportRows[stockroom.TraceRow](ctx, c, stockroom.ReportLotTrace, opts)
}

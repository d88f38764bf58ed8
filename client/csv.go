package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"

	"github.com/stockroom/stockroom"
)

// The CSV exports (Accept: text/csv, contract §13): every record of a list
// (its filters and sort apply, paging does not) streamed to an io.Writer as
// the server writes it, so that an export of a million lots holds nothing
// in memory here either. The columns are the record's JSON field names; see
// the API documentation's "CSV exports" for the rule.

// ExportLotsCSV writes the CSV export of the lot list opts selects to w and
// returns the bytes written.
func (c *Client) ExportLotsCSV(ctx context.Context, opts LotListOptions, w io.Writer) (int64, error) {
	return c.ExportCSV(ctx, opts.path(), opts.values(), w)
}

// ExportStockLevelsCSV writes the CSV export of the stock-level list opts
// selects to w and returns the bytes written.
func (c *Client) ExportStockLevelsCSV(ctx context.Context, opts StockLevelListOptions, w io.Writer) (int64, error) {
	return c.ExportCSV(ctx, opts.path(), opts.values(), w)
}

// ExportTransactionsCSV writes the CSV export of the ledger entries opts
// selects to w and returns the bytes written.
func (c *Client) ExportTransactionsCSV(ctx context.Context, opts TransactionListOptions, w io.Writer) (int64, error) {
	return c.ExportCSV(ctx, "Inventory/Transactions", opts.values(), w)
}

// ExportOrdersCSV writes the CSV export of the list of orders of kind
// (purchase, shipping or work orders) opts selects to w, every order of it
// as the list shows it (no lines; totals of the lines the client sees),
// and returns the bytes written.
func (c *Client) ExportOrdersCSV(ctx context.Context, kind stockroom.OrderKind, opts OrderListOptions, w io.Writer) (int64, error) {
	return c.ExportCSV(ctx, opts.path(kind), opts.values(), w)
}

// ExportTransitsCSV writes the CSV export of the transit list opts selects
// to w (each transit's lines one JSON cell) and returns the bytes written.
func (c *Client) ExportTransitsCSV(ctx context.Context, opts TransitListOptions, w io.Writer) (int64, error) {
	return c.ExportCSV(ctx, opts.path(), opts.values(), w)
}

// ExportReportCSV writes every row of report id, run with opts (its flags
// and parameters; paging does not apply), to w as CSV, the report's
// columns the header row, and returns the bytes written.
func (c *Client) ExportReportCSV(ctx context.Context, id stockroom.ReportID, opts ReportOptions, w io.Writer) (int64, error) {
	opts.Page, opts.PageSize = 0, 0
	return c.ExportCSV(ctx, "Report/"+strconv.FormatInt(int64(id), 10), opts.values(id), w)
}

// ErrExportCut is returned when an export ended before its end: the server
// failed after its first row (and closed the connection), or the network
// did. What was written to w is a prefix of the export, not all of it.
var ErrExportCut = errors.New("stockroom: the CSV export was cut short")

// ExportCSV writes the CSV export of the list at path (relative to the
// service root and escaped, such as "Inventory/StockLevels/2", with the
// list's query q) to w and returns the bytes written: for a list the typed
// helpers do not name, such as a report's. A refusal is an *Error, as from
// any call; the token is renewed once after a 401. Nothing is retried once
// rows have been written to w.
func (c *Client) ExportCSV(ctx context.Context, path string, q url.Values, w io.Writer) (int64, error) {
	for renewed := false; ; renewed = true {
		token, err := c.tokens.get(ctx)
		if err != nil {
			return 0, err
		}
		res, err := c.openExport(ctx, c.endpoint(path, q), token)
		if err != nil {
			return 0, fmt.Errorf("stockroom: GET %s: %w", path, err)
		}
		if res.StatusCode == http.StatusOK {
			n, err := io.Copy(w, res.Body)
			res.Body.Close()
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return n, fmt.Errorf("%w after %d bytes: %w", ErrExportCut, n, err)
			}
			return n, err
		}
		body, _ := io.ReadAll(io.LimitReader(res.Body, maxResponseBytes))
		res.Body.Close()
		if res.StatusCode == http.StatusUnauthorized && !renewed {
			c.tokens.invalidate(token)
			continue
		}
		return 0, errorFrom(res.StatusCode, res.Header, body)
	}
}

// openExport sends the GET of an export and returns the answer, its body
// unread.
func (c *Client) openExport(ctx context.Context, target, token string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/csv")
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("Authorization", "Bearer "+token)
	return c.httpClient.Do(req)
}

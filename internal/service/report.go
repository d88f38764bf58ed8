package service

import (
	"context"

	"github.com/stockroom/stockroom"
)

// Reports (contract §13). The specification gives reports no SecurityID:
// running one needs a token and the right to that report (the client's
// report rights, granted by `client add/update --reports`), and listing
// them needs only a token, for the list holds only the reports the client
// may run.

// reportStore runs reports.
type reportStore interface {
	// RunReport runs a report in one snapshot, passing each row of the
	// run's window to emit, and returns how many rows the report has.
	RunReport(ctx context.Context, r stockroom.ReportRun, emit func(stockroom.ReportRow) error) (int64, error)
}

// ListReports returns a page of the reports the client may run.
func (s *Service) ListReports(ctx context.Context, p *stockroom.Principal, req Request[stockroom.PageRequest]) (stockroom.Page[stockroom.Report], error) {
	if err := s.admitPage(p, req); err != nil {
		return stockroom.Page[stockroom.Report]{}, err
	}
	var may []stockroom.Report
	for _, r := range stockroom.Reports {
		if p.MayRun(r.ReportID) {
			may = append(may, r)
		}
	}
	page := stockroom.Page[stockroom.Report]{Items: []stockroom.Report{}, Total: int64(len(may)), Page: req.In.Page, PageSize: req.In.PageSize}
	if off := req.In.Offset(); off < int64(len(may)) {
		page.Items = may[off:min(int64(len(may)), off+req.In.PageSize)]
	}
	return page, nil
}

// RunReport runs a report for the client, passing the rows of the page it
// asks for to emit, and returns the number of rows the report has. Its
// checks, in order: a token (admit); a report that does not exist is
// not found, for anyone (the catalogue is public); one the client may not
// run is 403 Report access denied.; its parameters (400, all at once); the
// warehouse it names (scope, 403/404). Its rows follow the client's
// warehouse and owner scope (reportScope).
func (s *Service) RunReport(ctx context.Context, p *stockroom.Principal, req Request[stockroom.ReportQuery], emit func(stockroom.ReportRow) error) (int64, error) {
	run, err := s.admitReport(ctx, p, req)
	if err != nil {
		return 0, err
	}
	run.Offset, run.Limit = req.In.Page.Offset(), req.In.Page.PageSize
	return s.db.RunReport(ctx, run, emit)
}

// ExportReport runs a report for the client as RunReport does, with the
// same checks, and passes every row of it to emit, paging ignored (a CSV
// export, contract §13; the command line's report). Nothing is passed on
// when the run is refused.
func (s *Service) ExportReport(ctx context.Context, p *stockroom.Principal, req Request[stockroom.ReportQuery], emit func(stockroom.ReportRow) error) error {
	run, err := s.admitReport(ctx, p, req)
	if err != nil {
		return err
	}
	_, err = s.db.RunReport(ctx, run, emit)
	return err
}

// admitReport makes the checks of a run of a report, in RunReport's order,
// and returns the run without a window.
func (s *Service) admitReport(ctx context.Context, p *stockroom.Principal, req Request[stockroom.ReportQuery]) (stockroom.ReportRun, error) {
	if err := s.admit(p, 0, false, &req); err != nil {
		return stockroom.ReportRun{}, err
	}
	if err := req.missing(); err != nil {
		return stockroom.ReportRun{}, err
	}
	q := req.In
	if !p.MayRun(q.ID) {
		return stockroom.ReportRun{}, stockroom.Errorf(stockroom.EFORBIDDEN, stockroom.MsgReportDenied)
	}
	if err := req.problems(); err != nil {
		return stockroom.ReportRun{}, err
	}
	run := stockroom.ReportRun{Report: q.ID, Params: q.Params, Now: s.now()}
	var err error
	run.Warehouses, run.Owners, err = s.reportScope(ctx, p, q.Params.WID)
	return run, err
}

// ReportPage runs a report for the client and returns the page of rows it
// asks for (RunReport).
func (s *Service) ReportPage(ctx context.Context, p *stockroom.Principal, req Request[stockroom.ReportQuery]) (stockroom.Page[stockroom.ReportRow], error) {
	page := stockroom.Page[stockroom.ReportRow]{Items: []stockroom.ReportRow{}, Page: req.In.Page.Page, PageSize: req.In.Page.PageSize}
	var err error
	page.Total, err = s.RunReport(ctx, p, req, func(row stockroom.ReportRow) error {
		page.Items = append(page.Items, row)
		return nil
	})
	return page, err
}

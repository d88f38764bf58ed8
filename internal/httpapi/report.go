package httpapi

import (
	"cmp"
	"net/http"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// handleReportList serves GET /Report: the reports the client may run.
func (s *Server) handleReportList(w http.ResponseWriter, r *http.Request) error {
	page, err := s.svc.ListReports(r.Context(), principalFrom(r.Context()), pageOnly(r))
	if err != nil {
		return err
	}
	writePage(w, page)
	return nil
}

// handleReportRun serves GET /Report/{id}: a page of the report's rows,
// or with Accept: text/csv every row as CSV, the report's columns the
// header (export.go).
func (s *Server) handleReportRun(w http.ResponseWriter, r *http.Request) error {
	req := reportRequest(r)
	if wantsCSV(r) {
		report, _ := stockroom.FindReport(req.In.ID) // none: the service refuses before any row
		file := csvFile{name: "report-" + strconv.FormatInt(int64(report.ReportID), 10) + ".csv", header: report.Columns}
		return writeCSV(s, w, r, file, func(fn func([]string) error) error {
			return s.svc.ExportReport(r.Context(), principalFrom(r.Context()), req, func(row stockroom.ReportRow) error {
				return fn(row.Cells())
			})
		})
	}
	page, err := s.svc.ReportPage(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	writePage(w, page)
	return nil
}

// reportRequest reads a run of a report: its id (one that names no report
// is not found), the paging parameters with pages of up to
// stockroom.MaxReportPageSize rows and count a synonym of pageSize, flags,
// and the report's own parameters, read by the report
// (Report.ParseParams).
func reportRequest(r *http.Request) service.Request[stockroom.ReportQuery] {
	q, readErr := queryOf(r)
	var in stockroom.ReportQuery
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	report, found := stockroom.FindReport(stockroom.ReportID(id))
	if err != nil || !found {
		readErr = cmp.Or(readErr, error(stockroom.Errorf(stockroom.ENOTFOUND, "No report %q.", r.PathValue("id"))))
	}
	in.ID = report.ReportID
	count, byCount := q.get("count")
	if _, ok := q.get("pageSize"); ok {
		byCount = false
	}
	if byCount {
		q = withParam(q, "pageSize", count)
	}
	page, perr := parsePageUpTo(q, stockroom.MaxReportPageSize)
	if e, ok := perr.(*stockroom.Error); ok && byCount && e.Details["pageSize"] != nil {
		e.Details["count"] = e.Details["pageSize"]
		delete(e.Details, "pageSize")
	}
	v := validationOf(perr)
	in.Page = page
	in.Flags, _ = q.get("flags")
	if found {
		var err error
		in.Params, err = report.ParseParams(q.get)
		v.Merge(err)
	}
	return readRequest(r, in, v, readErr)
}

// withParam is q with one more parameter.
func withParam(q query, name, value string) query {
	out := make(query, len(q)+1)
	for k, v := range q {
		out[k] = v
	}
	out[strings.ToLower(name)] = value
	return out
}

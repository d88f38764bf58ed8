package main

import (
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/csvexport"
	"github.com/stockroom/stockroom/internal/service"
)

// operator is who runs a report from the command line: whoever can reach
// the database is its administrator, and sees every warehouse, owner and
// report.
var operator = &stockroom.Principal{ClientID: "operator", Name: "operator", Scope: stockroom.Scope{All: true},
	Owners: stockroom.Scope{All: true}, Reports: stockroom.Scope{All: true}}

// rowWriter writes a report's rows as they come, in one format.
type rowWriter interface {
	row(stockroom.ReportRow) error
	flush() error
}

// jsonLines writes each row as one line of JSON.
type jsonLines struct{ enc *json.Encoder }

func (w jsonLines) row(r stockroom.ReportRow) error { return w.enc.Encode(r) }
func (w jsonLines) flush() error                    { return nil }

// csvRows writes the rows as CSV after the header row of the report's
// columns, as GET /Report/{id} does with Accept: text/csv.
type csvRows struct{ w *csvexport.Writer }

func (w csvRows) row(r stockroom.ReportRow) error { return w.w.Write(r.Cells()) }
func (w csvRows) flush() error                    { return w.w.Close() }

// newRowWriter is the writer of a report's rows on out: CSV with the
// report's columns, or JSON lines.
func newRowWriter(out io.Writer, csv bool, report stockroom.Report) (rowWriter, error) {
	if !csv {
		return jsonLines{json.NewEncoder(out)}, nil
	}
	w, err := csvexport.NewWriter(out, nil, report.Columns)
	return csvRows{w}, err
}

// runReport runs `stockroom report ID [--PARAMETER VALUE]...`: every row of
// the report, streamed as it is read, from one snapshot of the database.
func runReport(ctx context.Context, e env, args []string) error {
	fs, dsn := newFlags("report")
	params := map[string]*string{}
	for _, r := range stockroom.Reports {
		for _, p := range r.Parameters {
			if params[p.Name] == nil {
				params[p.Name] = fs.String(p.Name, "", "report parameter "+p.Name+" ("+p.Type+")")
			}
		}
	}
	flags := fs.String("flags", "", "the report's flags")
	asCSV := fs.Bool("csv", false, "write CSV (a header row of the report's columns, then the rows) instead of JSON lines")
	var id string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		id, args = args[0], args[1:]
	}
	var req service.Request[stockroom.ReportQuery]
	check := func() error {
		n, err := strconv.ParseInt(id, 10, 64)
		report, ok := stockroom.FindReport(stockroom.ReportID(n))
		if err != nil || !ok {
			return usageFor(fs, "want a report id first: one of %s", reportIDs())
		}
		req.In = stockroom.ReportQuery{ID: report.ReportID, Flags: *flags, Page: stockroom.PageRequest{Page: 1}}
		req.In.Params, err = report.ParseParams(func(name string) (string, bool) {
			v := *params[name]
			return v, v != ""
		})
		req.Problems.Merge(err)
		return nil
	}
	return withService(ctx, e, args, serviceFlags{fs: fs, dsn: dsn, check: check}, func(svc *service.Service) error {
		report, _ := stockroom.FindReport(req.In.ID)
		w, err := newRowWriter(e.stdout, *asCSV, report)
		if err != nil {
			return err
		}
		if err := svc.ExportReport(ctx, operator, req, w.row); err != nil {
			return err
		}
		return w.flush()
	})
}

// reportIDs lists the catalogue's ids.
func reportIDs() string {
	ids := make([]string, len(stockroom.Reports))
	for i, r := range stockroom.Reports {
		ids[i] = strconv.FormatInt(int64(r.ReportID), 10) + " (" + r.ReportName + ")"
	}
	return strings.Join(ids, ", ")
}

package stockroom

import (
	"strconv"
	"strings"
	"time"
)

// ReportParams are a report's own parameters, read and validated
// (Report.ParseParams); a report reads those it lists and no other.
type ReportParams struct {
	// WID narrows a report to one warehouse; 0: every warehouse in scope.
	WID int64
	// From and To bound a period, [From, To).
	From, To time.Time
	// Days is Expiring Lots' horizon.
	Days int64
	// Serial or RecNo is what Lot Trace follows.
	Serial string
	RecNo  int64
}

// MaxReportDays bounds Expiring Lots' days (about 100 years).
const MaxReportDays = 36500

// ReportQuery is one run of a report as a client asks for it: which, its
// page, its flags and its parameters.
type ReportQuery struct {
	ID     ReportID
	Page   PageRequest
	Flags  string
	Params ReportParams
}

// ParseParams reads the report's parameters with get (a query parameter by
// name, in any letter case): each one's problem is reported under its
// name, all at once, as the contract's validation_error; parameters the
// report does not list are ignored, as unknown query parameters are.
func (r Report) ParseParams(get func(name string) (string, bool)) (ReportParams, error) {
	var (
		p ReportParams
		v Validation
	)
	for _, par := range r.Parameters {
		s, ok := get(par.Name)
		s = strings.TrimSpace(s)
		if !ok || s == "" {
			if par.Required {
				v.Add(par.Name, "is required")
			}
			continue
		}
		if err := p.set(par, s); err != "" {
			v.Add(par.Name, err)
		}
	}
	r.checkParams(&p, &v)
	return p, v.Err()
}

// set reads one parameter's text into p, returning what is wrong with it.
func (p *ReportParams) set(par ReportParameter, s string) string {
	switch par.Type {
	case "datetime":
		t, err := ParseTime(s)
		if err != nil {
			return err.Error()
		}
		if par.Name == "from" {
			p.From = t
		} else {
			p.To = t
		}
	case "integer":
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return "must be an integer"
		}
		return p.setInt(par.Name, n)
	default:
		p.Serial = s
	}
	return ""
}

// setInt sets an integer parameter, returning what is wrong with it.
func (p *ReportParams) setInt(name string, n int64) string {
	switch name {
	case "wid":
		if n < 1 {
			return "must be 1 or greater"
		}
		p.WID = n
	case "days":
		if n < 0 || n > MaxReportDays {
			return "must be from 0 to " + strconv.Itoa(MaxReportDays)
		}
		p.Days = n
	default:
		if n < 1 {
			return "must be 1 or greater"
		}
		p.RecNo = n
	}
	return ""
}

// checkParams judges the parameters together: a period must end after it
// begins; Lot Trace follows a serial or a lot, exactly one.
func (r Report) checkParams(p *ReportParams, v *Validation) {
	if !p.From.IsZero() && !p.To.IsZero() && !p.To.After(p.From) {
		v.Add("to", "must be after from")
	}
	if r.ReportID == ReportLotTrace && !v.Has("recNo") && (p.Serial == "") == (p.RecNo == 0) {
		msg := "give serial or recNo"
		if p.Serial != "" {
			msg += ", not both"
		}
		v.Add("serial", msg)
	}
}

// ReportRun is a run of a report as the service judged it, for the store:
// the report, its parameters, the scope of its rows and the window of them
// wanted.
type ReportRun struct {
	Report ReportID
	Params ReportParams
	// Warehouses are the warehouses the rows may come from: the client's
	// scope, or the one warehouse the run names.
	Warehouses Scope
	// Owners are the owners whose stock the rows may show; nil: every
	// owner.
	Owners *Scope
	// Now is the moment ages and expiries count to.
	Now time.Time
	// Offset and Limit are the window of rows wanted; Limit 0 is every row
	// from Offset.
	Offset, Limit int64
}

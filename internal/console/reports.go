package console

import (
	"net/http"
	"net/url"

	"github.com/stockroom/stockroom"
)

func (h *Handler) reports(w http.ResponseWriter, r *http.Request, s *session) {
	h.reportsScreen(w, r, s, answer{Status: http.StatusOK})
}

// reportsScreen lists the reports the client may run, with a refused
// download's message when a is one.
func (h *Handler) reportsScreen(w http.ResponseWriter, r *http.Request, s *session, a answer) {
	var list stockroom.Envelope[stockroom.Report]
	if l := h.get(r, s, "/api/v1/Report", url.Values{"pageSize": {"100"}}, &list); !l.ok() || a.ok() {
		a = l
	}
	h.screen(w, r, s, a, &view{page: "reports", Title: "Reports", Nav: "reports", Data: list.Value})
}

// reportCSV downloads a report as the API's own CSV export of it
// (GET /Report/{id} with Accept: text/csv: every row, one snapshot),
// streamed from the API's handler to the browser as it is written. The
// form's empty fields are parameters not given. A refusal, which the API
// answers before its first row, is shown on the reports screen.
func (h *Handler) reportCSV(w http.ResponseWriter, r *http.Request, s *session) {
	q := url.Values{}
	for k, vs := range r.URL.Query() {
		if k != "page" && k != "pageSize" && len(vs) > 0 && vs[0] != "" {
			q.Set(k, vs[0])
		}
	}
	path := "/api/v1/Report/" + url.PathEscape(r.PathValue("id"))
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	req, err := h.apiRequest(r, s.token, http.MethodGet, path, nil)
	if err != nil {
		h.reportsScreen(w, r, s, answer{Status: http.StatusInternalServerError, Err: &stockroom.ErrorBody{Message: stockroom.MsgInternal}})
		return
	}
	req.Header.Set("Accept", "text/csv")
	out := &passThrough{w: w, rec: recorder{header: http.Header{}}}
	h.api.ServeHTTP(out, req)
	if !out.passed {
		h.reportsScreen(w, r, s, out.rec.answer())
	}
}

// passThrough hands a 200 answer on to the browser as the API writes it
// (its type and file name with it) and keeps any other for the console
// to show.
type passThrough struct {
	w      http.ResponseWriter
	rec    recorder
	passed bool
}

func (p *passThrough) Header() http.Header { return p.rec.header }

func (p *passThrough) WriteHeader(code int) {
	if p.passed || p.rec.status != 0 {
		return
	}
	if code != http.StatusOK {
		p.rec.WriteHeader(code)
		return
	}
	for _, k := range []string{"Content-Type", "Content-Disposition"} {
		if v := p.rec.header.Get(k); v != "" {
			p.w.Header().Set(k, v)
		}
	}
	p.passed = true
	p.w.WriteHeader(code)
}

func (p *passThrough) Write(b []byte) (int, error) {
	p.WriteHeader(http.StatusOK)
	if p.passed {
		return p.w.Write(b)
	}
	return p.rec.Write(b)
}

// Unwrap lets the export's http.ResponseController flush to the browser
// and set its write deadlines on the browser's connection.
func (p *passThrough) Unwrap() http.ResponseWriter { return p.w }

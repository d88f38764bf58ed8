package console

import (
	"bytes"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/stockroom/stockroom"
)

// view is what a page template is given.
type view struct {
	// page is the template.
	page  string
	Title string
	// Nav names the menu entry of the screen.
	Nav  string
	CSRF string
	// Flash says what the last action did; Error why a screen is empty.
	Flash, Error string
	// Live: the page follows the change feed (live.go, console.js).
	Live bool
	Data any
}

type pageTemplate = template.Template

var funcs = template.FuncMap{
	"lower": strings.ToLower,
	"cell":  cellText,
	"keys":  sortedKeys,
}

// parsePages parses each page template with the layout.
func parsePages() map[string]*pageTemplate {
	base := template.Must(template.New("layout.html").Funcs(funcs).ParseFS(templateFiles, "templates/layout.html"))
	names, err := fs.Glob(templateFiles, "templates/*.html")
	if err != nil {
		panic(err)
	}
	pages := map[string]*pageTemplate{}
	for _, n := range names {
		name := strings.TrimSuffix(path.Base(n), ".html")
		if name == "layout" {
			continue
		}
		pages[name] = template.Must(template.Must(base.Clone()).ParseFS(templateFiles, n))
	}
	return pages
}

// render writes a page with its status. A page that fails to render is
// logged and answered with the API's internal-error sentence.
func (h *Handler) render(w http.ResponseWriter, r *http.Request, status int, name string, v *view) {
	var buf bytes.Buffer
	if err := h.pages[name].ExecuteTemplate(&buf, "layout.html", v); err != nil {
		h.logger.Error("console: page failed to render", "page", name, "error", err)
		http.Error(w, stockroom.MsgInternal, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// screen renders a signed-in page, or, when the API no longer knows the
// session's token (expired, revoked, client disabled), asks to sign in.
func (h *Handler) screen(w http.ResponseWriter, r *http.Request, s *session, a answer, v *view) {
	if a.Status == http.StatusUnauthorized {
		h.toSignIn(w, r)
		return
	}
	v.CSRF = s.csrf
	if v.Flash == "" {
		v.Flash = r.URL.Query().Get("done")
	}
	status := http.StatusOK
	if !a.ok() {
		status, v.Error = a.Status, a.message()
	}
	h.render(w, r, status, v.page, v)
}

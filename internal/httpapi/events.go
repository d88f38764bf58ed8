package httpapi

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// handleEvents serves GET /Events: the change feed after a cursor, with an
// optional long-poll wait.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) error {
	q, readErr := queryOf(r)
	var v stockroom.Validation
	in := service.EventQuery{Limit: stockroom.DefaultEventLimit}
	after, _ := q.get("after")
	in.After = stockroom.ParseEventCursor(after, "after", &v)
	if s, ok := q.get("limit"); ok {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > stockroom.MaxEventLimit {
			v.Add("limit", "must be an integer from 1 to "+strconv.Itoa(stockroom.MaxEventLimit))
		}
		in.Limit = n
	}
	if s, ok := q.get("types"); ok {
		in.Types = stockroom.ParseEventTypes(s, "types", &v)
	}
	if s, ok := q.get("wait"); ok {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 0 || n > int(stockroom.MaxEventWait/time.Second) {
			v.Add("wait", "must be a whole number of seconds from 0 to 60")
		}
		in.Wait = time.Duration(n) * time.Second
	}
	page, err := s.svc.ListEvents(r.Context(), principalFrom(r.Context()), readRequest(r, in, v, readErr))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, page)
	return nil
}

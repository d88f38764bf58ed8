package console

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// liveWait is how long one read of the feed waits for a change; between
// reads the stream sends a comment, which keeps proxies from closing it.
const liveWait = 25 * time.Second

// liveChange is what the stream tells a page of a burst of changes: their
// event types and subjects, for the page to see whether it shows them.
type liveChange struct {
	Types    []stockroom.EventType `json:"types"`
	Subjects []string              `json:"subjects"`
}

// live streams Server-Sent Events: one message per read of the change feed
// that found changes the client sees, followed from the feed's position
// when the page opened. The reads are the feed's own (service.ListEvents,
// with the client's scope, woken by any commit, on PostgreSQL of any
// instance), so a figure changed anywhere reaches the page within the
// feed's latency, and no list is polled.
func (h *Handler) live(w http.ResponseWriter, r *http.Request, s *session) {
	ctx := r.Context()
	p, err := h.svc.Authenticate(ctx, s.token)
	if err != nil {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	cursor, err := h.svc.EventHead(ctx, p)
	if err != nil {
		// No permission to read the feed: 204 tells EventSource not to
		// come back.
		w.WriteHeader(http.StatusNoContent)
		return
	}
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprint(w, "retry: 1000\n\n")
	for ctx.Err() == nil {
		_ = rc.SetWriteDeadline(time.Now().Add(liveWait + 30*time.Second))
		if err := rc.Flush(); err != nil {
			return
		}
		if p, err = h.svc.Authenticate(ctx, s.token); err != nil {
			fmt.Fprint(w, "event: signedout\ndata: {}\n\n")
			_ = rc.Flush()
			return
		}
		page, err := h.svc.ListEvents(ctx, p, service.Request[service.EventQuery]{
			In: service.EventQuery{After: cursor, Limit: stockroom.MaxEventLimit, Wait: liveWait}})
		switch {
		case stockroom.ErrorCode(err) == stockroom.ECURSOREXPIRED:
			if cursor, err = h.svc.EventHead(ctx, p); err != nil {
				return
			}
			continue
		case err != nil:
			if ctx.Err() == nil {
				h.logger.Error("console: live stream ended", "error", err)
			}
			return
		}
		var v stockroom.Validation
		cursor = stockroom.ParseEventCursor(page.Cursor, "after", &v)
		if len(page.Value) == 0 {
			fmt.Fprint(w, ": waiting\n\n")
			continue
		}
		var ch liveChange
		for _, e := range page.Value {
			ch.Types = append(ch.Types, e.Type)
			ch.Subjects = append(ch.Subjects, e.Subject.Kind+":"+e.Subject.ID)
		}
		b, _ := json.Marshal(ch)
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
}

package httpapi

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/stockroom/stockroom/internal/ratelimit"
)

// Budgets of contract §8, named as in the metrics and keyed as in the
// limiter: an authenticated client's, a remote address's (requests that carry
// no valid token, and token requests), and a client id's on POST /Token.
const (
	budgetClient  = "client"
	budgetAddress = "address"
	budgetToken   = "token"
)

// rateLimited is the error of a refused request. writeError writes it as the
// contract's 429: only a message, and Retry-After.
type rateLimited struct {
	res ratelimit.Result
}

func (e *rateLimited) Error() string {
	return fmt.Sprintf("Rate limit exceeded. Limit: %d requests per minute.", e.res.Limit)
}

// limit takes one request from a budget. It returns a *rateLimited error when
// the budget is spent. With headers, the response carries the budget's
// X-RateLimit-* headers, as every authenticated response does.
func (s *Server) limit(w http.ResponseWriter, r *http.Request, budget, id string, headers bool) error {
	if s.limiter == nil {
		return nil
	}
	res := s.limiter.Allow(r.Context(), budget+":"+id)
	if headers {
		h := w.Header()
		h.Set("X-RateLimit-Limit", strconv.Itoa(res.Limit))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(res.Remaining))
		h.Set("X-RateLimit-Reset", strconv.Itoa(ceilSeconds(res.ResetAfter)))
	}
	if res.Allowed {
		return nil
	}
	s.metrics.RateLimited(budget)
	return &rateLimited{res}
}

// writeRateLimited writes the contract's 429.
func writeRateLimited(w http.ResponseWriter, e *rateLimited) {
	w.Header().Set("Retry-After", strconv.Itoa(max(1, ceilSeconds(e.res.RetryAfter))))
	writeJSON(w, http.StatusTooManyRequests, struct {
		Message string `json:"message"`
	}{e.Error()})
}

func ceilSeconds(d time.Duration) int {
	return int(math.Ceil(d.Seconds()))
}

// remoteAddr is the address a request's address budget is kept under: the
// peer's IP, or, behind a proxy named with Config.RealIPHeader, the last
// address that header lists (the one the nearest proxy added).
func (s *Server) remoteAddr(r *http.Request) string {
	if s.realIPHeader != "" {
		if v := r.Header.Values(s.realIPHeader); len(v) > 0 {
			last := v[len(v)-1]
			if i := strings.LastIndexByte(last, ','); i >= 0 {
				last = last[i+1:]
			}
			if ip := net.ParseIP(strings.TrimSpace(last)); ip != nil {
				return ip.String()
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

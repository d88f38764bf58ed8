package httpapi

import (
	"fmt"
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/stockroom/stockroom/internal/ratelimit"
)

// Budgets of contract §8, named as in the metrics and keyed as in the
// limiter: an authenticated client's, a remote address's (requests that carry
// no valid token, and token requests), and the failures of a client id from
// one address on POST /Token (§14).
const (
	budgetClient  = "client"
	budgetAddress = "address"
	budgetToken   = "token"
)

// tokenFailureCost is what a failed token request spends of its client id's
// budget at its address: ten requests, so that with the default 100 a
// minute a client id may fail 10 times a minute from one address (once a
// minute under a limit of 10 or less). Requests that succeed spend nothing of
// it, and no other address's failures touch it.
const tokenFailureCost = 10

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

// checkFailures refuses a token request for a client id whose failures from
// this address have spent their budget, without spending anything: only a
// failure is charged, afterwards, by chargeFailure.
func (s *Server) checkFailures(r *http.Request, key string) error {
	if s.limiter == nil {
		return nil
	}
	res := s.limiter.Peek(r.Context(), budgetToken+":"+key, tokenFailureCost)
	if res.Allowed {
		return nil
	}
	s.metrics.RateLimited(budgetToken)
	return &rateLimited{res}
}

// chargeFailure spends a failed token request's cost.
func (s *Server) chargeFailure(r *http.Request, key string) {
	if s.limiter != nil {
		s.limiter.AllowN(r.Context(), budgetToken+":"+key, tokenFailureCost)
	}
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
// address that header lists (the one the nearest proxy added). See
// addressKey for how an address is counted.
func (s *Server) remoteAddr(r *http.Request) string {
	if s.realIPHeader != "" {
		if v := r.Header.Values(s.realIPHeader); len(v) > 0 {
			last := v[len(v)-1]
			if i := strings.LastIndexByte(last, ','); i >= 0 {
				last = last[i+1:]
			}
			if ip, err := netip.ParseAddr(strings.TrimSpace(last)); err == nil {
				return addressKey(ip)
			}
		}
	}
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return addressKey(ap.Addr())
}

// addressKey is what an address's budget is kept under: an IPv4 address
// (also one written as IPv4-mapped IPv6) itself, an IPv6 address its /64
// (contract §14), the least a subscriber is given, so that one holder of a
// network cannot take a fresh budget for each of its 2^64 addresses.
func addressKey(ip netip.Addr) string {
	ip = ip.Unmap().WithZone("")
	if ip.Is4() {
		return ip.String()
	}
	p, _ := ip.Prefix(64)
	return p.String()
}

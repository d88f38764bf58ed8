// Package httpapi serves Stockroom's JSON API over HTTP: routing, the request
// pipeline (request ids, access log, panic recovery, body limit, bearer
// authentication, permission checks) and the translation between JSON and the
// service's types.
package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/rs/cors"
	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/docs"
	"github.com/stockroom/stockroom/internal/metrics"
	"github.com/stockroom/stockroom/internal/ratelimit"
	"github.com/stockroom/stockroom/internal/service"
)

// MaxBodyBytes is the largest request body accepted.
const MaxBodyBytes = 1 << 20

// Config configures a Server.
type Config struct {
	Service *service.Service
	Logger  *slog.Logger
	// RequestTimeout bounds the work of one request, database waits included;
	// 30 s when zero.
	RequestTimeout time.Duration
	// ExportTimeout bounds a CSV export (Accept: text/csv) in place of
	// RequestTimeout; DefaultExportTimeout when zero.
	ExportTimeout time.Duration
	// Limiter keeps the rate limit's budgets; nil serves without a limit.
	Limiter ratelimit.Limiter
	// RealIPHeader names a header (such as X-Forwarded-For) that a trusted
	// proxy in front sets to the client's address; its last address then
	// stands for the client in the per-address budget. Empty: the peer's
	// address.
	RealIPHeader string
	// Metrics records requests, refusals and stock transactions; nil records
	// nothing.
	Metrics *metrics.Metrics
	// CORSOrigins are the browser origins allowed to call the API (exact
	// origins, or "*"); none: no CORS at all (contract §15).
	CORSOrigins []string
}

// Server is the API's http.Handler.
type Server struct {
	svc     *service.Service
	logger  *slog.Logger
	timeout time.Duration
	// exportTimeout bounds a CSV export instead (export.go); exports are
	// the patterns of the routes that make them.
	exportTimeout time.Duration
	exports       map[string]bool
	limiter       ratelimit.Limiter
	realIPHeader  string
	metrics       *metrics.Metrics
	cors          *cors.Cors
	docs          http.Handler
	mux           *http.ServeMux
	// segments maps lower-cased literal path segments of the routes to their
	// canonical spelling, for clients that do not match the documented case.
	segments map[string]string
	// literals maps each route path without wildcards to the methods it
	// allows, as the Allow header lists them.
	literals map[string][]string
	// writes are this instance's writes under way, which exports give way
	// to (giveway.go).
	writes writeActivity
}

// New returns a Server with every route registered.
func New(cfg Config) *Server {
	s := &Server{
		svc:           cfg.Service,
		logger:        cfg.Logger,
		timeout:       cfg.RequestTimeout,
		exportTimeout: cfg.ExportTimeout,
		exports:       map[string]bool{},
		limiter:       cfg.Limiter,
		realIPHeader:  http.CanonicalHeaderKey(cfg.RealIPHeader),
		metrics:       cfg.Metrics,
		cors:          newCORS(cfg.CORSOrigins),
		docs:          docs.Handler("/api/v1/openapi.json"),
		mux:           http.NewServeMux(),
		segments:      map[string]string{},
		literals:      map[string][]string{},
	}
	if s.logger == nil {
		s.logger = slog.New(slog.DiscardHandler)
	}
	if s.timeout <= 0 {
		s.timeout = 30 * time.Second
	}
	if s.exportTimeout <= 0 {
		s.exportTimeout = DefaultExportTimeout
	}
	if s.metrics != nil {
		s.metrics.AddCounterFunc("stockroom_export_rest_seconds_total",
			"Time CSV exports spent giving way to this instance's writes (resting between batches of rows while a write was under way).",
			func() float64 { return time.Duration(s.writes.rested.Load()).Seconds() })
	}
	for _, rt := range s.routes() {
		s.mux.Handle(rt.pattern, s.endpoint(rt))
		s.exports[rt.pattern] = rt.export
		method, routePath, _ := strings.Cut(rt.pattern, " ")
		for seg := range strings.SplitSeq(routePath, "/") {
			if seg != "" && !strings.HasPrefix(seg, "{") {
				s.segments[strings.ToLower(seg)] = seg
			}
		}
		if !strings.Contains(routePath, "{") {
			s.literals[routePath] = append(s.literals[routePath], method)
			if method == http.MethodGet {
				s.literals[routePath] = append(s.literals[routePath], http.MethodHead)
			}
			slices.Sort(s.literals[routePath])
		}
	}
	return s
}

// ServeHTTP runs the pipeline every request passes, routed or not.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	info := &reqInfo{id: requestID(r.Header.Get("X-Request-ID")), body: r.Body, conn: http.NewResponseController(w)}
	w.Header().Set("X-Request-ID", info.id)
	w.Header().Set("X-API-Version", "v1")
	info.strict = prefersStrict(r.Header.Values("Prefer"))
	sw := &statusWriter{ResponseWriter: w, info: info}

	ctx, cancel := context.WithCancel(withInfo(r.Context(), info))
	defer cancel()
	if isWrite(r.Method) {
		s.writes.begin()
		defer s.writes.end()
	}
	r = r.WithContext(ctx)
	r.Body = http.MaxBytesReader(sw, r.Body, MaxBodyBytes)

	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				// An export aborted mid-stream (export.go): logged here,
				// then the connection closed by net/http.
				defer panic(v)
			} else {
				s.logPanic(ctx, info, v)
				if sw.status == 0 {
					s.writeError(sw, r, stockroom.Errorf(stockroom.EINTERNAL, stockroom.MsgInternal))
				}
			}
		}
		d, status := time.Since(start), sw.status
		if info.clientGone {
			status = statusClientClosed
		}
		s.logAccess(r, info, status, sw.bytes, d)
		s.metrics.Request(info.route, status, d)
	}()

	if s.cors != nil {
		// A preflight is answered here, before authentication: the
		// browser sends it without the app's headers.
		s.cors.HandlerFunc(sw, r)
		if isPreflight(r) {
			info.route = "OPTIONS (CORS preflight)"
			return
		}
	}
	if r.ContentLength > MaxBodyBytes {
		s.writeError(sw, r, stockroom.Errorf(stockroom.ETOOLARGE, "The request body is larger than 1 MiB."))
		return
	}
	if p := r.URL.EscapedPath(); r.Method != http.MethodConnect && cleanPath(p) != p {
		// The mux would redirect to the clean path, with an HTML page.
		s.writeError(sw, r, stockroom.Errorf(stockroom.ENOTFOUND, "No resource at %s; paths have no empty, . or .. segments.", r.URL.Path))
		return
	}
	_, pattern := s.mux.Handler(r)
	routed := pattern != "" || s.canonicalizePath(r)
	if allow, ok := s.literals[r.URL.Path]; ok && !slices.Contains(allow, r.Method) {
		// A literal path of another method's route, which a wildcard
		// route may have taken (GET /Inventory/Receive as warehouse
		// "Receive").
		s.methodNotAllowed(sw, r, strings.Join(allow, ", "))
		return
	}
	if !routed {
		s.notRouted(sw, r)
		return
	}
	// The deadline is the route's: an export has its own (export.go).
	ctx, cancelRoute := context.WithTimeout(ctx, s.timeoutFor(r))
	defer cancelRoute()
	s.mux.ServeHTTP(sw, r.WithContext(ctx))
}

// logPanic logs a handler's panic with its stack.
func (s *Server) logPanic(ctx context.Context, info *reqInfo, v any) {
	s.logger.LogAttrs(ctx, slog.LevelError, "panic",
		slog.String("request_id", info.id),
		slog.Any("panic", v),
		slog.String("stack", string(debug.Stack())))
}

// timeoutFor is how long a routed request may take: an export's own bound,
// or the request timeout.
func (s *Server) timeoutFor(r *http.Request) time.Duration {
	if _, pattern := s.mux.Handler(r); s.exports[pattern] && wantsCSV(r) {
		return s.exportTimeout
	}
	return s.timeout
}

// cleanPath is the path as the mux cleans it before routing: no empty, "."
// or ".." segments, with a trailing slash kept.
func cleanPath(p string) string {
	if p == "" {
		return "/"
	}
	if p[0] != '/' {
		p = "/" + p
	}
	np := path.Clean(p)
	if p[len(p)-1] == '/' && np != "/" {
		np += "/"
	}
	return np
}

// canonicalizePath rewrites the literal segments of r's path to the case the
// routes use, and reports whether the result routes. It works on the escaped
// path so that an escaped "/" inside a ShortID stays inside its segment.
func (s *Server) canonicalizePath(r *http.Request) bool {
	segs := strings.Split(r.URL.EscapedPath(), "/")
	changed := false
	for i, seg := range segs {
		if c, ok := s.segments[strings.ToLower(seg)]; ok && c != seg {
			segs[i], changed = c, true
		}
	}
	if !changed {
		return false
	}
	escaped := strings.Join(segs, "/")
	path, err := url.PathUnescape(escaped)
	if err != nil {
		return false
	}
	u := *r.URL
	u.Path, u.RawPath = path, escaped
	orig := r.URL
	r.URL = &u
	if _, pattern := s.mux.Handler(r); pattern == "" {
		r.URL = orig
		return false
	}
	return true
}

// notRouted answers a request no route takes: 405 with Allow when the path
// exists under other methods, else 404, both as the error object. The mux
// itself knows which; its answer is captured and rewritten.
func (s *Server) notRouted(w http.ResponseWriter, r *http.Request) {
	h, _ := s.mux.Handler(r)
	rec := &headerRecorder{header: http.Header{}}
	h.ServeHTTP(rec, r)
	if rec.status == http.StatusMethodNotAllowed {
		s.methodNotAllowed(w, r, rec.header.Get("Allow"))
		return
	}
	s.writeError(w, r, stockroom.Errorf(stockroom.ENOTFOUND, "No resource at %s.", r.URL.Path))
}

func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request, allow string) {
	w.Header().Set("Allow", allow)
	s.writeError(w, r, stockroom.Errorf(stockroom.EMETHOD, "Method %s is not allowed here; allowed: %s.", r.Method, allow))
}

// logAccess writes a request's line in the access log: at ERROR for a 5xx,
// at WARN for a client that hung up, else at INFO.
func (s *Server) logAccess(r *http.Request, info *reqInfo, status int, bytes int64, d time.Duration) {
	level := slog.LevelInfo
	switch {
	case status >= 500:
		level = slog.LevelError
	case status == statusClientClosed:
		level = slog.LevelWarn
	}
	s.logger.LogAttrs(r.Context(), level, "request",
		slog.String("request_id", info.id),
		slog.String("method", r.Method),
		slog.String("route", info.route),
		slog.String("path", r.URL.Path),
		slog.Int("status", status),
		slog.Float64("duration_ms", float64(d.Microseconds())/1000),
		slog.Int64("bytes", bytes),
		slog.String("client_id", info.clientID),
		slog.String("remote", r.RemoteAddr))
}

var saneRequestID = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// requestID echoes a client's request id when it is sane, else makes one.
func requestID(given string) string {
	if saneRequestID.MatchString(given) {
		return given
	}
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// statusWriter remembers the status and size of a response for the log,
// and gives it the headers of what reading the request found: the fields
// it ignored, or that it was read strictly (contract §1).
type statusWriter struct {
	http.ResponseWriter
	info   *reqInfo
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
		w.readingHeaders()
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
		w.readingHeaders()
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

func (w *statusWriter) readingHeaders() {
	h := w.Header()
	if len(w.info.ignored) > 0 {
		h.Set("Stockroom-Ignored-Fields", ignoredHeader(w.info.ignored))
	}
	if w.info.strictApplied {
		h.Set("Preference-Applied", "handling=strict")
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// headerRecorder captures the status and headers the mux would send.
type headerRecorder struct {
	header http.Header
	status int
}

func (h *headerRecorder) Header() http.Header         { return h.header }
func (h *headerRecorder) WriteHeader(code int)        { h.status = code }
func (h *headerRecorder) Write(b []byte) (int, error) { return len(b), nil }

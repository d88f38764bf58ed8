package client

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/stockroom/stockroom"
)

// Client calls one Stockroom server with one set of client credentials.
// Create it with New. It is safe for concurrent use; share one per credential
// rather than creating one per request, so that the token and the connection
// pool are reused.
type Client struct {
	base       *url.URL // the service root, ending in /api/v1
	httpClient *http.Client
	userAgent  string

	maxRateLimitWait time.Duration
	maxRetries       int
	retryBackoff     time.Duration
	syncSettle       time.Duration
	syncPageSize     int64

	// now is the client's clock for token lifetimes; tests replace it.
	now    func() time.Time
	tokens *tokenSource
}

// DefaultUserAgent is sent when WithUserAgent is not used, so that server
// logs can tell SDK traffic from other clients.
const DefaultUserAgent = "stockroom-go-client/1"

// Defaults of the options, chosen for unattended integration jobs.
const (
	// DefaultMaxRateLimitWait is how long a call waits out 429 responses in
	// total before it gives up: the specification asks clients to wait 30 to
	// 60 seconds.
	DefaultMaxRateLimitWait = 2 * time.Minute
	// DefaultMaxRetries is how often a call is repeated after a network error
	// or a 502, 503 or 504.
	DefaultMaxRetries = 2
	// DefaultRetryBackoff is the pause before the first such retry; it doubles
	// with each further one.
	DefaultRetryBackoff = 200 * time.Millisecond
	// DefaultSyncSettle is how far behind the server's clock a sync's mark is
	// kept; see WithSyncSettle.
	DefaultSyncSettle = time.Minute
)

// New returns a Client for the server at baseURL that authenticates with the
// given client credentials. baseURL is the service root, such as
// "https://stockroom.example.com/api/v1"; when its path does not end in
// /api/v1, that prefix is appended. No request is made until the first call.
func New(baseURL, clientID, clientSecret string, opts ...Option) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil {
		return nil, fmt.Errorf("stockroom: base URL %q: %w", baseURL, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("stockroom: base URL %q: want http:// or https:// with a host", baseURL)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("stockroom: base URL %q: must not have a query or fragment", baseURL)
	}
	if !strings.HasSuffix(u.Path, "/api/v1") {
		u = u.JoinPath("api", "v1")
	}
	if clientID == "" || clientSecret == "" {
		return nil, fmt.Errorf("stockroom: a client id and a client secret are required")
	}
	c := &Client{
		base:             u,
		httpClient:       http.DefaultClient,
		userAgent:        DefaultUserAgent,
		maxRateLimitWait: DefaultMaxRateLimitWait,
		maxRetries:       DefaultMaxRetries,
		retryBackoff:     DefaultRetryBackoff,
		syncSettle:       DefaultSyncSettle,
		syncPageSize:     stockroom.MaxPageSize,
		now:              time.Now,
	}
	for _, opt := range opts {
		opt(c)
	}
	c.tokens = &tokenSource{client: c, id: clientID, secret: clientSecret}
	return c, nil
}

// Option changes a default of New.
type Option func(*Client)

// WithHTTPClient sends requests through hc instead of http.DefaultClient: for
// a proxy, custom TLS, or an overall per-request Timeout. Per-call deadlines
// are better set on the context.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) {
		if hc != nil {
			c.httpClient = hc
		}
	}
}

// WithUserAgent names your integration in the server's logs.
func WithUserAgent(ua string) Option {
	return func(c *Client) { c.userAgent = ua }
}

// WithMaxRateLimitWait bounds how long one call may spend waiting for the
// rate limit (the sum of the Retry-After pauses it honours). 0 never waits: a
// 429 is returned at once as an *Error with code "rate_limited". A wait that
// would outlast the context's deadline is not started either.
func WithMaxRateLimitWait(d time.Duration) Option {
	return func(c *Client) { c.maxRateLimitWait = max(d, 0) }
}

// WithRetries sets how many times a call is repeated after a network error or
// a 502, 503 or 504 answer, and the pause before the first repeat (doubled
// for each further one). Every call is safe to repeat: reads change nothing,
// PUT and DELETE set a state, and each POST is repeated with the same
// Idempotency-Key. n = 0 turns retries off.
func WithRetries(n int, backoff time.Duration) Option {
	return func(c *Client) { c.maxRetries, c.retryBackoff = max(n, 0), max(backoff, 0) }
}

// WithSyncSettle sets how far behind the server's clock the mark returned by
// the Changes methods is kept. A change is stamped with its modified time
// when its request starts, and may commit up to the server's request timeout
// (30 s by default) later, possibly on another server instance with a
// slightly different clock; a mark closer to the present could pass over it
// for good. The price of the margin is that changes of the last d are
// returned once more by the next sync. 0 trusts the timestamps completely.
func WithSyncSettle(d time.Duration) Option {
	return func(c *Client) { c.syncSettle = max(d, 0) }
}

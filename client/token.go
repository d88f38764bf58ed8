package client

import (
	"context"
	"net/url"
	"sync"
	"time"
)

// Token is a bearer token as POST /Token issued it.
type Token struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	// ExpiresIn is the lifetime the server granted, in seconds.
	ExpiresIn int64 `json:"expires_in"`
	// Expiry is when the token runs out by this machine's clock: the time the
	// token was requested plus ExpiresIn.
	Expiry time.Time `json:"-"`
}

// Token returns the bearer token the client currently uses, requesting one
// from POST /Token first when there is none or it is about to expire. Calls
// of the other methods do this themselves; Token is for handing the token to
// another tool, or for checking the credentials at start-up.
func (c *Client) Token(ctx context.Context) (*Token, error) {
	t, err := c.tokens.current(ctx)
	if err != nil {
		return nil, err
	}
	tok := t.Token
	return &tok, nil
}

// tokenSource keeps the client's token. Concurrent callers that find it
// missing or stale share one token request, so a burst of calls, or a burst
// of 401s after the server revoked the token, costs one POST /Token.
type tokenSource struct {
	client     *Client
	id, secret string

	mu       sync.Mutex
	tok      *heldToken  // nil until the first fetch, and after invalidate
	inflight *tokenFetch // the running fetch, if any
}

// heldToken is a token with the time at which the client starts renewing it.
type heldToken struct {
	Token
	renewAt time.Time
}

// tokenFetch is one token request that several callers may wait for.
type tokenFetch struct {
	done chan struct{}
	tok  *heldToken
	err  error
}

// renewMargin is how long before expiry a token is renewed: a minute, or a
// fifth of the lifetime of short-lived tokens, so that a request sent just
// before expiry does not arrive just after it.
func renewMargin(lifetime time.Duration) time.Duration {
	return min(time.Minute, lifetime/5)
}

// get returns an access token to send.
func (ts *tokenSource) get(ctx context.Context) (string, error) {
	t, err := ts.current(ctx)
	if err != nil {
		return "", err
	}
	return t.AccessToken, nil
}

// current returns a token that is not about to expire, fetching one if
// needed. The fetch is not tied to ctx: a caller that gives up stops
// waiting, but the others still get the token.
func (ts *tokenSource) current(ctx context.Context) (*heldToken, error) {
	ts.mu.Lock()
	if ts.tok != nil && ts.client.now().Before(ts.tok.renewAt) {
		t := ts.tok
		ts.mu.Unlock()
		return t, nil
	}
	f := ts.inflight
	if f == nil {
		f = &tokenFetch{done: make(chan struct{})}
		ts.inflight = f
		go ts.fetch(context.WithoutCancel(ctx), f)
	}
	ts.mu.Unlock()

	select {
	case <-f.done:
		return f.tok, f.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// tokenFetchTimeout bounds a token request beyond any rate-limit wait.
const tokenFetchTimeout = time.Minute

// fetch runs one token request and publishes its result.
func (ts *tokenSource) fetch(ctx context.Context, f *tokenFetch) {
	c := ts.client
	ctx, cancel := context.WithTimeout(ctx, tokenFetchTimeout+c.maxRateLimitWait)
	defer cancel()
	requested := c.now()
	var tok Token
	_, err := c.do(ctx, call{
		method: "POST",
		path:   "Token",
		form: url.Values{
			"grant_type":    {"client_credentials"},
			"client_id":     {ts.id},
			"client_secret": {ts.secret},
		},
		public: true,
	}, &tok)

	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.inflight = nil
	if err != nil {
		f.err = err
	} else {
		lifetime := time.Duration(tok.ExpiresIn) * time.Second
		tok.Expiry = requested.Add(lifetime)
		f.tok = &heldToken{Token: tok, renewAt: tok.Expiry.Add(-renewMargin(lifetime))}
		ts.tok = f.tok
	}
	close(f.done)
}

// invalidate forgets token after the server refused it, unless another
// caller has already replaced it, so that one refusal causes one renewal.
func (ts *tokenSource) invalidate(token string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.tok != nil && ts.tok.AccessToken == token {
		ts.tok = nil
	}
}

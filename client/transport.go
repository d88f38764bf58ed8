package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// call is one logical API call. It may be sent several times (after a 401,
// a 429, a network error or a 503); everything that must stay the same across
// those attempts, the body and the Idempotency-Key, is fixed before the first.
type call struct {
	method string
	// path is relative to the service root and already escaped
	// ("Item/BOLT%2FM8").
	path  string
	query url.Values
	// body is sent as JSON; form is sent form-encoded instead (POST /Token).
	body any
	form url.Values
	// public calls carry no bearer token.
	public bool
}

// maxResponseBytes bounds what is read of one response: far above the
// largest page the server sends, far below what could exhaust memory.
const maxResponseBytes = 64 << 20

// defaultRetryAfter is waited when a 429 carries no Retry-After: the
// specification's advice is 30 to 60 seconds.
const defaultRetryAfter = 30 * time.Second

// do sends a call, waiting out rate limits, renewing the token once on a
// 401 and retrying transport failures, 502/503/504 and a POST's 409 "still
// in progress" within the client's limits, and decodes a 2xx body into out
// (unless out is nil). It returns the headers of the final response.
func (c *Client) do(ctx context.Context, cl call, out any) (http.Header, error) {
	body, contentType, err := cl.encode()
	if err != nil {
		return nil, err
	}
	ex := exchange{method: cl.method, target: c.endpoint(cl.path, cl.query), body: body, contentType: contentType}
	if cl.method == http.MethodPost && !cl.public {
		ex.key = idempotencyKey(ctx)
	}

	var (
		rateWaited time.Duration
		retries    int
		renewed    bool
	)
	for {
		token := ""
		if !cl.public {
			var err error
			if token, err = c.tokens.get(ctx); err != nil {
				return nil, err
			}
		}
		status, header, respBody, err := c.send(ctx, ex, token)
		if err != nil {
			if ctx.Err() == nil && retries < c.maxRetries {
				retries++
				if err := sleep(ctx, c.backoff(retries)); err == nil {
					continue
				}
			}
			return nil, fmt.Errorf("stockroom: %s %s: %w", cl.method, cl.path, err)
		}
		if status >= 200 && status < 300 {
			return header, cl.decode(respBody, out)
		}
		apiErr := errorFrom(status, header, respBody)
		switch {
		case status == http.StatusUnauthorized && !cl.public && !renewed:
			// The token expired or was revoked before we thought: renew once.
			renewed = true
			c.tokens.invalidate(token)
			continue
		case status == http.StatusTooManyRequests:
			wait := apiErr.RetryAfter
			if wait <= 0 {
				wait = defaultRetryAfter
			}
			if rateWaited+wait <= c.maxRateLimitWait && fitsDeadline(ctx, wait) {
				rateWaited += wait
				if err := sleep(ctx, wait+jitter(wait/10)); err != nil {
					return header, fmt.Errorf("stockroom: %s %s: waiting out the rate limit: %w", cl.method, cl.path, err)
				}
				continue
			}
		case (status == http.StatusBadGateway || status == http.StatusServiceUnavailable || status == http.StatusGatewayTimeout ||
			// A 409 with Retry-After on a POST: an earlier attempt with
			// this Idempotency-Key (say, one whose answer the network
			// lost) is still running; its answer will be replayed.
			(status == http.StatusConflict && ex.key != "" && apiErr.RetryAfter > 0)) && retries < c.maxRetries:
			retries++
			wait := max(c.backoff(retries), apiErr.RetryAfter)
			if fitsDeadline(ctx, wait) {
				if err := sleep(ctx, wait); err != nil {
					return header, fmt.Errorf("stockroom: %s %s: waiting to retry after %d: %w", cl.method, cl.path, status, err)
				}
				continue
			}
		}
		return header, apiErr
	}
}

// encode returns the call's body and its Content-Type: a form, JSON, or
// none.
func (cl call) encode() ([]byte, string, error) {
	switch {
	case cl.form != nil:
		return []byte(cl.form.Encode()), "application/x-www-form-urlencoded", nil
	case cl.body != nil:
		body, err := json.Marshal(cl.body)
		if err != nil {
			return nil, "", fmt.Errorf("stockroom: %s %s: encode body: %w", cl.method, cl.path, err)
		}
		return body, "application/json", nil
	}
	return nil, "", nil
}

// decode reads a 2xx body into out, unless out is nil.
func (cl call) decode(body []byte, out any) error {
	if out == nil || len(body) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // free-form numbers (a ledger entry's details) stay exact
	if err := dec.Decode(out); err != nil {
		return fmt.Errorf("stockroom: %s %s: decode response: %w", cl.method, cl.path, err)
	}
	return nil
}

// exchange is the HTTP request of a call, the same at every attempt: its
// method, URL, body and Content-Type, and its Idempotency-Key (if any).
type exchange struct {
	method, target   string
	body             []byte
	contentType, key string
}

// send makes one HTTP exchange, with the bearer token (if any), and reads
// the whole response. An error means no complete response arrived.
func (c *Client) send(ctx context.Context, ex exchange, token string) (int, http.Header, []byte, error) {
	var reader io.Reader
	if ex.body != nil {
		reader = bytes.NewReader(ex.body)
	}
	req, err := http.NewRequestWithContext(ctx, ex.method, ex.target, reader)
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	// The SDK's bodies are the server's own types: a field the server
	// does not know is a bug to hear about, not to have ignored (§1).
	req.Header.Set("Prefer", "handling=strict")
	if ex.contentType != "" {
		req.Header.Set("Content-Type", ex.contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if ex.key != "" {
		req.Header.Set("Idempotency-Key", ex.key)
	}
	res, err := c.httpClient.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, maxResponseBytes))
	if err != nil {
		return 0, nil, nil, err
	}
	return res.StatusCode, res.Header, b, nil
}

// endpoint returns the URL of path (escaped, relative to the service root)
// with the query q. The escaped form is kept, so that a "/" inside a ShortID
// travels as %2F and stays inside its path segment.
func (c *Client) endpoint(path string, q url.Values) string {
	u := *c.base
	u.RawPath = strings.TrimRight(c.base.EscapedPath(), "/") + "/" + path
	if p, err := url.PathUnescape(u.RawPath); err == nil {
		u.Path = p
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// backoff is the pause before the n-th retry (n >= 1) of a failed exchange:
// the configured backoff doubled for each earlier retry, at most 30 s, with
// some jitter so that many clients do not retry in step.
func (c *Client) backoff(n int) time.Duration {
	d := c.retryBackoff << min(n-1, 16)
	d = min(d, 30*time.Second)
	return d + jitter(d/4)
}

// jitter returns a random duration in [0, d).
func jitter(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return rand.N(d)
}

// fitsDeadline reports whether waiting d still leaves ctx time to make the
// request again; waiting longer would only end in a context error instead of
// the server's answer.
func fitsDeadline(ctx context.Context, d time.Duration) bool {
	deadline, ok := ctx.Deadline()
	return !ok || time.Until(deadline) > d
}

// sleep waits d or until ctx is done, whichever is first.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

package service

import (
	"sync"
	"time"

	"github.com/stockroom/stockroom"
)

// authCache remembers recently authenticated tokens for a short time, so most
// requests cost no database look-up for authentication. An entry lives until
// the cache's TTL or the token's expiry, whichever is first, so a client
// disabled or a secret rotated from another process (or server instance)
// stops working within the TTL; changes made through this service take
// effect at once. Only successes are cached: unknown tokens cannot fill it.
type authCache struct {
	ttl time.Duration
	mu  sync.Mutex
	m   map[string]cachedPrincipal // by token hash
}

type cachedPrincipal struct {
	p     *stockroom.Principal
	until time.Time
}

// maxAuthCacheEntries bounds the cache's memory; when full it starts afresh.
const maxAuthCacheEntries = 100_000

func newAuthCache(ttl time.Duration) *authCache {
	return &authCache{ttl: ttl, m: map[string]cachedPrincipal{}}
}

func (c *authCache) get(hash string, now time.Time) *stockroom.Principal {
	if c.ttl <= 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[hash]
	if !ok {
		return nil
	}
	if !now.Before(e.until) {
		delete(c.m, hash)
		return nil
	}
	return e.p
}

func (c *authCache) put(hash string, p *stockroom.Principal, now time.Time) {
	if c.ttl <= 0 {
		return
	}
	until := now.Add(c.ttl)
	if p.Expires.Before(until) {
		until = p.Expires
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= maxAuthCacheEntries {
		clear(c.m)
	}
	c.m[hash] = cachedPrincipal{p: p, until: until}
}

// forget drops every entry of one client.
func (c *authCache) forget(clientID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for h, e := range c.m {
		if e.p.ClientID == clientID {
			delete(c.m, h)
		}
	}
}

// forgetToken drops one token's entry.
func (c *authCache) forgetToken(hash string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, hash)
}

package service

import "sync"

// maxKeyCacheEntries bounds the ShortID cache; when full it starts afresh.
const maxKeyCacheEntries = 200_000

// keyCache maps folded ShortIDs to partNos. Its entries never go stale (items
// are never removed or renamed), so it needs no expiry, only a bound.
type keyCache struct {
	mu  sync.RWMutex
	max int
	m   map[string]int64
}

func newKeyCache(max int) *keyCache { return &keyCache{max: max, m: map[string]int64{}} }

func (c *keyCache) get(key string) (int64, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[key]
	return v, ok
}

func (c *keyCache) put(key string, partNo int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= c.max {
		clear(c.m)
	}
	c.m[key] = partNo
}

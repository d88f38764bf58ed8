package service

import "sync"

// maxKeyCacheEntries bounds each cache; when full it starts afresh.
const maxKeyCacheEntries = 200_000

// keyCache is a bounded map shared by concurrent requests: folded ShortIDs to
// partNos (entries that never go stale: items are never removed or renamed),
// and partNos to default owners (entries that may, and are confirmed where
// used).
type keyCache[K comparable] struct {
	mu  sync.RWMutex
	max int
	m   map[K]int64
}

func newKeyCache[K comparable](max int) *keyCache[K] {
	return &keyCache[K]{max: max, m: map[K]int64{}}
}

func (c *keyCache[K]) get(key K) (int64, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[key]
	return v, ok
}

func (c *keyCache[K]) put(key K, value int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= c.max {
		clear(c.m)
	}
	c.m[key] = value
}

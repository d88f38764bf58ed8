package service

import "sync"

// maxKeyCacheEntries bounds each cache; when full it starts afresh.
const maxKeyCacheEntries = 200_000

// keyCache is a bounded map shared by concurrent requests: folded ShortIDs to
// partNos and folded purchase order numbers to the numbers as stored
// (entries that never go stale: items and orders are never removed or
// renamed), and partNos to default owners (entries that may, and are
// confirmed where used).
type keyCache[K comparable, V any] struct {
	mu  sync.RWMutex
	max int
	m   map[K]V
}

func newKeyCache[K comparable, V any](max int) *keyCache[K, V] {
	return &keyCache[K, V]{max: max, m: map[K]V{}}
}

func (c *keyCache[K, V]) get(key K) (V, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[key]
	return v, ok
}

func (c *keyCache[K, V]) put(key K, value V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= c.max {
		clear(c.m)
	}
	c.m[key] = value
}

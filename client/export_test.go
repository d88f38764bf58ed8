package client

import "time"

// SetClock replaces the clock by which c judges its token's age, so that a
// test can let a token grow old without waiting.
func SetClock(c *Client, now func() time.Time) { c.now = now }

// SetSyncPageSize makes the Changes methods of c read pages of n records, so
// that a test can make a sync span several pages with few records.
func SetSyncPageSize(c *Client, n int64) { c.syncPageSize = n }

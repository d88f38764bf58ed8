package stockroom

import (
	"errors"
	"strings"
	"time"
)

// errBadTime's text is written to be shown after a field name in validation
// details.
var errBadTime = errors.New("must be a date or date-time such as 2025-01-15T09:30:00Z")

// ParseTime reads a datetime as the contract accepts it: RFC 3339 with any
// offset, a date-time without offset (taken as UTC), or a bare date (midnight
// UTC). The result is in UTC.
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, errBadTime
}

// Now returns the current time in UTC truncated to the microsecond, the
// precision both storage engines keep, so a value read back equals the value
// written.
func Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

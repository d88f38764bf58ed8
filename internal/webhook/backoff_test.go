package webhook

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestRetryDelay(t *testing.T) {
	tests := []struct {
		failures int
		base     time.Duration
	}{
		{1, 10 * time.Second},
		{2, 20 * time.Second},
		{3, 40 * time.Second},
		{7, 640 * time.Second},
		{12, 20480 * time.Second}, // 5.7 h
		{13, 6 * time.Hour},
		{100, 6 * time.Hour},
		{math.MaxInt, 6 * time.Hour},
	}
	for _, tt := range tests {
		for key := range uint64(50) {
			got := RetryDelay(tt.failures, key)
			if got < tt.base || got > tt.base+tt.base/10 || got > MaxRetryDelay {
				t.Fatalf("RetryDelay(%d, %d) = %s, want %s plus at most 10%%, at most 6h", tt.failures, key, got, tt.base)
			}
			if again := RetryDelay(tt.failures, key); again != got {
				t.Fatalf("RetryDelay(%d, %d) = %s, then %s", tt.failures, key, got, again)
			}
		}
	}
	if got := RetryDelay(0, 1); got != 0 {
		t.Fatalf("RetryDelay(0) = %s, want 0", got)
	}
}

// Subscriptions to one receiver that failed together retry spread apart.
func TestRetryDelaySpreads(t *testing.T) {
	seen := map[time.Duration]bool{}
	for key := range uint64(100) {
		seen[RetryDelay(5, key)] = true
	}
	if len(seen) < 90 {
		t.Fatalf("100 subscriptions retry at %d distinct times, want nearly 100", len(seen))
	}
}

func TestNextAttempt(t *testing.T) {
	last := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	if got := NextAttempt(3, last, 7); got != last.Add(RetryDelay(3, 7)) {
		t.Fatalf("NextAttempt = %s", got)
	}
}

func TestShouldDisable(t *testing.T) {
	first := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		failures int
		now      time.Time
		want     bool
	}{
		{0, first.Add(100 * time.Hour), false},
		{1, first, false},
		{23, first.Add(72*time.Hour - time.Second), false},
		{23, first.Add(72 * time.Hour), true},
		{999, first.Add(time.Hour), false},
		{1000, first.Add(time.Hour), true},
	}
	for _, tt := range tests {
		if got := ShouldDisable(tt.failures, first, tt.now); got != tt.want {
			t.Errorf("ShouldDisable(%d, first, first+%s) = %v, want %v", tt.failures, tt.now.Sub(first), got, tt.want)
		}
	}
}

// Following the schedule, a receiver that never answers is disabled by the
// three days, after a couple of dozen attempts, long before 1,000.
func TestScheduleReachesThreeDays(t *testing.T) {
	first := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	at, failures := first, 1
	for !ShouldDisable(failures, first, at) {
		at = NextAttempt(failures, at, 42)
		failures++
	}
	if failures > 30 || at.Sub(first) < DisableAfter || at.Sub(first) > DisableAfter+MaxRetryDelay {
		t.Fatalf("disabled after %d failures and %s", failures, at.Sub(first))
	}
}

func TestNewSecret(t *testing.T) {
	a, b := NewSecret(), NewSecret()
	if !strings.HasPrefix(a, "whsec_") || len(a) != len("whsec_")+43 || a == b {
		t.Fatalf("NewSecret = %q, %q: want whsec_ and 43 base64url characters, different each time", a, b)
	}
}

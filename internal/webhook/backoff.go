package webhook

import "time"

// The retry schedule and the disable rule (contract §12).
const (
	// FirstRetryDelay is the wait after a subscription's first failure in a
	// row; each further failure doubles it, up to MaxRetryDelay.
	FirstRetryDelay = 10 * time.Second
	// MaxRetryDelay is the longest wait between two attempts.
	MaxRetryDelay = 6 * time.Hour
	// DisableAfter is how long a subscription may keep failing, from its
	// first failure in a row, before it is disabled.
	DisableAfter = 72 * time.Hour
	// DisableAfterFailures is how many failures in a row disable a
	// subscription however quickly they came.
	DisableAfterFailures = 1000
	// jitterPercent is the most a wait is lengthened, so that subscriptions
	// to one receiver that failed together do not all retry together.
	jitterPercent = 10
)

// RetryDelay is the wait after the failures-th failure in a row before the
// next attempt: FirstRetryDelay doubled for each earlier failure, lengthened
// by up to 10% of jitter, and never more than MaxRetryDelay (10 s, 20 s,
// 40 s, ... 5.7 h, then 6 h). The jitter is a pure function of jitterKey
// (the subscription's id) and failures, so every instance computes the same
// time, a test can predict it, and subscriptions that failed together spread
// apart. Zero or fewer failures need no wait.
func RetryDelay(failures int, jitterKey uint64) time.Duration {
	if failures <= 0 {
		return 0
	}
	delay := MaxRetryDelay
	if failures <= 16 { // beyond, the doubling is far past the maximum
		delay = min(FirstRetryDelay<<(failures-1), MaxRetryDelay)
	}
	jitter := time.Duration(mix(jitterKey, uint64(failures)) % (uint64(delay)*jitterPercent/100 + 1))
	return min(delay+jitter, MaxRetryDelay)
}

// NextAttempt is when to try a subscription again after the failures-th
// failure in a row, which happened at lastFailure.
func NextAttempt(failures int, lastFailure time.Time, jitterKey uint64) time.Time {
	return lastFailure.Add(RetryDelay(failures, jitterKey))
}

// ShouldDisable reports whether a subscription that has now failed failures
// times in a row, the first of them at firstFailure, is to be disabled
// (disableType 1): after DisableAfter of failures, or DisableAfterFailures in
// a row. The caller asks after recording each failure, with its time as now.
func ShouldDisable(failures int, firstFailure, now time.Time) bool {
	if failures <= 0 {
		return false
	}
	return failures >= DisableAfterFailures || now.Sub(firstFailure) >= DisableAfter
}

// mix is SplitMix64's finaliser over two words: a few operations that spread
// every input bit over the result, the same on every machine.
func mix(a, b uint64) uint64 {
	z := a ^ (b * 0x9e3779b97f4a7c15)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

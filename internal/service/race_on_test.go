//go:build race

package service

// raceEnabled reports whether the tests run under the race detector, whose
// runtime allocates more for the same code (DeepArrays: 36.6 bytes a byte
// of body against 32 without it).
const raceEnabled = true

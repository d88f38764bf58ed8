//go:build race

package testdb

// Race reports whether the tests run under the race detector, which makes
// pure-Go SQLite and bcrypt many times slower: tests that prove a size
// rather than an interleaving may run smaller then.
const Race = true

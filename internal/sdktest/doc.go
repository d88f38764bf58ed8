// Package sdktest holds the tests of the Go SDK (package client) that need
// the server's internals: servers started in the test process over
// internal/store and internal/service, on SQLite and PostgreSQL, with a
// clock a test can move, rate limits and faults, every response checked by
// internal/openapitest.
//
// They live here, not in client/, because `go mod tidy` in a module that
// imports client records checksums for the test dependencies of client
// too: tests in client/ that imported the server would put every module
// of the server (pgx, SQLite, Redis, kin-openapi...) into each consumer's
// go.sum. No consumer imports this package. The tests left in client/ (the
// compiled examples and a few tests that need only a running server) use
// the standard library, the root package and client alone, against a
// `stockroom serve` they build and start; TestClientImports here keeps it
// so.
//
// The package has no code but its tests.
package sdktest

package main

import (
	"slices"
	"testing"
)

// TestParseOrigins: --cors-origins takes origins as browsers send them, or
// *, and refuses anything else by name.
func TestParseOrigins(t *testing.T) {
	got, err := parseOrigins(" https://app.example.com, http://127.0.0.1:5173/ ,*")
	if err != nil || !slices.Equal(got, []string{"https://app.example.com", "http://127.0.0.1:5173", "*"}) {
		t.Fatalf("%q, %v", got, err)
	}
	for _, bad := range []string{"app.example.com", "https://app.example.com/path", "ftp://x", "https://u:p@x", "https://x?q", ""} {
		if _, err := parseOrigins(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

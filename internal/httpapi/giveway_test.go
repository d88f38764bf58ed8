package httpapi

import (
	"testing"
	"time"
)

func TestRestAfter(t *testing.T) {
	var a writeActivity
	now := time.Now()
	batch := now.Add(-10 * time.Millisecond)
	if d := a.restAfter(batch, now); d != 0 {
		t.Fatalf("no write: rest %v", d)
	}
	a.begin()
	if d := a.restAfter(batch, now); d != 80*time.Millisecond {
		t.Fatalf("a write under way, a batch of 10 ms: rest %v, want 80 ms", d)
	}
	if d := a.restAfter(now.Add(-time.Minute), now); d != exportRestMax {
		t.Fatalf("a batch of a minute: rest %v, want %v", d, exportRestMax)
	}
	a.end()
	ended := time.Now()
	if d := a.restAfter(ended.Add(-10*time.Millisecond), ended.Add(writeQuiet/2)); d == 0 {
		t.Fatal("no rest just after a write ended")
	}
	if d := a.restAfter(ended, ended.Add(writeQuiet+time.Millisecond)); d != 0 {
		t.Fatalf("rest %v once the writes have been quiet for %v", d, writeQuiet)
	}
	if !isWrite("POST") || !isWrite("DELETE") || isWrite("GET") || isWrite("HEAD") || isWrite("OPTIONS") {
		t.Fatal("isWrite")
	}
}

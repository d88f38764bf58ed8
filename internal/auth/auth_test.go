package auth_test

import (
	"strings"
	"testing"

	"github.com/stockroom/stockroom/internal/auth"
)

func TestSecretRoundTrip(t *testing.T) {
	secret := auth.NewSecret()
	hash, err := auth.HashSecret(secret)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(hash, secret) {
		t.Fatal("hash contains the secret")
	}
	if !auth.CheckSecret(hash, secret) {
		t.Fatal("the right secret was refused")
	}
	if auth.CheckSecret(hash, secret+"x") {
		t.Fatal("a wrong secret was accepted")
	}
	if auth.CheckSecret("", secret) {
		t.Fatal("an unknown client (empty hash) was accepted")
	}
}

func TestNewTokenIsUniqueAndWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		tok := auth.NewToken()
		if err := auth.CheckTokenFormat(tok); err != nil {
			t.Fatalf("token %q refused by its own format check: %v", tok, err)
		}
		if seen[tok] {
			t.Fatalf("token %q issued twice", tok)
		}
		seen[tok] = true
	}
	for _, bad := range []string{"", "abc", strings.Repeat("!", 43), strings.Repeat("a", 44)} {
		if auth.CheckTokenFormat(bad) == nil {
			t.Errorf("CheckTokenFormat(%q) accepted a malformed token", bad)
		}
	}
}

func TestHashTokenIsStableAndDistinct(t *testing.T) {
	a, b := auth.NewToken(), auth.NewToken()
	if h1, h2 := auth.HashToken(a), auth.HashToken(a); h1 != h2 {
		t.Fatal("hash is not deterministic")
	}
	if auth.HashToken(a) == auth.HashToken(b) {
		t.Fatal("two tokens share a hash")
	}
	if len(auth.HashToken(a)) != 64 {
		t.Fatalf("hash length %d, want 64 hex characters", len(auth.HashToken(a)))
	}
}

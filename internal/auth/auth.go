// Package auth generates and checks client secrets and bearer tokens. Secrets
// are stored as bcrypt hashes; tokens, which are long random strings, as
// SHA-256 digests, so a copy of the database gives nobody a working
// credential.
package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"

	"golang.org/x/crypto/bcrypt"
)

// SecretCost is the bcrypt cost for client secrets: about 50 ms of one core
// here, which makes an offline guess expensive while a token request stays
// cheap enough.
const SecretCost = 10

// NewSecret returns a fresh random client secret with 256 bits of entropy.
func NewSecret() string {
	return base64.RawURLEncoding.EncodeToString(randomBytes(32))
}

// NewToken returns a fresh opaque bearer token with 256 bits of entropy.
func NewToken() string {
	return base64.RawURLEncoding.EncodeToString(randomBytes(32))
}

// NewClientID returns a readable random client id such as
// "cl-3kq7m2x9v4b8n6pd".
func NewClientID() string {
	enc := base32.StdEncoding.WithPadding(base32.NoPadding)
	return "cl-" + strings.ToLower(enc.EncodeToString(randomBytes(10)))
}

// HashSecret returns the bcrypt hash of a client secret.
func HashSecret(secret string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(secret), SecretCost)
	if err != nil {
		return "", err
	}
	return string(h), nil
}

// dummyHash is compared against when the client id is unknown, so that the
// time a token request takes does not tell whether an id exists.
var dummyHash, _ = bcrypt.GenerateFromPassword([]byte("no such client, compared for timing"), SecretCost)

// CheckSecret reports whether secret matches hash in constant time. An empty
// hash (unknown client) still costs one bcrypt comparison.
func CheckSecret(hash, secret string) bool {
	if hash == "" {
		_ = bcrypt.CompareHashAndPassword(dummyHash, []byte(secret))
		return false
	}
	err := bcrypt.CompareHashAndPassword([]byte(hash), []byte(secret))
	return err == nil
}

// HashToken returns the digest under which a bearer token is stored and looked
// up. A fast hash is right here: the token already carries 256 random bits, so
// there is nothing to brute-force.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// ErrMalformedToken is returned by CheckTokenFormat for strings that cannot be
// a token of ours, so they are refused without a database look-up.
var ErrMalformedToken = errors.New("malformed token")

// CheckTokenFormat rejects strings that NewToken cannot have produced.
func CheckTokenFormat(token string) error {
	if len(token) != 43 {
		return ErrMalformedToken
	}
	if _, err := base64.RawURLEncoding.DecodeString(token); err != nil {
		return ErrMalformedToken
	}
	return nil
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	// crypto/rand.Read never returns an error on supported platforms (Go 1.24+).
	_, _ = rand.Read(b)
	return b
}

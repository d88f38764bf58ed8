package stockroom

import (
	"regexp"
	"strings"
	"time"
)

// Client is a machine client of the API: the holder of a client id and secret.
// The secret itself is never kept; only its hash is stored.
type Client struct {
	ID          string
	Name        string
	Permissions []Permission
	Scope       Scope
	ReadOnly    bool
	Enabled     bool
	Created     time.Time
	Modified    time.Time
}

// Principal returns the authorization view of the client.
func (c *Client) Principal() *Principal {
	return &Principal{
		ClientID:    c.ID,
		Name:        c.Name,
		Permissions: c.Permissions,
		Scope:       c.Scope,
		// Every client sees every owner until clients can be limited to
		// owners (client add --owners).
		Owners:   Scope{All: true},
		ReadOnly: c.ReadOnly,
	}
}

var clientIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// Secret length bounds: long enough that guessing is hopeless, short enough
// for the password hash (bcrypt reads at most 72 bytes).
const (
	MinSecretLen = 16
	MaxSecretLen = 72
)

// Validate checks a client before it is stored.
func (c *Client) Validate() error {
	var v Validation
	if !clientIDPattern.MatchString(c.ID) {
		v.Add("id", "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit")
	}
	c.Name = strings.TrimSpace(c.Name)
	ValidateName(&v, "name", c.Name)
	if len(c.Permissions) == 0 {
		v.Add("permissions", "at least one permission is required")
	}
	for _, p := range c.Permissions {
		if !p.Valid() {
			v.Add("permissions", "unknown permission")
			break
		}
	}
	if !c.Scope.All && len(c.Scope.IDs) == 0 {
		v.Add("warehouses", "at least one warehouse is required")
	}
	return v.Err()
}

// secretPattern admits only characters that form encoding leaves alone, so a
// secret reads the same whether or not a client form-encodes it inside HTTP
// Basic credentials (RFC 6749 asks for it; many clients skip it).
var secretPattern = regexp.MustCompile(`^[A-Za-z0-9._~-]*$`)

// ValidateSecret checks a client secret chosen by an operator.
func ValidateSecret(secret string) error {
	if len(secret) < MinSecretLen || len(secret) > MaxSecretLen {
		return Invalid("secret", "must be 16 to 72 characters long")
	}
	if !secretPattern.MatchString(secret) {
		return Invalid("secret", "may contain only letters, digits, '.', '_', '~' and '-'")
	}
	return nil
}

// Token is an issued bearer token as the client receives it.
type Token struct {
	AccessToken string
	ExpiresIn   time.Duration
}

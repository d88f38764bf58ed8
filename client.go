package stockroom

import (
	"regexp"
	"slices"
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
	// Owners are the owners whose stock the client may see and change
	// (customerIDs; 0 is the house's own stock).
	Owners   Scope
	ReadOnly bool
	Enabled  bool
	Created  time.Time
	Modified time.Time
}

// Principal returns the authorization view of the client.
func (c *Client) Principal() *Principal {
	return &Principal{
		ClientID:    c.ID,
		Name:        c.Name,
		Permissions: c.Permissions,
		Scope:       c.Scope,
		Owners:      c.Owners,
		ReadOnly:    c.ReadOnly,
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
	validatePermissions(&v, c.Permissions)
	validateScope(&v, "warehouses", "warehouse", c.Scope)
	validateScope(&v, "owners", "owner", c.Owners)
	return v.Err()
}

func validatePermissions(v *Validation, ps []Permission) {
	if len(ps) == 0 {
		v.Add("permissions", "at least one permission is required")
	}
	for _, p := range ps {
		if !p.Valid() {
			v.Add("permissions", "unknown permission")
			break
		}
	}
}

func validateScope(v *Validation, field, what string, s Scope) {
	if !s.All && len(s.IDs) == 0 {
		v.Add(field, "at least one "+what+" is required")
	}
}

// ClientChange is an operator's change to an existing client: a nil field
// stays as it is. A client's id never changes; its secret and enabled flag
// have commands of their own.
type ClientChange struct {
	Name        *string
	Permissions []Permission
	Scope       *Scope
	Owners      *Scope
	ReadOnly    *bool
}

// IsEmpty reports whether the change changes nothing.
func (ch *ClientChange) IsEmpty() bool {
	return ch.Name == nil && ch.Permissions == nil && ch.Scope == nil && ch.Owners == nil && ch.ReadOnly == nil
}

// Validate checks the fields the change sets, as Client.Validate checks
// them.
func (ch *ClientChange) Validate() error {
	var v Validation
	if ch.Name != nil {
		*ch.Name = strings.TrimSpace(*ch.Name)
		ValidateName(&v, "name", *ch.Name)
	}
	if ch.Permissions != nil {
		validatePermissions(&v, ch.Permissions)
	}
	if ch.Scope != nil {
		validateScope(&v, "warehouses", "warehouse", *ch.Scope)
	}
	if ch.Owners != nil {
		validateScope(&v, "owners", "owner", *ch.Owners)
	}
	return v.Err()
}

// Apply makes the change to c and reports whether any value changed.
func (ch *ClientChange) Apply(c *Client) bool {
	changed := false
	if ch.Name != nil && *ch.Name != c.Name {
		c.Name, changed = *ch.Name, true
	}
	if ch.Permissions != nil && !slices.Equal(slices.Sorted(slices.Values(ch.Permissions)), slices.Sorted(slices.Values(c.Permissions))) {
		c.Permissions, changed = slices.Sorted(slices.Values(ch.Permissions)), true
	}
	if ch.Scope != nil && !ch.Scope.Equal(c.Scope) {
		c.Scope, changed = ch.Scope.Clone(), true
	}
	if ch.Owners != nil && !ch.Owners.Equal(c.Owners) {
		c.Owners, changed = ch.Owners.Clone(), true
	}
	if ch.ReadOnly != nil && *ch.ReadOnly != c.ReadOnly {
		c.ReadOnly, changed = *ch.ReadOnly, true
	}
	return changed
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

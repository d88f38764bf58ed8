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
	Owners Scope
	// Reports are the reports the client may run (ReportIDs; none unless
	// granted, see ParseReports).
	Reports  Scope
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
		Reports:     c.Reports,
		ReadOnly:    c.ReadOnly,
	}
}

var clientIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// MaxClientIDLen is the longest client id.
const MaxClientIDLen = 64

// ValidClientID reports whether id is one a client can have: 1 to 64
// letters, digits, '.', '_' or '-', starting with a letter or digit. The
// token endpoint refuses any other without looking it up, and never logs it
// (contract §14): it may be anything, a pasted secret included.
func ValidClientID(id string) bool {
	return len(id) <= MaxClientIDLen && clientIDPattern.MatchString(id)
}

// Secret length bounds: long enough that guessing is hopeless, short enough
// for the password hash (bcrypt reads at most 72 bytes).
const (
	MinSecretLen = 16
	MaxSecretLen = 72
)

// Validate checks a client before it is stored.
func (c *Client) Validate() error {
	var v Validation
	if !ValidClientID(c.ID) {
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
	Reports     *Scope
	ReadOnly    *bool
}

// IsEmpty reports whether the change changes nothing.
func (ch *ClientChange) IsEmpty() bool {
	return ch.Name == nil && ch.Permissions == nil && ch.Scope == nil && ch.Owners == nil && ch.Reports == nil && ch.ReadOnly == nil
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
	if ch.Reports != nil && !ch.Reports.Equal(c.Reports) {
		c.Reports, changed = ch.Reports.Clone(), true
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

// ErrTokenBusy is the answer to a token request that found every slot for
// comparing client secrets taken for longer than it waits (contract §14: the
// password hash work has a global cap). Retrying a moment later helps.
var ErrTokenBusy = &Error{Code: EUNAVAILABLE, Message: "Too many token requests at once; retry shortly."}

// Token is an issued bearer token as the client receives it.
type Token struct {
	AccessToken string
	ExpiresIn   time.Duration
}

package stockroom

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Permission is a SecurityID of the specification. A client holds a set of
// them; each route requires at most one.
type Permission int

// The SecurityIDs of the specification.
const (
	PermItemRead  Permission = 11  // Item Master List: read items, lots, stock levels
	PermItemWrite Permission = 116 // Create/Modify Item Master Record
	PermReceive   Permission = 95  // Positive Adjustment
	PermMove      Permission = 15  // Locate/Move Units
	PermIssue     Permission = 88  // Negative Adjustment

	// This service's own (contract §9).
	PermPurchaseOrders Permission = 301 // Purchase Orders
	PermShippingOrders Permission = 302 // Shipping Orders
	PermWorkOrders     Permission = 303 // Work Orders
	PermWebhooks       Permission = 370 // Webhook Administration
)

// AllPermissions lists every SecurityID in the order the documentation uses.
var AllPermissions = []Permission{
	PermItemRead, PermItemWrite, PermReceive, PermMove, PermIssue,
	PermPurchaseOrders, PermShippingOrders, PermWorkOrders, PermWebhooks,
}

// Valid reports whether p is a SecurityID this service knows.
func (p Permission) Valid() bool { return slices.Contains(AllPermissions, p) }

// ParsePermissions parses a comma-separated list of SecurityIDs, or "all".
// Duplicates are removed and the result is sorted.
func ParsePermissions(s string) ([]Permission, error) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "all") {
		return slices.Clone(AllPermissions), nil
	}
	var out []Permission
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		n, err := strconv.Atoi(f)
		if err != nil || !Permission(n).Valid() {
			return nil, fmt.Errorf("unknown permission %q (want a list of %s, or all)", f, FormatPermissions(AllPermissions))
		}
		out = append(out, Permission(n))
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// FormatPermissions writes permissions as the comma-separated list that
// ParsePermissions reads.
func FormatPermissions(ps []Permission) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = strconv.Itoa(int(p))
	}
	return strings.Join(parts, ",")
}

// Scope is the set of warehouses a client may see and change: every warehouse,
// or a fixed list.
type Scope struct {
	All bool
	// IDs lists the warehouses when All is false. An empty list allows nothing.
	IDs []int64
}

// Contains reports whether warehouse wid is in the scope.
func (s Scope) Contains(wid int64) bool {
	return s.All || slices.Contains(s.IDs, wid)
}

// Equal reports whether two scopes allow the same ids (lists as
// ParseScope and ParseOwners make them: sorted, without duplicates).
func (s Scope) Equal(o Scope) bool {
	if s.All || o.All {
		return s.All == o.All
	}
	return slices.Equal(s.IDs, o.IDs)
}

// Clone returns a scope that shares no memory with s.
func (s Scope) Clone() Scope {
	return Scope{All: s.All, IDs: slices.Clone(s.IDs)}
}

// String formats the scope as the --warehouses and --owners flags take it.
func (s Scope) String() string {
	if s.All {
		return "all"
	}
	parts := make([]string, len(s.IDs))
	for i, id := range s.IDs {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, ",")
}

// ParseScope parses a comma-separated list of warehouse ids, or "all".
func ParseScope(s string) (Scope, error) {
	return parseScope(s, 1, func(f string) error {
		return fmt.Errorf("invalid warehouse id %q (want a list of ids from 1 to %d, or all)", f, MaxWarehouseID)
	})
}

// ParseOwners parses a comma-separated list of owners (customerIDs, 0 for
// the house's own stock), or "all".
func ParseOwners(s string) (Scope, error) {
	return parseScope(s, 0, func(f string) error {
		return fmt.Errorf("invalid owner %q (want a list of customerIDs, 0 for the house's own stock, or all)", f)
	})
}

// parseScope parses "all" or a comma-separated list of ids from least to
// MaxWarehouseID, sorted and without repeats; bad says what is wrong with a
// field that is not such an id, or one valid (when given) refuses.
func parseScope(s string, least int64, bad func(field string) error, valid ...func(int64) bool) (Scope, error) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "all") {
		return Scope{All: true}, nil
	}
	var ids []int64
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil || n < least || n > MaxWarehouseID || len(valid) > 0 && !valid[0](n) {
			return Scope{}, bad(f)
		}
		ids = append(ids, n)
	}
	slices.Sort(ids)
	return Scope{IDs: slices.Compact(ids)}, nil
}

// Principal is the authenticated machine client behind a request.
type Principal struct {
	ClientID    string
	Name        string
	Permissions []Permission
	Scope       Scope
	// Owners are the owners whose stock the client may see and change
	// (customerIDs; 0 is the house's own stock).
	Owners Scope
	// Reports are the reports the client may run (ReportIDs).
	Reports  Scope
	ReadOnly bool
	// Expires is when the token that authenticated the principal expires.
	Expires time.Time
}

// Can reports whether the principal holds permission p.
func (p *Principal) Can(perm Permission) bool {
	return slices.Contains(p.Permissions, perm)
}

// Authorize applies the contract's first two authorization checks in their
// order: a read-only account may not write, then the permission must be held.
// perm 0 means the operation needs no particular permission.
func (p *Principal) Authorize(perm Permission, write bool) error {
	if write && p.ReadOnly {
		return &Error{Code: EFORBIDDEN, Message: MsgReadOnly}
	}
	if perm != 0 && !p.Can(perm) {
		return &Error{Code: EFORBIDDEN, Message: MsgNoPermission}
	}
	return nil
}

// SeesLine reports whether the principal sees an order's line of warehouse
// wid and owner: both in its scopes. A line it does not see is as one the
// order lacks; an order none of whose lines it sees is as one that does
// not exist.
func (p *Principal) SeesLine(wid, owner int64) bool {
	return p.Scope.Contains(wid) && p.Owners.Contains(owner)
}

// AuthorizeOwner refuses an owner outside the principal's owner scope.
func (p *Principal) AuthorizeOwner(owner int64) error {
	if !p.Owners.Contains(owner) {
		return &Error{Code: EFORBIDDEN, Message: MsgOwnerOutOfScope}
	}
	return nil
}

// JudgeLines judges the n lines of an order that a write touches, line(i)
// giving the warehouse and owner of each: ErrNotFound when the principal
// sees none of them, else a 403 for the first outside its warehouse scope
// or its owners. It is a pure rule so that the store can apply it inside
// the write's transaction, to the lines as that transaction locked them.
func (p *Principal) JudgeLines(n int, line func(i int) (wid, owner int64)) error {
	seen := false
	for i := 0; i < n && !seen; i++ {
		seen = p.SeesLine(line(i))
	}
	if !seen {
		return ErrNotFound
	}
	for i := range n {
		wid, owner := line(i)
		if !p.Scope.Contains(wid) {
			return &Error{Code: EFORBIDDEN, Message: MsgOutOfScope}
		}
		if err := p.AuthorizeOwner(owner); err != nil {
			return err
		}
	}
	return nil
}

package stockroom

// MsgNotAdministrator refuses an administration screen to a client that is
// not an administrator.
const MsgNotAdministrator = "Only an administrator (every permission, every warehouse and owner, not read-only) may administer clients, warehouses and reason codes."

// AuthorizeAdministrator says whether the principal may do what the admin
// commands do (clients, warehouses, reason codes) from the console: a
// client with every permission over every warehouse and every owner, not
// read-only, as the administrator the first start creates is. The commands
// themselves need no principal: whoever reaches the database administers it.
func (p *Principal) AuthorizeAdministrator() error {
	if p.ReadOnly || !p.Scope.All || !p.Owners.All {
		return &Error{Code: EFORBIDDEN, Message: MsgNotAdministrator}
	}
	for _, perm := range AllPermissions {
		if !p.Can(perm) {
			return &Error{Code: EFORBIDDEN, Message: MsgNotAdministrator}
		}
	}
	return nil
}

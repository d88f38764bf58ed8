package stockroom

// MsgNotAdministrator refuses the admin operations (clients, warehouses,
// reason codes) to a client that is not an administrator.
const MsgNotAdministrator = "Only an administrator (every permission, every warehouse and owner, not read-only) may administer clients, warehouses and reason codes."

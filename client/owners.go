package client

import (
	"context"
	"iter"
	"strconv"

	"github.com/stockroom/stockroom"
)

// Customers, vendors and categories are the root package's types, the very
// ones the server writes and reads. A Party's ID is its customerID or
// vendorID, by Kind.
type (
	Party         = stockroom.Party
	PartyInput    = stockroom.PartyChange
	Category      = stockroom.Category
	CategoryInput = stockroom.CategoryChange
)

// MasterListOptions selects a list of customers, vendors or categories.
type MasterListOptions struct {
	ListOptions
	// IncludeInactive lists every record (GET /X/All) instead of the
	// active ones (GET /X).
	IncludeInactive bool
}

func (o MasterListOptions) path(resource string) string {
	if o.IncludeInactive {
		return resource + "/All"
	}
	return resource
}

// partyResource is the API's resource name of a kind of party.
func partyResource(kind stockroom.PartyKind) string {
	if kind == stockroom.Vendor {
		return "Vendor"
	}
	return "Customer"
}

func (c *Client) listParties(ctx context.Context, kind stockroom.PartyKind, opts MasterListOptions) (*Page[Party], error) {
	return getPage[Party](ctx, c, opts.path(partyResource(kind)), opts.values())
}

func (c *Client) getParty(ctx context.Context, kind stockroom.PartyKind, shortID string) (*Party, error) {
	var p Party
	if _, err := c.do(ctx, call{method: "GET", path: partyResource(kind) + "/" + pathSegment(shortID)}, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

func (c *Client) createParty(ctx context.Context, kind stockroom.PartyKind, in PartyInput) (*Party, error) {
	var p Party
	if _, err := c.do(ctx, call{method: "POST", path: partyResource(kind), body: in}, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

func (c *Client) updateParty(ctx context.Context, kind stockroom.PartyKind, in PartyInput) (*StatusResult, error) {
	var st StatusResult
	if _, err := c.do(ctx, call{method: "PUT", path: partyResource(kind), body: in}, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

func (c *Client) discontinueParty(ctx context.Context, kind stockroom.PartyKind, shortID string) (*StatusResult, error) {
	var st StatusResult
	if _, err := c.do(ctx, call{method: "DELETE", path: partyResource(kind) + "/" + pathSegment(shortID)}, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

// ListCustomers returns one page of customers, in ShortID order unless
// sorted otherwise. A client limited to owners sees only its own.
func (c *Client) ListCustomers(ctx context.Context, opts MasterListOptions) (*Page[Party], error) {
	return c.listParties(ctx, stockroom.Customer, opts)
}

// Customers yields every customer of the list opts selects, page by page.
func (c *Client) Customers(ctx context.Context, opts MasterListOptions) iter.Seq2[Party, error] {
	return c.walkParties(ctx, stockroom.Customer, opts)
}

// GetCustomer returns the customer with a ShortID (any letter case), active
// or not. An unknown one is an *Error with code "not_found".
func (c *Client) GetCustomer(ctx context.Context, shortID string) (*Party, error) {
	return c.getParty(ctx, stockroom.Customer, shortID)
}

// CreateCustomer adds a customer and returns it with its assigned
// customerID. A ShortID that exists already is an *Error with code
// "conflict".
func (c *Client) CreateCustomer(ctx context.Context, in PartyInput) (*Party, error) {
	return c.createParty(ctx, stockroom.Customer, in)
}

// UpdateCustomer changes the non-nil fields of the customer named by
// in.ShortID; Active: true reactivates it.
func (c *Client) UpdateCustomer(ctx context.Context, in PartyInput) (*StatusResult, error) {
	return c.updateParty(ctx, stockroom.Customer, in)
}

// DiscontinueCustomer sets a customer inactive; repeating it succeeds.
func (c *Client) DiscontinueCustomer(ctx context.Context, shortID string) (*StatusResult, error) {
	return c.discontinueParty(ctx, stockroom.Customer, shortID)
}

// ListVendors returns one page of vendors, in ShortID order unless sorted
// otherwise.
func (c *Client) ListVendors(ctx context.Context, opts MasterListOptions) (*Page[Party], error) {
	return c.listParties(ctx, stockroom.Vendor, opts)
}

// Vendors yields every vendor of the list opts selects, page by page.
func (c *Client) Vendors(ctx context.Context, opts MasterListOptions) iter.Seq2[Party, error] {
	return c.walkParties(ctx, stockroom.Vendor, opts)
}

// GetVendor returns the vendor with a ShortID (any letter case), active or
// not. An unknown one is an *Error with code "not_found".
func (c *Client) GetVendor(ctx context.Context, shortID string) (*Party, error) {
	return c.getParty(ctx, stockroom.Vendor, shortID)
}

// CreateVendor adds a vendor and returns it with its assigned vendorID.
func (c *Client) CreateVendor(ctx context.Context, in PartyInput) (*Party, error) {
	return c.createParty(ctx, stockroom.Vendor, in)
}

// UpdateVendor changes the non-nil fields of the vendor named by
// in.ShortID; Active: true reactivates it.
func (c *Client) UpdateVendor(ctx context.Context, in PartyInput) (*StatusResult, error) {
	return c.updateParty(ctx, stockroom.Vendor, in)
}

// DiscontinueVendor sets a vendor inactive; repeating it succeeds.
func (c *Client) DiscontinueVendor(ctx context.Context, shortID string) (*StatusResult, error) {
	return c.discontinueParty(ctx, stockroom.Vendor, shortID)
}

func (c *Client) walkParties(ctx context.Context, kind stockroom.PartyKind, opts MasterListOptions) iter.Seq2[Party, error] {
	return Walk(ctx, opts.ListOptions, func(ctx context.Context, lo ListOptions) (*Page[Party], error) {
		opts.ListOptions = lo
		return c.listParties(ctx, kind, opts)
	})
}

// ListCategories returns one page of categories, in categoryID order unless
// sorted otherwise.
func (c *Client) ListCategories(ctx context.Context, opts MasterListOptions) (*Page[Category], error) {
	return getPage[Category](ctx, c, opts.path("Category"), opts.values())
}

// Categories yields every category of the list opts selects, page by page.
func (c *Client) Categories(ctx context.Context, opts MasterListOptions) iter.Seq2[Category, error] {
	return Walk(ctx, opts.ListOptions, func(ctx context.Context, lo ListOptions) (*Page[Category], error) {
		opts.ListOptions = lo
		return c.ListCategories(ctx, opts)
	})
}

// GetCategory returns the category with an id, active or not.
func (c *Client) GetCategory(ctx context.Context, id int64) (*Category, error) {
	var cat Category
	if _, err := c.do(ctx, call{method: "GET", path: "Category/" + strconv.FormatInt(id, 10)}, &cat); err != nil {
		return nil, err
	}
	return &cat, nil
}

// CreateCategory adds a category; with in.CategoryID 0 it takes the next id
// after the largest. An id that exists is an *Error with code "conflict".
func (c *Client) CreateCategory(ctx context.Context, in CategoryInput) (*Category, error) {
	var cat Category
	if _, err := c.do(ctx, call{method: "POST", path: "Category", body: in}, &cat); err != nil {
		return nil, err
	}
	return &cat, nil
}

// UpdateCategory changes the non-nil fields of the category in.CategoryID.
func (c *Client) UpdateCategory(ctx context.Context, in CategoryInput) (*StatusResult, error) {
	var st StatusResult
	if _, err := c.do(ctx, call{method: "PUT", path: "Category", body: in}, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

// DiscontinueCategory sets a category inactive; its items keep it.
func (c *Client) DiscontinueCategory(ctx context.Context, id int64) (*StatusResult, error) {
	var st StatusResult
	if _, err := c.do(ctx, call{method: "DELETE", path: "Category/" + strconv.FormatInt(id, 10)}, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

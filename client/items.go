package client

import (
	"context"
	"iter"
	"net/url"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
)

// Items, their changes and the status answers are the root package's
// types, the very ones the server writes and reads; these aliases keep their
// SDK names. An item's Active() is !Discontinued; the categoryID and unit
// the server sends beside category and uOM are the same values.
type (
	Item         = stockroom.Item
	ItemInput    = stockroom.ItemChange
	StatusResult = stockroom.StatusResult
)

// ItemListOptions selects a list of items.
type ItemListOptions struct {
	ListOptions
	// IncludeDiscontinued lists every item (GET /Item/All) instead of the
	// active ones (GET /Item).
	IncludeDiscontinued bool
}

func (o ItemListOptions) path() string {
	if o.IncludeDiscontinued {
		return "Item/All"
	}
	return "Item"
}

// ListItems returns one page of items, in ShortID order unless sorted
// otherwise.
func (c *Client) ListItems(ctx context.Context, opts ItemListOptions) (*Page[Item], error) {
	return getPage[Item](ctx, c, opts.path(), opts.values())
}

// Items yields every item of the list opts selects, page by page.
func (c *Client) Items(ctx context.Context, opts ItemListOptions) iter.Seq2[Item, error] {
	return Walk(ctx, opts.ListOptions, func(ctx context.Context, lo ListOptions) (*Page[Item], error) {
		opts.ListOptions = lo
		return c.ListItems(ctx, opts)
	})
}

// GetItem returns the item with the given partNo, active or discontinued.
func (c *Client) GetItem(ctx context.Context, partNo int64) (*Item, error) {
	var it Item
	if _, err := c.do(ctx, call{method: "GET", path: "Item/" + strconv.FormatInt(partNo, 10)}, &it); err != nil {
		return nil, err
	}
	return &it, nil
}

// FindItemByShortID returns the item with the given ShortID, found
// regardless of letter case, active or discontinued. An unknown ShortID is an
// *Error with code "not_found".
func (c *Client) FindItemByShortID(ctx context.Context, shortID string) (*Item, error) {
	return c.lookupItem(ctx, shortID, "id")
}

// FindItemByAlias returns the item an alias points to. An unknown alias is an
// *Error with code "not_found".
func (c *Client) FindItemByAlias(ctx context.Context, alias string) (*Item, error) {
	return c.lookupItem(ctx, alias, "alias")
}

func (c *Client) lookupItem(ctx context.Context, key, typ string) (*Item, error) {
	var it Item
	q := url.Values{"key": {key}, "type": {typ}}
	if _, err := c.do(ctx, call{method: "GET", path: "Item", query: q}, &it); err != nil {
		return nil, err
	}
	return &it, nil
}

// ItemsInCategory returns every active item of a category, in ShortID order.
// The server sends them as one unpaged array.
func (c *Client) ItemsInCategory(ctx context.Context, category int64) ([]Item, error) {
	var items []Item
	q := url.Values{"Category": {strconv.FormatInt(category, 10)}}
	if _, err := c.do(ctx, call{method: "GET", path: "Item", query: q}, &items); err != nil {
		return nil, err
	}
	return items, nil
}

// CreateItem adds an item to the catalog and returns it with its assigned
// partNo. A ShortID that exists already (in any letter case) is an *Error
// with code "conflict".
func (c *Client) CreateItem(ctx context.Context, in ItemInput) (*Item, error) {
	var it Item
	if _, err := c.do(ctx, call{method: "POST", path: "Item", body: in}, &it); err != nil {
		return nil, err
	}
	return &it, nil
}

// UpdateItem changes the non-nil fields of the item named by in.ShortID.
// The item's modified time moves only when a value actually changes.
func (c *Client) UpdateItem(ctx context.Context, in ItemInput) (*StatusResult, error) {
	var st StatusResult
	if _, err := c.do(ctx, call{method: "PUT", path: "Item", body: in}, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

// DiscontinueItem marks an item discontinued. The record and its stock stay:
// the item leaves ListItems (but not IncludeDiscontinued lists), cannot be
// received any more, and its remaining stock can still be moved and issued.
// Discontinuing a discontinued item succeeds again.
func (c *Client) DiscontinueItem(ctx context.Context, shortID string) (*StatusResult, error) {
	var st StatusResult
	if _, err := c.do(ctx, call{method: "DELETE", path: "Item/" + pathSegment(shortID)}, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

// AliasListOptions selects a list of aliases.
type AliasListOptions struct {
	ListOptions
	// ItemID keeps the aliases of the item with this ShortID.
	ItemID string
}

func (o AliasListOptions) values() url.Values {
	q := o.ListOptions.values()
	setIf(q, "itemID", o.ItemID)
	return q
}

// ListAliases returns one page of aliases, in alias order unless sorted
// otherwise.
func (c *Client) ListAliases(ctx context.Context, opts AliasListOptions) (*Page[stockroom.Alias], error) {
	return getPage[stockroom.Alias](ctx, c, "Alias", opts.values())
}

// Aliases yields every alias of the list opts selects, page by page.
func (c *Client) Aliases(ctx context.Context, opts AliasListOptions) iter.Seq2[stockroom.Alias, error] {
	return Walk(ctx, opts.ListOptions, func(ctx context.Context, lo ListOptions) (*Page[stockroom.Alias], error) {
		opts.ListOptions = lo
		return c.ListAliases(ctx, opts)
	})
}

// CreateAlias makes alias a second name of the item with ShortID itemID, so
// that FindItemByAlias finds it. Aliases are unique regardless of letter
// case; an existing one is an *Error with code "conflict".
func (c *Client) CreateAlias(ctx context.Context, alias, itemID string) (*stockroom.Alias, error) {
	var al stockroom.Alias
	body := struct {
		Alias  string `json:"alias"`
		ItemID string `json:"itemID"`
	}{alias, itemID}
	if _, err := c.do(ctx, call{method: "POST", path: "Alias", body: body}, &al); err != nil {
		return nil, err
	}
	return &al, nil
}

// DeleteAlias removes an alias. An unknown alias is an *Error with code
// "not_found" (also when a retry repeats a deletion that the server had
// already carried out).
func (c *Client) DeleteAlias(ctx context.Context, alias string) (*StatusResult, error) {
	var st StatusResult
	if _, err := c.do(ctx, call{method: "DELETE", path: "Alias/" + pathSegment(alias)}, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

// pathSegment escapes a key for use as one path segment: "/" becomes %2F,
// and the segments "." and ".." are escaped so that no one resolves them as
// relative paths.
func pathSegment(s string) string {
	if s == "." || s == ".." {
		return strings.Repeat("%2E", len(s))
	}
	return url.PathEscape(s)
}

package client

import (
	"context"
	"iter"
	"net/url"
	"strconv"

	"github.com/stockroom/stockroom"
)

// TransactionListOptions selects part of the ledger.
type TransactionListOptions struct {
	ListOptions
	// ItemID keeps the transactions that change the item with this
	// ShortID: its own, and the assemble entries it is a component of.
	ItemID string
	// WID keeps the transactions from or to this warehouse.
	WID int64
	// Type keeps one kind: stockroom.TxReceive, TxIssue, TxMove, TxHold or
	// TxRelease.
	Type string
	// Owner keeps the transactions of one owner's stock: a customerID or
	// customer ShortID, or &stockroom.OwnerRef{} for the house's own; nil
	// lists those of every owner the client may see.
	Owner *stockroom.OwnerRef
}

func (o TransactionListOptions) values() url.Values {
	q := o.ListOptions.values()
	setIf(q, "itemID", o.ItemID)
	if o.WID != 0 {
		q.Set("wid", strconv.FormatInt(o.WID, 10))
	}
	setIf(q, "type", o.Type)
	setOwner(q, o.Owner)
	return q
}

// ListTransactions returns one page of the ledger (every stock change, with
// its signed units per lot), newest first unless sorted otherwise. Only
// transactions touching a warehouse in the client's scope are listed.
func (c *Client) ListTransactions(ctx context.Context, opts TransactionListOptions) (*Page[stockroom.Transaction], error) {
	return getPage[stockroom.Transaction](ctx, c, "Inventory/Transactions", opts.values())
}

// Transactions yields every ledger entry of the list opts selects, page by
// page.
func (c *Client) Transactions(ctx context.Context, opts TransactionListOptions) iter.Seq2[stockroom.Transaction, error] {
	return Walk(ctx, opts.ListOptions, func(ctx context.Context, lo ListOptions) (*Page[stockroom.Transaction], error) {
		opts.ListOptions = lo
		return c.ListTransactions(ctx, opts)
	})
}

// GetTransaction returns one ledger entry with its lines, for example the
// one a Receive, Issue or Move result names. Numbers in its Details are
// json.Number, so quantities stay exact.
func (c *Client) GetTransaction(ctx context.Context, id int64) (*stockroom.Transaction, error) {
	var t stockroom.Transaction
	if _, err := c.do(ctx, call{method: "GET", path: "Inventory/Transactions/" + strconv.FormatInt(id, 10)}, &t); err != nil {
		return nil, err
	}
	return &t, nil
}

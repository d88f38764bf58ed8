package client

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/stockroom/stockroom"
)

// Changes is the result of an incremental sync: what changed in a list since
// the mark of the previous sync, and the mark to store for the next one.
//
// A sync loop keeps one mark per list (and per filter), starting from the
// zero time, which fetches everything:
//
//	changes, err := c.StockLevelChanges(ctx, mark, client.StockLevelListOptions{})
//	if err != nil { ... }          // keep the old mark and try again later
//	for _, level := range changes.Records {
//		upsert(level)              // by its key: the same record may come again
//	}
//	mark = changes.Mark            // store only after the records are applied
//
// Records may repeat across syncs: the mark is kept a little behind the
// server's clock (see WithSyncSettle), so that a change whose transaction
// committed late is not passed over. Apply records as upserts keyed by their
// identity (partNo, recNo, alias, transaction id), never as increments.
type Changes[T any] struct {
	// Records are the records modified at or after the given mark, each once
	// in its latest version, oldest modification first.
	Records []T
	// Mark is the value to pass as since next time. It never moves backwards
	// and is later than since only when that is safe.
	Mark time.Time
}

// ItemChanges returns the items modified at or after since, discontinued
// ones included, so that a discontinuation reaches the copy too.
func (c *Client) ItemChanges(ctx context.Context, since time.Time) (*Changes[Item], error) {
	return changes(ctx, c, since, syncList[Item]{
		path: "Item/All", filters: url.Values{},
		modified: func(it Item) time.Time { return it.Modified },
		key:      func(it Item) string { return strconv.FormatInt(it.PartNo, 10) },
	})
}

// AliasChanges returns the aliases created or changed at or after since;
// opts.ItemID keeps one item's. Paging and sort fields of opts are ignored.
// The server keeps no record of deleted aliases, so a deletion is not a
// change that a sync can see: compare with a full Aliases walk now and then
// if deletions matter.
func (c *Client) AliasChanges(ctx context.Context, since time.Time, opts AliasListOptions) (*Changes[stockroom.Alias], error) {
	return changes(ctx, c, since, syncList[stockroom.Alias]{
		path: "Alias", filters: AliasListOptions{ItemID: opts.ItemID}.values(),
		modified: func(al stockroom.Alias) time.Time { return al.Modified },
		key:      func(al stockroom.Alias) string { return stockroom.FoldKey(al.Alias) },
	})
}

// LotChanges returns the lots modified at or after since, emptied (shipped)
// lots included so that the copy learns they are gone. The filters of opts
// apply; its paging and sort fields are ignored. A lot that a change takes
// out of the filter (moved to another warehouse or spot, held or released)
// is not returned by a sync filtered that way: filter by WID, Spot or Hold
// only if that is what you want.
func (c *Client) LotChanges(ctx context.Context, since time.Time, opts LotListOptions) (*Changes[stockroom.Lot], error) {
	opts.ListOptions, opts.IncludeShipped = ListOptions{}, true
	return changes(ctx, c, since, syncList[stockroom.Lot]{
		path: opts.path(), filters: opts.values(),
		modified: func(l stockroom.Lot) time.Time { return l.Modified },
		key:      func(l stockroom.Lot) string { return strconv.FormatInt(l.RecNo, 10) },
	})
}

// StockLevelChanges returns the stock levels modified at or after since,
// levels that fell to zero included, so that the copy sees them drop. The
// filters of opts apply (WID: one warehouse's levels rather than the sum);
// its paging and sort fields are ignored.
func (c *Client) StockLevelChanges(ctx context.Context, since time.Time, opts StockLevelListOptions) (*Changes[stockroom.StockLevel], error) {
	opts.ListOptions, opts.IncludeZero = ListOptions{}, true
	return changes(ctx, c, since, syncList[stockroom.StockLevel]{
		path: opts.path(), filters: opts.values(),
		modified: func(l stockroom.StockLevel) time.Time { return l.Modified },
		key:      func(l stockroom.StockLevel) string { return strconv.FormatInt(l.PartNo, 10) },
	})
}

// TransactionChanges returns the ledger entries recorded at or after since,
// oldest first. The filters of opts apply; its paging and sort fields are
// ignored.
func (c *Client) TransactionChanges(ctx context.Context, since time.Time, opts TransactionListOptions) (*Changes[stockroom.Transaction], error) {
	opts.ListOptions = ListOptions{}
	return changes(ctx, c, since, syncList[stockroom.Transaction]{
		path: "Inventory/Transactions", filters: opts.values(),
		modified: func(t stockroom.Transaction) time.Time { return t.Time },
		key:      func(t stockroom.Transaction) string { return strconv.FormatInt(t.ID, 10) },
	})
}

// syncList is a list a sync reads: its path and filters, and a record's
// time of change and key.
type syncList[T any] struct {
	path     string
	filters  url.Values
	modified func(T) time.Time
	key      func(T) string
}

// changes reads the list l in order of modification, from since on.
//
// Pages are not read by number alone: a record changed while the sync runs
// moves to the end of that order, and would shift every later page by one,
// so that a record could be skipped. Instead each page after the first asks
// again for the records modified since the last one seen, and page numbers
// only advance through records sharing one timestamp. Records seen again are
// dropped; a record that changed during the sync is kept in its newer form.
func changes[T any](ctx context.Context, c *Client, since time.Time, l syncList[T]) (*Changes[T], error) {
	var (
		records  []T
		latest   = map[string]int{} // key -> index in records
		dropped  = map[int]bool{}   // indexes of versions replaced by newer ones
		newest   time.Time
		cursor   = since
		page     = int64(1)
		serverAt time.Time // the server's clock when the sync began
	)
	for {
		q := maps.Clone(l.filters)
		opts := ListOptions{Page: page, PageSize: c.syncPageSize, Sort: "modified",
			Direction: stockroom.DirectionAsc, ModifiedSince: cursor}
		maps.Copy(q, opts.values())
		var p Page[T]
		h, err := c.do(ctx, call{method: "GET", path: l.path, query: q}, &p)
		if err != nil {
			return nil, err
		}
		if serverAt.IsZero() {
			serverAt = serverTime(h, c.now())
		}
		for _, rec := range p.Value {
			k, m := l.key(rec), l.modified(rec)
			if i, seen := latest[k]; seen {
				if !m.After(l.modified(records[i])) {
					continue // the same version again
				}
				dropped[i] = true
			}
			latest[k] = len(records)
			records = append(records, rec)
			if m.After(newest) {
				newest = m
			}
		}
		if !p.HasMore || len(p.Value) == 0 {
			break
		}
		if last := l.modified(p.Value[len(p.Value)-1]); last.After(cursor) {
			cursor, page = last, 1
		} else {
			page++
		}
	}
	out := &Changes[T]{Records: make([]T, 0, len(records)-len(dropped)), Mark: since}
	for i, rec := range records {
		if !dropped[i] {
			out.Records = append(out.Records, rec)
		}
	}
	if len(out.Records) > 0 {
		// Just after the newest change (the server keeps microseconds), but
		// no later than the settle margin allows.
		mark := newest.Add(time.Microsecond)
		if settled := serverAt.Add(-c.syncSettle); mark.After(settled) {
			mark = settled
		}
		if mark.After(out.Mark) {
			out.Mark = mark.UTC()
		}
	}
	return out, nil
}

// serverTime reads the server's clock from a response's Date header, falling
// back to local when there is none.
func serverTime(h http.Header, local time.Time) time.Time {
	if t, err := http.ParseTime(h.Get("Date")); err == nil {
		return t
	}
	return local
}

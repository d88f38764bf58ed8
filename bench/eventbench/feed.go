package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sync"
	"time"
)

// event is what the bench reads of an event.
type event struct {
	ID   string    `json:"id"`
	Type string    `json:"type"`
	Time time.Time `json:"time"`
	Data struct {
		TransactionID int64 `json:"transactionID"`
	} `json:"data"`
}

// eventPage is a page of GET /Events.
type eventPage struct {
	Value   []event `json:"value"`
	Cursor  string  `json:"cursor"`
	HasMore bool    `json:"hasMore"`
}

// readPage reads the page after cursor ("" from the start).
func (b *bench) readPage(ctx context.Context, cursor string, limit int, wait time.Duration) (eventPage, error) {
	q := url.Values{"limit": {fmt.Sprint(limit)}}
	if cursor != "" {
		q.Set("after", cursor)
	}
	if wait > 0 {
		q.Set("wait", fmt.Sprint(int(wait.Seconds())))
	}
	var p eventPage
	err := b.must(ctx, "GET", "/Events?"+q.Encode(), nil, &p)
	return p, err
}

// feedEnd walks the feed to its end and returns the cursors of its pages of
// 1,000 (the first "", from the start) and the cursor at its end.
func (b *bench) feedEnd(ctx context.Context) (pages []string, end string, err error) {
	for {
		p, err := b.readPage(ctx, end, 1000, 0)
		if err != nil {
			return pages, end, err
		}
		if len(p.Value) == 1000 {
			pages = append(pages, end)
		}
		end = p.Cursor
		if !p.HasMore {
			return pages, end, nil
		}
	}
}

// seen is what a follower of the feed saw: each event's delay from its
// time, and when each ledger transaction's event arrived.
type seen struct {
	mu      sync.Mutex
	count   int
	delays  []time.Duration
	arrived map[int64]time.Time
}

// follow reads the feed from cursor with long polls (wait 30 s, 1,000 at a
// time) until ctx ends, noting the events of time from on.
func (b *bench) follow(ctx context.Context, cursor string, from time.Time) *seen {
	s := &seen{arrived: map[int64]time.Time{}}
	go func() {
		for ctx.Err() == nil {
			p, err := b.readPage(ctx, cursor, 1000, 30*time.Second)
			if err != nil {
				if ctx.Err() == nil {
					fmt.Println("follower:", err)
					time.Sleep(100 * time.Millisecond)
				}
				continue
			}
			at := time.Now()
			s.mu.Lock()
			s.count += len(p.Value)
			for _, e := range p.Value {
				if e.Time.Before(from) {
					continue
				}
				s.delays = append(s.delays, at.Sub(e.Time))
				if e.Data.TransactionID != 0 && e.Type != "stocklevel.changed" {
					s.arrived[e.Data.TransactionID] = at
				}
			}
			s.mu.Unlock()
			cursor = p.Cursor
		}
	}()
	return s
}

// pageRun times GET /Events?limit=1000 over the feed's full pages, each
// read once in turn until cfg.pages reads are made.
func (b *bench) pageRun(ctx context.Context, cfg runConfig) error {
	pages, _, err := b.feedEnd(ctx)
	if err != nil {
		return err
	}
	if len(pages) == 0 {
		return fmt.Errorf("the feed has no page of 1,000 events")
	}
	var ds []time.Duration
	for i := range cfg.pages {
		// The time to the answer's last byte; decoding it is the reader's.
		path := "/Events?limit=1000"
		if c := pages[i%len(pages)]; c != "" {
			path += "&after=" + url.QueryEscape(c)
		}
		start := time.Now()
		status, data, err := b.raw(ctx, "GET", path, nil)
		ds = append(ds, time.Since(start))
		if err != nil {
			return err
		}
		var p eventPage
		if err := json.Unmarshal(data, &p); err != nil || status != 200 || len(p.Value) != 1000 {
			return fmt.Errorf("GET %s: %d, %d events, %v", path, status, len(p.Value), err)
		}
	}
	fmt.Printf("GET /Events?limit=1000, %d reads over %d pages: %s\n", len(ds), len(pages), quantiles(ds))
	return nil
}

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// writes are what the writers did: 2xx and other answers, and when each
// ledger transaction's 2xx arrived.
type writes struct {
	ok, refused, failed atomic.Int64
	mu                  sync.Mutex
	answered            map[int64]time.Time
}

// write runs receive, issue and move (a third each, random demo items,
// warehouses and owners, as bench/stock.lua sends them) on conns
// connections until ctx ends, at rate writes a second over all of them
// when rate > 0.
func (b *bench) write(ctx context.Context, conns int, rate float64) *writes {
	w := &writes{answered: map[int64]time.Time{}}
	var tokens chan struct{}
	if rate > 0 {
		tokens = make(chan struct{}, conns)
		go pace(ctx, rate, tokens)
	}
	var wg sync.WaitGroup
	for i := range conns {
		r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(i)))
		wg.Go(func() {
			for ctx.Err() == nil {
				if tokens != nil {
					select {
					case <-tokens:
					case <-ctx.Done():
						return
					}
				}
				b.writeOne(ctx, r, w)
			}
		})
	}
	go func() { <-ctx.Done(); wg.Wait() }()
	return w
}

// pace puts rate tokens a second into tokens until ctx ends.
func pace(ctx context.Context, rate float64, tokens chan<- struct{}) {
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	start, sent := time.Now(), 0
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			for due := int(now.Sub(start).Seconds() * rate); sent < due; sent++ {
				select {
				case tokens <- struct{}{}:
				case <-ctx.Done():
					return
				}
			}
		}
	}
}

// writeOne sends one stock operation and notes its answer.
func (b *bench) writeOne(ctx context.Context, r *rand.Rand, w *writes) {
	item := fmt.Sprintf("DEMO-%07d", r.IntN(b.items)+1)
	wid := r.IntN(b.whs) + 1
	body := map[string]any{"itemID": item, "wid": wid}
	if len(b.owners) > 0 {
		body["owner"] = b.owners[r.IntN(len(b.owners))]
	}
	path := "/Inventory/Receive"
	switch r.IntN(3) {
	case 0:
		body["units"], body["reasonCode"], body["spot"] = 5, 1, "R-01"
	case 1:
		path = "/Inventory/Issue"
		body["units"], body["reasonCode"] = 1, 20
	default:
		path = "/Inventory/Move"
		body["units"], body["shipToWid"], body["toSpot"] = 1, wid%b.whs+1, fmt.Sprintf("M-%02d", r.IntN(21))
	}
	var out struct {
		TransactionID int64 `json:"transactionID"`
	}
	status, err := b.call(ctx, "POST", path, body, &out)
	at := time.Now()
	switch {
	case err != nil || status == 0:
		if ctx.Err() == nil {
			w.failed.Add(1)
		}
	case status/100 == 2:
		w.ok.Add(1)
		w.mu.Lock()
		w.answered[out.TransactionID] = at
		w.mu.Unlock()
	default:
		w.refused.Add(1)
	}
}

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// demoBatch is how many items one transaction of the demo loader stores.
// Larger batches are slower on SQLite, whose driver binds parameters of a
// statement in time that grows faster than their number.
const demoBatch = 100

func runDemo(ctx context.Context, e env, args []string) error {
	fs, dsn := newFlags("demo")
	n := fs.Int("items", 1000, "how many demo items to have (DEMO-0000001 onwards; existing ones are kept)")
	check := func() error {
		if *n < 1 || *n > 100_000_000 {
			return usageFor(fs, "--items must be between 1 and 100000000")
		}
		return nil
	}
	return withService(ctx, e, fs, dsn, args, check, func(svc *service.Service) error {
		return loadDemoItems(ctx, e, svc, *n)
	})
}

// loadDemoItems stores items DEMO-0000001..n with plausible fields, in
// batches, printing progress to standard error.
func loadDemoItems(ctx context.Context, e env, svc *service.Service, n int) error {
	var (
		nouns   = []string{"bolt", "nut", "washer", "bracket", "hinge", "cable", "valve", "gasket", "bearing", "spring", "fuse", "relay"}
		adjs    = []string{"steel", "brass", "nylon", "zinc-plated", "stainless", "heavy-duty", "compact", "insulated"}
		uoms    = []string{"EA", "BOX", "KG", "M", "PK"}
		putUps  = []string{"", "Box of 10", "Box of 100", "Reel 50 m", "Bag 1 kg"}
		rng     = rand.New(rand.NewPCG(1, 2)) // the same data every run
		start   = time.Now()
		stored  int64
		nextLog = time.Now()
	)
	for first := 1; first <= n; first += demoBatch {
		last := min(first+demoBatch-1, n)
		batch := make([]stockroom.ItemChange, 0, last-first+1)
		for i := first; i <= last; i++ {
			desc := fmt.Sprintf("%s %s %d", adjs[rng.IntN(len(adjs))], nouns[rng.IntN(len(nouns))], 1+rng.IntN(200))
			cat, sub := int64(1+rng.IntN(50)), int64(1+rng.IntN(10))
			uom, putUp := uoms[rng.IntN(len(uoms))], putUps[rng.IntN(len(putUps))]
			units := stockroom.Units(1+rng.IntN(100)) * stockroom.UnitScale
			batch = append(batch, stockroom.ItemChange{
				ShortID: fmt.Sprintf("DEMO-%07d", i), Description: &desc, Category: &cat, SubCategory: &sub,
				UOM: &uom, PutUp: &putUp, Units: &units,
			})
		}
		k, err := svc.ImportItems(ctx, "demo", batch)
		if err != nil {
			return err
		}
		stored += k
		if time.Now().After(nextLog) || last == n {
			elapsed := time.Since(start)
			fmt.Fprintf(e.stderr, "items: %d/%d (%d%%), %d new, %s elapsed, %.0f items/s\n",
				last, n, last*100/n, stored, elapsed.Round(time.Second), float64(last-0)/elapsed.Seconds())
			nextLog = time.Now().Add(2 * time.Second)
		}
	}
	fmt.Fprintf(e.stdout, "demo items: %d requested, %d new\n", n, stored)
	return nil
}

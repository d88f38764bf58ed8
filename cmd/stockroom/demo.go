package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
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
	lots := fs.Int("lots", 0, "how many demo lots to receive, spread evenly over the items and warehouses")
	whs := fs.Int("warehouses", 1, "how many warehouses the lots go to (warehouses 1..N, created when missing)")
	ownerList := fs.String("owners", "0", "whose lots: comma-separated owners (customerIDs of existing customers, 0 for the house) the lots are spread over")
	var owners []int64
	check := func() error {
		switch {
		case *n < 1 || *n > 100_000_000:
			return usageFor(fs, "--items must be between 1 and 100000000")
		case *lots < 0 || *lots > 100_000_000:
			return usageFor(fs, "--lots must be between 0 and 100000000")
		case *whs < 1 || *whs > 1000:
			return usageFor(fs, "--warehouses must be between 1 and 1000")
		}
		o, err := stockroom.ParseOwners(*ownerList)
		if err != nil || o.All {
			return usageFor(fs, "--owners: want a list of customerIDs, 0 for the house's own stock")
		}
		owners = o.IDs
		return nil
	}
	return withService(ctx, e, args, serviceFlags{fs: fs, dsn: dsn, check: check}, func(svc *service.Service) error {
		if err := loadDemoCategories(ctx, svc); err != nil {
			return err
		}
		if err := loadDemoItems(ctx, e, svc, *n); err != nil {
			return err
		}
		if *lots == 0 {
			return nil
		}
		err := loadDemoLots(ctx, e, svc, demoLots{items: *n, lots: *lots, whs: *whs, owners: owners})
		if errors.Is(err, stockroom.ErrOwnerInactive) {
			// Said as a plain error: describe would show only the
			// refusal's own message, which names no owner.
			err = fmt.Errorf("--owners %s: every owner but 0 must be an existing, active customer", *ownerList)
		}
		return err
	})
}

// demoLotBatch is how many lots one transaction of the demo loader
// receives, and demoLoaders how many such transactions run at once.
const (
	demoLotBatch = 1000
	demoLoaders  = 4
)

// demoLots says which lots the demo loads: lots of them, spread over the
// first items demo items, warehouses 1..whs and the owners.
type demoLots struct {
	items, lots, whs int
	owners           []int64
}

// lot returns the receipt of the i-th demo lot: lot i is of item i mod
// items, and each item's lots go to the warehouses in turn. The owners take
// turns too, item by item and warehouse by warehouse, so each item's lots in
// a warehouse are spread over every owner.
func (d demoLots) lot(i int, partNos []int64, rng *rand.Rand) stockroom.Receipt {
	item, round := i%d.items, i/d.items
	wid, turn := round%d.whs, round/d.whs
	return stockroom.Receipt{
		PartNo: partNos[item],
		Owner:  d.owners[(item+wid+turn)%len(d.owners)],
		ReceiveRequest: stockroom.ReceiveRequest{
			WID:    int64(1 + wid),
			Spot:   fmt.Sprintf("A-%02d-%02d", rng.IntN(40), rng.IntN(10)),
			Units:  stockroom.Whole(int64(1 + rng.IntN(100))),
			Serial: fmt.Sprintf("L%08d", i+1),
			Price:  stockroom.FromMicros(int64(rng.IntN(100_000)) * 1000),
		},
	}
}

// loadDemoLots receives the demo lots, each recorded in the ledger as an
// opening balance.
func loadDemoLots(ctx context.Context, e env, svc *service.Service, d demoLots) error {
	items, n, whs := d.items, d.lots, d.whs
	for wid := 1; wid <= whs; wid++ {
		err := svc.AddWarehouse(ctx, service.Operator, stockroom.Warehouse{ID: int64(wid), Name: fmt.Sprintf("Demo %d", wid)})
		if err != nil && stockroom.ErrorCode(err) != stockroom.ECONFLICT {
			return err
		}
	}
	ids := make([]string, items)
	for i := range ids {
		ids[i] = fmt.Sprintf("DEMO-%07d", i+1)
	}
	parts, err := svc.PartNos(ctx, ids)
	if err != nil {
		return err
	}
	// Batches are independent (each touches its own lots and ledger entries,
	// and levels in a fixed order), so several run at once; the database
	// decides how many truly overlap.
	var (
		mu      sync.Mutex
		done    int
		start   = time.Now()
		nextLog = time.Now()
		batches = make(chan int)
		errs    = make(chan error, demoLoaders)
		wg      sync.WaitGroup
	)
	for range demoLoaders {
		wg.Go(func() {
			for first := range batches {
				rng := rand.New(rand.NewPCG(3, uint64(first))) // the same data every run
				last := min(first+demoLotBatch, n)
				batch := make([]stockroom.Receipt, 0, last-first)
				for i := first; i < last; i++ {
					batch = append(batch, d.lot(i, parts, rng))
				}
				if _, err := svc.ImportLots(ctx, "demo", batch); err != nil {
					errs <- err
					return
				}
				mu.Lock()
				done += len(batch)
				if time.Now().After(nextLog) || done == n {
					elapsed := time.Since(start)
					fmt.Fprintf(e.stderr, "lots: %d/%d (%d%%), %s elapsed, %.0f lots/s\n",
						done, n, done*100/n, elapsed.Round(time.Second), float64(done)/elapsed.Seconds())
					nextLog = time.Now().Add(2 * time.Second)
				}
				mu.Unlock()
			}
		})
	}
	func() {
		defer close(batches)
		for first := 0; first < n; first += demoLotBatch {
			select {
			case batches <- first:
			case err := <-errs:
				errs <- err
				return
			}
		}
	}()
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
	}
	fmt.Fprintf(e.stdout, "demo lots: %d received into warehouses 1..%d for owners %s\n", n, whs, stockroom.Scope{IDs: d.owners})
	return nil
}

// demoCategories is how many categories the demo items fall into
// (categories 1..demoCategories; subcategories are among the first ten).
const demoCategories = 50

// loadDemoCategories creates the categories the demo items name, keeping
// any that exist.
func loadDemoCategories(ctx context.Context, svc *service.Service) error {
	cats := make([]stockroom.CategoryChange, demoCategories)
	for i := range cats {
		name := fmt.Sprintf("Demo category %d", i+1)
		cats[i] = stockroom.CategoryChange{CategoryID: int64(i + 1), Name: &name}
	}
	_, err := svc.ImportCategories(ctx, cats)
	return err
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
			cat, sub := int64(1+rng.IntN(demoCategories)), int64(1+rng.IntN(10))
			uom, putUp := uoms[rng.IntN(len(uoms))], putUps[rng.IntN(len(putUps))]
			units := stockroom.Whole(int64(1 + rng.IntN(100)))
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

package client_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
)

// Connect with the client credentials, create an item and receive stock.
// The SDK fetches and renews the token by itself.
func Example() {
	ctx := context.Background()
	c, err := client.New(serverURL, clientID, clientSecret)
	if err != nil {
		log.Fatal(err)
	}
	sku := unique("BOLT-M8") // any ShortID not in use yet
	if _, err := c.CreateItem(ctx, client.ItemInput{ShortID: sku, Description: new("Hex bolt M8x40"), UOM: new("EA")}); err != nil {
		log.Fatal(err)
	}
	res, err := c.Receive(ctx, client.ReceiveRequest{
		ItemID:     sku,
		Units:      stockroom.Whole(500), // exactly 500
		WID:        1,
		ReasonCode: 1, // purchase order receipt
		Spot:       "A-01",
		Reference:  "PO-4711",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("received", res.Lot.Units, "into spot", res.Lot.Spot)

	levels, err := c.ListStockLevels(ctx, client.StockLevelListOptions{ItemID: sku})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("in stock:", levels.Value[0].InStock)
	// Output:
	// received 500 into spot A-01
	// in stock: 500
}

// Move part of the stock to another bin: the oldest lot gives first, and a
// part of a lot splits off into a new lot at the destination.
func ExampleClient_Move() {
	ctx := context.Background()
	c, err := client.New(serverURL, clientID, clientSecret)
	if err != nil {
		log.Fatal(err)
	}
	sku := unique("CABLE-3G")
	if _, err := c.CreateItem(ctx, client.ItemInput{ShortID: sku, UOM: new("M")}); err != nil {
		log.Fatal(err)
	}
	if _, err := c.Receive(ctx, client.ReceiveRequest{ItemID: sku, Units: stockroom.Whole(100), WID: 1, ReasonCode: 1, Spot: "A-01"}); err != nil {
		log.Fatal(err)
	}
	length, err := stockroom.ParseUnits("37.5")
	if err != nil {
		log.Fatal(err)
	}
	moved, err := c.Move(ctx, client.MoveRequest{ItemID: sku, Units: length, WID: 1, FromSpot: "A-01", ToSpot: new("B-02")})
	if err != nil {
		log.Fatal(err)
	}
	line := moved.Lines[0]
	fmt.Printf("moved %s to %s; %s left in the source lot; split off: %v\n", moved.Units, *moved.ToSpot, line.Remaining, line.SplitRecNo() != 0)
	// Output:
	// moved 37.5 to B-02; 62.5 left in the source lot; split off: true
}

// Issue stock for a sales order. Quantities are exact decimals.
func ExampleClient_Issue() {
	ctx := context.Background()
	c, err := client.New(serverURL, clientID, clientSecret)
	if err != nil {
		log.Fatal(err)
	}
	sku := unique("GLUE-1L")
	if _, err := c.CreateItem(ctx, client.ItemInput{ShortID: sku}); err != nil {
		log.Fatal(err)
	}
	if _, err := c.Receive(ctx, client.ReceiveRequest{ItemID: sku, Units: stockroom.Whole(20), WID: 1, ReasonCode: 1}); err != nil {
		log.Fatal(err)
	}
	qty, err := stockroom.ParseUnits("12.125")
	if err != nil {
		log.Fatal(err)
	}
	issued, err := c.Issue(ctx, client.IssueRequest{ItemID: sku, Units: qty, WID: 1, ReasonCode: 20, Reference: "SO-1001"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("issued", issued.Units, "- left in the lot:", issued.Lines[0].Remaining)
	// Output:
	// issued 12.125 - left in the lot: 7.875
}

// Walk every page of a list with a range-over-func loop; the iterator asks
// for the next page when the loop reaches the end of the current one.
func ExampleClient_Lots() {
	ctx := context.Background()
	c, err := client.New(serverURL, clientID, clientSecret)
	if err != nil {
		log.Fatal(err)
	}
	sku := unique("PALLET")
	if _, err := c.CreateItem(ctx, client.ItemInput{ShortID: sku}); err != nil {
		log.Fatal(err)
	}
	for n := range 5 {
		if _, err := c.Receive(ctx, client.ReceiveRequest{ItemID: sku, Units: stockroom.Whole(int64(n + 1)), WID: 1, ReasonCode: 1}); err != nil {
			log.Fatal(err)
		}
	}
	var lots int
	var total stockroom.Units
	opts := client.LotListOptions{ItemID: sku, ListOptions: client.ListOptions{PageSize: 2}} // 3 pages
	for lot, err := range c.Lots(ctx, opts) {
		if err != nil {
			log.Fatal(err)
		}
		lots++
		total = total.Add(lot.Units)
	}
	fmt.Println(lots, "lots holding", total, "units")
	// Output:
	// 5 lots holding 15 units
}

// Keep a copy of the stock levels up to date: each run asks only for what
// changed since the mark the previous run stored.
func ExampleClient_StockLevelChanges() {
	ctx := context.Background()
	c, err := client.New(serverURL, clientID, clientSecret)
	if err != nil {
		log.Fatal(err)
	}
	sku := unique("FILTER")
	if _, err := c.CreateItem(ctx, client.ItemInput{ShortID: sku}); err != nil {
		log.Fatal(err)
	}
	if _, err := c.Receive(ctx, client.ReceiveRequest{ItemID: sku, Units: stockroom.Whole(8), WID: 1, ReasonCode: 1}); err != nil {
		log.Fatal(err)
	}
	filter := client.StockLevelListOptions{ItemID: sku} // leave it out to sync every item

	var mark time.Time // the zero time: the first run fetches everything
	changes, err := c.StockLevelChanges(ctx, mark, filter)
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range changes.Records {
		fmt.Println("first run:", l.InStock, "in stock")
	}
	mark = changes.Mark // store it with the copy

	if _, err := c.Issue(ctx, client.IssueRequest{ItemID: sku, Units: stockroom.Whole(8), WID: 1, ReasonCode: 20}); err != nil {
		log.Fatal(err)
	}
	changes, err = c.StockLevelChanges(ctx, mark, filter)
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range changes.Records {
		fmt.Println("next run:", l.InStock, "in stock")
	}
	// Output:
	// first run: 8 in stock
	// next run: 0 in stock
}

// A refusal is an *Error carrying the server's error object; errors.As
// finds it. Too little stock is a 409 conflict that names what is there.
func ExampleError() {
	ctx := context.Background()
	c, err := client.New(serverURL, clientID, clientSecret)
	if err != nil {
		log.Fatal(err)
	}
	sku := unique("SEAL-40")
	if _, err := c.CreateItem(ctx, client.ItemInput{ShortID: sku}); err != nil {
		log.Fatal(err)
	}
	if _, err := c.Receive(ctx, client.ReceiveRequest{ItemID: sku, Units: stockroom.Whole(40), WID: 1, ReasonCode: 1}); err != nil {
		log.Fatal(err)
	}
	_, err = c.Issue(ctx, client.IssueRequest{ItemID: sku, Units: stockroom.Whole(100), WID: 1, ReasonCode: 20})
	var apiErr *client.Error
	if errors.As(err, &apiErr) && apiErr.Code == stockroom.ECONFLICT {
		fmt.Println(apiErr.StatusCode, apiErr.Message)
	}
	// Output:
	// 409 Insufficient stock: 100 units requested, 40 available.
}

package httpapi_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom/internal/httpapi"
	"github.com/stockroom/stockroom/internal/metrics"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/testdb"
)

var restSeconds = regexp.MustCompile(`(?m)^stockroom_export_rest_seconds_total (\S+)$`)

// exportRested is the server's stockroom_export_rest_seconds_total.
func exportRested(t *testing.T, m *metrics.Metrics) float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	match := restSeconds.FindStringSubmatch(rec.Body.String())
	if match == nil {
		t.Fatalf("no stockroom_export_rest_seconds_total in\n%s", rec.Body.String())
	}
	v, err := strconv.ParseFloat(match[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestCSVExportGivesWayToWrites: an export rests between its batches of
// rows while a write is under way on the instance, and only then.
func TestCSVExportGivesWayToWrites(t *testing.T) {
	skipUnlessSQLite(t)
	m := metrics.New()
	a := newAPIWith(t, testdb.MustOpen(t, "sqlite"), service.Options{}, func(c *httpapi.Config) { c.Metrics = m })
	admin := stockAPI(t, a)
	a.importLots(t, 5_000)
	export := func() {
		res := a.openCSV(t, "/api/v1/Inventory", admin)
		defer res.Body.Close()
		if _, err := io.Copy(io.Discard, res.Body); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(150 * time.Millisecond) // the setup's writes are over
	export()
	if r := exportRested(t, m); r != 0 {
		t.Fatalf("rested %v s with no write under way", r)
	}

	// A receipt under way: its body is still coming.
	body, feed := io.Pipe()
	t.Cleanup(func() { feed.CloseWithError(io.ErrUnexpectedEOF) }) // before the server closes, should the test fail
	answered := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest("POST", a.url+"/api/v1/Inventory/Receive", body)
		req.Header.Set("Authorization", "Bearer "+admin)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			answered <- 0
			return
		}
		res.Body.Close()
		answered <- res.StatusCode
	}()
	for end := time.Now().Add(10 * time.Second); exportRested(t, m) == 0; {
		if time.Now().After(end) {
			t.Fatal("exports did not rest while a write was under way")
		}
		export()
	}
	// An export whose rows end in their first batch has nothing to give
	// way with: it does not rest after its last rows.
	before := exportRested(t, m)
	res := a.openCSV(t, "/api/v1/Inventory/StockLevels", admin)
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if after := exportRested(t, m); after != before {
		t.Fatalf("a one-batch export rested %v s after its last rows", after-before)
	}
	if _, err := io.Copy(feed, strings.NewReader(`{"itemID": "ITEM-A", "units": 1, "wid": 1, "reasonCode": 1}`)); err != nil {
		t.Fatal(err)
	}
	feed.Close()
	if status := <-answered; status != 201 {
		t.Fatalf("the receipt answered %d", status)
	}

	time.Sleep(150 * time.Millisecond) // longer than writeQuiet
	before = exportRested(t, m)
	export()
	if after := exportRested(t, m); after != before {
		t.Fatalf("rested %v s more once the write had ended", after-before)
	}
}

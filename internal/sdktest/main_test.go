package sdktest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/client"
	"github.com/stockroom/stockroom/internal/httpapi"
	"github.com/stockroom/stockroom/internal/openapitest"
	"github.com/stockroom/stockroom/internal/ratelimit"
	"github.com/stockroom/stockroom/internal/service"
	"github.com/stockroom/stockroom/internal/store"
	"github.com/stockroom/stockroom/internal/testdb"
)

// Each test starts a real server of its own (newServer), over a fresh
// database, and every response the SDK receives is held to the OpenAPI
// document.
func TestMain(m *testing.M) { os.Exit(openapitest.Run(m)) }

// skus hands out ShortIDs no other test has used, so that each starts from
// an item of its own, also under -count=N.
var skus atomic.Int64

func unique(prefix string) string { return fmt.Sprintf("%s-%d", prefix, skus.Add(1)) }

// testServer is a real server of a test's own, over a fresh SQLite database.
type testServer struct {
	url                  string
	db                   *store.DB
	svc                  *service.Service
	adminID, adminSecret string
	skew                 atomic.Int64 // added to the service clock, in nanoseconds
}

// serverConfig sets what a test needs different from the defaults.
type serverConfig struct {
	tokenTTL  time.Duration // 1 h when zero
	rateLimit int           // requests per minute per client; 0: unlimited
	engine    string        // store.SQLite when empty
	webhooks  service.WebhookOptions
}

func newServer(t *testing.T, cfg serverConfig) *testServer {
	t.Helper()
	s := &testServer{}
	if cfg.tokenTTL == 0 {
		cfg.tokenTTL = time.Hour
	}
	if cfg.engine == "" {
		cfg.engine = store.SQLite
	}
	s.db = testdb.MustOpen(t, cfg.engine)
	s.svc = service.New(s.db, service.Options{
		TokenTTL: cfg.tokenTTL,
		Webhooks: cfg.webhooks,
		Now:      func() time.Time { return stockroom.Now().Add(time.Duration(s.skew.Load())) },
	})
	var ok bool
	var err error
	if s.adminID, s.adminSecret, ok, err = s.svc.Bootstrap(context.Background()); err != nil || !ok {
		t.Fatalf("bootstrap: %v (created: %v)", err, ok)
	}
	hc := httpapi.Config{Service: s.svc}
	if cfg.rateLimit > 0 {
		hc.Limiter = ratelimit.NewLocal(cfg.rateLimit, nil)
	}
	srv := httptest.NewServer(httpapi.New(hc))
	t.Cleanup(srv.Close)
	s.url = srv.URL
	return s
}

// advance moves the server's clock; negative values move it back.
func (s *testServer) advance(d time.Duration) { s.skew.Add(int64(d)) }

// admin returns an SDK client with the administrator's credentials.
func (s *testServer) admin(t *testing.T, opts ...client.Option) *client.Client {
	t.Helper()
	return newClient(t, s.url, s.adminID, s.adminSecret, opts...)
}

// clientWith creates a client through the service, as the admin command
// does, and returns an SDK client for it.
func (s *testServer) clientWith(t *testing.T, nc service.NewClient, opts ...client.Option) *client.Client {
	t.Helper()
	if nc.Name == "" {
		nc.Name = "test client"
	}
	id, secret, err := s.svc.AddClient(context.Background(), service.Operator, nc)
	if err != nil {
		t.Fatalf("add client: %v", err)
	}
	return newClient(t, s.url, id, secret, opts...)
}

// addWarehouse adds a warehouse, as the admin command does.
func (s *testServer) addWarehouse(t *testing.T, id int64, name string) {
	t.Helper()
	if err := s.svc.AddWarehouse(context.Background(), service.Operator, stockroom.Warehouse{ID: id, Name: name}); err != nil {
		t.Fatalf("add warehouse: %v", err)
	}
}

func newClient(t *testing.T, url, id, secret string, opts ...client.Option) *client.Client {
	t.Helper()
	c, err := client.New(url, id, secret, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// exchange is one HTTP exchange as the client's transport saw it.
type exchange struct {
	method, path   string
	status         int // 0 when no response was delivered
	idempotencyKey string
	replayed       bool
}

// tap is an http.RoundTripper in front of the real one that records every
// exchange, and can make a fault happen after the server has answered: the
// kind of failure (a dropped connection, a proxy's 504) after which a client
// cannot know whether its request took effect. Beneath the fault, every
// response the server sent is held to the OpenAPI document, whatever the
// fault makes of it.
type tap struct {
	mu        sync.Mutex
	exchanges []exchange
	// fault, when set, sees each real response and may replace it with an
	// error or another response.
	fault func(req *http.Request, res *http.Response) (*http.Response, error)
}

func (tp *tap) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := openapitest.Transport(http.DefaultTransport).RoundTrip(req)
	if err == nil && tp.fault != nil {
		res, err = tp.fault(req, res)
	}
	ex := exchange{method: req.Method, path: req.URL.EscapedPath(), idempotencyKey: req.Header.Get("Idempotency-Key")}
	if res != nil {
		ex.status = res.StatusCode
		ex.replayed = res.Header.Get("Idempotent-Replayed") == "true"
	}
	tp.mu.Lock()
	tp.exchanges = append(tp.exchanges, ex)
	tp.mu.Unlock()
	return res, err
}

// option routes a client through the tap.
func (tp *tap) option() client.Option { return client.WithHTTPClient(&http.Client{Transport: tp}) }

// count returns how many exchanges had the given method and a path ending in
// suffix, and status (any when 0).
func (tp *tap) count(method, suffix string, status int) int {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	n := 0
	for _, ex := range tp.exchanges {
		if ex.method == method && strings.HasSuffix(ex.path, suffix) && (status == 0 || ex.status == status) {
			n++
		}
	}
	return n
}

// matching returns the exchanges with the given method and path suffix.
func (tp *tap) matching(method, suffix string) []exchange {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	var out []exchange
	for _, ex := range tp.exchanges {
		if ex.method == method && strings.HasSuffix(ex.path, suffix) {
			out = append(out, ex)
		}
	}
	return out
}

// units parses a decimal quantity in a test, where it is known to be valid.
func units(t testing.TB, s string) stockroom.Units {
	t.Helper()
	u, err := stockroom.ParseUnits(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// mustCreateItem creates an item with the given ShortID.
func mustCreateItem(t *testing.T, c *client.Client, shortID string) *client.Item {
	t.Helper()
	it, err := c.CreateItem(context.Background(), client.ItemInput{ShortID: shortID, Description: new("Test item " + shortID), UOM: new("EA")})
	if err != nil {
		t.Fatalf("create item %s: %v", shortID, err)
	}
	return it
}

// mustReceive receives units of an item into a warehouse and spot.
func mustReceive(t *testing.T, c *client.Client, shortID string, u stockroom.Units, wid int64, spot string) *client.ReceiveResult {
	t.Helper()
	res, err := c.Receive(context.Background(), client.ReceiveRequest{ItemID: shortID, Units: u, WID: wid, ReasonCode: 1, Spot: spot})
	if err != nil {
		t.Fatalf("receive %s %s: %v", u, shortID, err)
	}
	return res
}

// level returns an item's stock level, summed over the client's warehouses
// (wid 0) or of one warehouse; zero when the item has no stock there.
func level(t *testing.T, c *client.Client, shortID string, wid int64) stockroom.StockLevel {
	t.Helper()
	p, err := c.ListStockLevels(context.Background(), client.StockLevelListOptions{WID: wid, ItemID: shortID})
	if err != nil {
		t.Fatalf("stock levels of %s: %v", shortID, err)
	}
	switch len(p.Value) {
	case 0:
		return stockroom.StockLevel{}
	case 1:
		return p.Value[0]
	}
	t.Fatalf("stock levels of %s: %d records", shortID, len(p.Value))
	return stockroom.StockLevel{}
}

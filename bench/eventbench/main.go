// Command eventbench measures the change feed and webhook deliveries of a
// running server (issue 40's Speed section), for bench/events.sh, which
// loads the data, starts the server (with --webhook-allow-private) and
// passes its address and a token. It is a benchmark, not a test: it has no
// _test.go file and `go test ./...` only builds it.
//
//	eventbench -url URL -token T -mode page      # GET /Events?limit=1000
//	eventbench -url URL -token T -mode backlog   # a webhook's catch-up rate
//	eventbench -url URL -token T -mode steady    # under a steady write load
//
// Every latency is read on this machine's one clock: the server stamps an
// event's time when its change is made, before the commit, so "from the
// event's time" bounds commit-to-reader from above; "from the writer's
// answer" (the writer has its 2xx, so the commit is done) bounds it from
// below, and may be negative when the reader sees the event first.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

func main() {
	var (
		b    bench
		mode string
		cfg  runConfig
	)
	flag.StringVar(&b.base, "url", "http://127.0.0.1:18181", "the server's address")
	flag.StringVar(&b.token, "token", "", "a bearer token of a client with every permission")
	flag.IntVar(&b.items, "items", 10000, "demo items (DEMO-0000001...)")
	flag.IntVar(&b.whs, "warehouses", 5, "warehouses 1..N")
	owners := flag.String("owners", "1,2,3", "owner ids, comma-separated, one named at random per write")
	flag.StringVar(&mode, "mode", "steady", "page, backlog or steady")
	flag.IntVar(&cfg.conns, "conns", 16, "writers' connections")
	flag.Float64Var(&cfg.rate, "rate", 0, "writes per second over all writers (0: as fast as answered)")
	flag.DurationVar(&cfg.duration, "duration", 30*time.Second, "how long the writes run")
	flag.DurationVar(&cfg.settle, "settle", 5*time.Second, "steady: the first part of the run, not counted")
	flag.IntVar(&cfg.readers, "readers", 2, "steady: feed readers long-polling with wait")
	flag.IntVar(&cfg.payload, "payload", 1, "webhook payloadMode: 1 the whole event, 2 its summary")
	flag.IntVar(&cfg.pages, "pages", 200, "page: how many pages of 1,000 to read")
	flag.Parse()
	for o := range strings.SplitSeq(*owners, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(o)); err == nil {
			b.owners = append(b.owners, n)
		}
	}
	b.hc = &http.Client{Timeout: 90 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
	ctx := context.Background()
	var err error
	switch mode {
	case "page":
		err = b.pageRun(ctx, cfg)
	case "backlog":
		err = b.backlogRun(ctx, cfg)
	case "steady":
		err = b.steadyRun(ctx, cfg)
	default:
		err = fmt.Errorf("unknown -mode %q", mode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "eventbench:", err)
		os.Exit(1)
	}
}

// bench is the server under measurement and the demo data it holds.
type bench struct {
	base, token string
	hc          *http.Client
	items, whs  int
	owners      []int
}

// runConfig is a run's shape, from the flags.
type runConfig struct {
	conns, readers, payload, pages int
	rate                           float64
	duration, settle               time.Duration
}

// call sends a request with a JSON body (none when nil) and decodes a 2xx
// answer into out (when not nil); it returns the status.
func (b *bench) call(ctx context.Context, method, path string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(data)
	}
	status, data, err := b.raw(ctx, method, path, rd)
	if err == nil && status/100 == 2 && out != nil {
		err = json.Unmarshal(data, out)
	}
	return status, err
}

// raw sends a request and returns the status and the whole answer.
func (b *bench) raw(ctx context.Context, method, path string, body io.Reader) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, b.base+"/api/v1"+path, body)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+b.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := b.hc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, data, err
}

// must is call for requests that must succeed.
func (b *bench) must(ctx context.Context, method, path string, body, out any) error {
	status, err := b.call(ctx, method, path, body, out)
	if err == nil && status/100 != 2 {
		err = fmt.Errorf("%s %s: %d", method, path, status)
	}
	return err
}

// quantiles prints the median, 99th percentile and largest of ds, in ms.
func quantiles(ds []time.Duration) string {
	if len(ds) == 0 {
		return "no samples"
	}
	slices.Sort(ds)
	at := func(q float64) float64 {
		return float64(ds[min(len(ds)-1, int(q*float64(len(ds))))].Microseconds()) / 1000
	}
	return fmt.Sprintf("p50 %.1f ms  p99 %.1f ms  max %.1f ms  (n %d)", at(0.5), at(0.99), at(1), len(ds))
}

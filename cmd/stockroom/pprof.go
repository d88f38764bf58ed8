//go:build pprof

package main

// A build with the pprof tag (go build -tags pprof ./cmd/stockroom) serves
// Go's profiles (net/http/pprof) at the address STOCKROOM_PPROF names, for
// a benchmark to see where the server's time goes (docs/performance.md, Where
// the time goes). Other builds have no such listener. Give it a loopback
// address: the profiles need no token.

import (
	"log/slog"
	"net/http"
	_ "net/http/pprof"
	"os"
)

func init() {
	if addr := os.Getenv("STOCKROOM_PPROF"); addr != "" {
		go func() {
			if err := http.ListenAndServe(addr, nil); err != nil {
				slog.Error("pprof listener", "addr", addr, "err", err)
			}
		}()
	}
}

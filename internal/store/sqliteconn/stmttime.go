//go:build stmttime

package sqliteconn

import (
	"cmp"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A build with the stmttime tag (bench/sqlite.sh STATEMENTS=1) times every
// statement SQLite's writer runs, kept or not (BEGIN, COMMIT, savepoints).
// SIGUSR1 writes to standard error what each statement took since the last
// SIGUSR1, between the lines statementsBegin and statementsEnd, and starts
// counting again.

const (
	statementsBegin = "-- writer statements: runs, total ms, µs per run, statement --"
	statementsEnd   = "-- end of writer statements --"
)

type statementTime struct {
	runs  int
	total time.Duration
}

func init() {
	var (
		mu    sync.Mutex
		times = map[string]*statementTime{}
	)
	timeStatement = func(query string, began time.Time) {
		d := time.Since(began)
		name := strings.Join(strings.Fields(query), " ")
		if len(name) > 80 {
			name = name[:80]
		}
		mu.Lock()
		defer mu.Unlock()
		st := times[name]
		if st == nil {
			st = &statementTime{}
			times[name] = st
		}
		st.runs++
		st.total += d
	}
	report := make(chan os.Signal, 1)
	signal.Notify(report, syscall.SIGUSR1)
	go func() {
		for range report {
			mu.Lock()
			names := make([]string, 0, len(times))
			for name := range times {
				names = append(names, name)
			}
			slices.SortFunc(names, func(a, b string) int { return cmp.Compare(times[b].total, times[a].total) })
			var out strings.Builder
			fmt.Fprintln(&out, statementsBegin)
			for _, name := range names {
				st := times[name]
				fmt.Fprintf(&out, "%d\t%.1f\t%.1f\t%s\n", st.runs, float64(st.total.Microseconds())/1000,
					float64(st.total.Microseconds())/float64(st.runs), name)
			}
			fmt.Fprintln(&out, statementsEnd)
			times = map[string]*statementTime{}
			mu.Unlock()
			os.Stderr.WriteString(out.String())
		}
	}()
}

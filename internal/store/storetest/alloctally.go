package storetest

import (
	"fmt"
	"strings"
	"sync"

	"github.com/stockroom/stockroom"
)

// allocTally gathers what the workers' answers say: per order line
// ("SO-1/2"), the units promised (commits less uncommits) and shipped; the
// ledger entries of successful commits; the successes by kind; the
// unexpected errors.
type allocTally struct {
	mu           sync.Mutex
	net, shipped map[string]stockroom.Units
	commits      map[int64]bool
	ok           map[string]int
	shortCommits int
	errs         []error
}

// add notes the answer of an order action (kind: commit, uncommit, pack,
// ship) on order no. Refusals (ECONFLICT) are part of the mix.
func (a *allocTally) add(kind, no string, res stockroom.AllocationResult, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err != nil {
		a.refusal(kind+" "+no, err)
		return
	}
	a.ok[kind]++
	for _, l := range res.Lines {
		k := fmt.Sprint(no, "/", l.Line)
		switch kind {
		case "commit":
			a.net[k] = a.net[k].Add(l.Units)
			if l.TransactionID != nil {
				a.commits[*l.TransactionID] = true
			}
		case "uncommit":
			a.net[k] = a.net[k].Sub(l.Units)
		case "ship":
			a.shipped[k] = a.shipped[k].Add(l.Units)
		}
	}
}

// refusal notes a refusal; an error that is none is unexpected. The
// caller holds the lock.
func (a *allocTally) refusal(what string, err error) {
	if stockroom.ErrorCode(err) != stockroom.ECONFLICT {
		a.errs = append(a.errs, fmt.Errorf("%s: %w", what, err))
		return
	}
	if strings.HasPrefix(what, "commit ") {
		a.shortCommits++
	}
}

func (a *allocTally) other(what string, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err != nil {
		a.refusal(what, err)
		return
	}
	a.ok[what]++
}

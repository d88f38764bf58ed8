// Package mixtest holds what the concurrency tests of the store and of the
// HTTP API share: the register of lots their random mixes of requests have
// made, moved and held.
package mixtest

import "math/rand/v2"

// Lots is what a mix knows of its lots: where each was last seen (an L, as
// the mix describes a place), which got there by a move, and which a hold
// put on hold. The zero value is empty and ready. It is not safe for
// concurrent use: the mix holds its own lock around every call.
type Lots[L any] struct {
	at     map[int64]L
	recNos []int64 // in the order first seen, to pick from
	moved  map[int64]bool
	held   []int64
}

// Note records that lot recNo is at at, having got there by a move or not.
func (ls *Lots[L]) Note(recNo int64, at L, moved bool) {
	if ls.at == nil {
		ls.at, ls.moved = map[int64]L{}, map[int64]bool{}
	}
	if _, seen := ls.at[recNo]; !seen {
		ls.recNos = append(ls.recNos, recNo)
	}
	ls.at[recNo] = at
	if moved {
		ls.moved[recNo] = true
	}
}

// Held records that a hold put lot recNo on hold.
func (ls *Lots[L]) Held(recNo int64) { ls.held = append(ls.held, recNo) }

// At returns where lot recNo was last seen, if it is known.
func (ls *Lots[L]) At(recNo int64) (L, bool) {
	at, ok := ls.at[recNo]
	return at, ok
}

// Moved reports whether lot recNo got where it is by a move.
func (ls *Lots[L]) Moved(recNo int64) bool { return ls.moved[recNo] }

// Pick returns a known lot and where it was last seen, or false before any
// is known. For a release it picks one a hold put on hold, if there is any:
// so few lots are held that a release of a random one would seldom release
// anything, and the release path would be tested by chance. (It may have
// been released since; that release changes nothing, as it should.)
func (ls *Lots[L]) Pick(rng *rand.Rand, release bool) (int64, L, bool) {
	from := ls.recNos
	if release && len(ls.held) > 0 {
		from = ls.held
	}
	if len(from) == 0 {
		var none L
		return 0, none, false
	}
	r := from[rng.IntN(len(from))]
	return r, ls.at[r], true
}
